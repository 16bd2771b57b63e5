// Settings and modules (docs/domain.md#settings-and-modules). The module switches are settings; the
// HTTP kit reads them per request for routes that declare a module, and GET /session reports them.

import { ApiError, isQueueCopiedSetting, QUEUE_SCHEDULER, QueueCommands } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { changeSetting, getSetting, listSettings } from '../../adapters/settings.ts';
import { PUBLIC_SETTINGS, settingValueToStore } from '../../domain/settings.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { text } from './params.ts';

const NAME = text(100);

export function settingRoutes(deps: GatewayDeps): Route[] {
  const { db, store, bus, log } = deps;

  const byName = async (name: string) => {
    const setting = await getSetting(db, name);
    if (!setting) throw ApiError.badRequest(`Invalid setting name: ${name}`);
    return setting;
  };

  return [
    {
      method: 'GET',
      path: '/settings',
      permission: 'basic_user_action',
      params: {},
      // `[{id, <name>: value}, ...]`: one object per setting, keyed by the setting's own name.
      async handle() {
        return (await listSettings(db)).map((s) => ({ id: s.id, [s.name]: s.value }));
      },
    },
    {
      method: 'GET',
      path: '/settings/by-name/:name',
      permission: 'basic_user_action',
      params: { name: NAME },
      async handle({ params }) {
        const setting = await byName(params.name);
        return { id: setting.id, [setting.name]: setting.value };
      },
    },
    {
      method: 'PUT',
      path: '/settings/:name/:value',
      permission: 'manage_setting',
      // The value travels in the path (the UI does not encode it): an e-mail list can be long.
      params: { name: NAME, value: text(2000) },
      async handle({ params, auth }) {
        const value = settingValueToStore(params.name, params.value);
        const changed = await changeSetting(db, store, params.name, value, actorOf(auth));
        if (!changed) throw ApiError.badRequest(`Invalid setting name: ${params.name}`);
        // The queue-scheduler copies its settings from their events; told at once too, so the next request it
        // decides sees the change (docs/queue.md#the-ports-settings-and-texts). Its absence changes nothing here.
        if (isQueueCopiedSetting(changed.name)) {
          await bus
            .rpc(
              QUEUE_SCHEDULER,
              QueueCommands.copyPortSetting,
              { actor: actorOf(auth), input: { name: changed.name } },
              { timeoutMs: 3000 },
            )
            .catch((err) => log.warn({ err, setting: changed.name }, 'queue-scheduler not told of a setting change'));
        }
        return { [changed.name]: changed.value };
      },
    },
    {
      method: 'GET',
      path: '/public-settings',
      permission: 'public',
      params: { name: NAME },
      async handle({ params }) {
        if (!PUBLIC_SETTINGS.includes(params.name)) throw ApiError.badRequest(`Invalid setting name: ${params.name}`);
        const setting = await byName(params.name);
        return { [setting.name]: setting.value };
      },
    },
  ];
}
