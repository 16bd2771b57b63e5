// The queue's copy of the port's settings and mail texts (adapters/port-settings.ts), kept by the gateway's events:
// a projection (queue `projection.queue-port-settings`) brings each changed stream's copy up to date, and at start
// the streams the queue reads are brought up to date too (a change published before this queue was bound, or
// while no process ran, is read from the log).

import { type CommandFunction, decodeCommand } from '@pcas/commands';
import {
  isQueueCopiedSetting,
  QUEUE_SETTING_DEFAULTS,
  QueueCommands,
  type ServiceDeps,
  settingStream,
  translationsStream,
} from '@pcas/contracts';
import { startProjection } from '@pcas/messaging';
import { copyPortStream } from '../adapters/port-settings.ts';

/** The gateway streams the queue reads: its settings, and the mail texts of the port's namespace in English. */
const streamsRead = (namespace: string) => [
  ...Object.keys(QUEUE_SETTING_DEFAULTS).map(settingStream),
  settingStream('port_operator_emails'),
  translationsStream(namespace, 'en'),
];

export async function startPortSettings(deps: ServiceDeps) {
  const { db, store, bus, log, config } = deps;
  await db.transaction(async (tx) => {
    for (const streamId of streamsRead(config.namespace)) await copyPortStream(tx, store, streamId);
  });
  return startProjection({
    bus,
    db,
    name: 'queue-port-settings',
    bindings: ['setting.SettingChanged', 'translations.*'],
    log: log.child({ projection: 'queue-port-settings' }),
    async apply(tx, events) {
      for (const streamId of new Set(events.map((e) => e.streamId))) await copyPortStream(tx, store, streamId);
    },
  });
}

/**
 * `copyPortSetting {name}`: the gateway, right after changing one of the queue's settings, has its copy brought up to
 * date now, so the next request decided sees it (the event's way through the broker may take longer).
 */
export function portSettingCommands({ db, store }: ServiceDeps): Record<string, CommandFunction> {
  return {
    async [QueueCommands.copyPortSetting](payload) {
      const { input } = decodeCommand<{ name?: unknown }>(payload);
      const name = typeof input.name === 'string' ? input.name : '';
      if (isQueueCopiedSetting(name)) await db.transaction((tx) => copyPortStream(tx, store, settingStream(name)));
      return { result: 'OK' };
    },
  };
}
