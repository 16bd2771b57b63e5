// The queue's copy of the port's settings and mail texts (docs/queue.md#the-ports-settings-and-texts) on real
// PostgreSQL: changes made before the queue started are read from the log at its start, later ones arrive through
// the relay; a redelivered event changes nothing; a setting never changed takes the gateway's seeded default.

import { QueueCommands, type ServiceDeps, settingStream, translationsStream } from '@pcas/contracts';
import { eventMessage, eventRoutingKey, type Relay, startRelay } from '@pcas/messaging';
import { pollUntil } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettingValues, mailTranslations } from '../adapters/port-settings.ts';
import { queueSettings } from '../domain/queue-rules.ts';
import { type QueueTestDeps, queueTestDeps } from '../testing/deps.ts';
import { portSettingCommands, startPortSettings } from './port-settings.ts';

let queue: QueueTestDeps;
let deps: ServiceDeps;
let relay: Relay;
let projection: { stop(): Promise<void> };
const NS = 'porttest';

const setting = (name: string, value: string, previous: string) =>
  deps.store.append(settingStream(name), [
    { type: 'SettingChanged', data: { name, value, previous_value: previous }, metadata: {} },
  ]);
const texts = (type: string, translations: { key: string; value: string }[]) =>
  deps.store.append(translationsStream(NS, 'en'), [
    { type, data: { namespace: NS, language: 'en', translations }, metadata: {} },
  ]);
/** The copied settings, once `name` has `value` there (waited for with pollUntil's deadline). */
const copiedOnce = (name: string, value: string) =>
  pollUntil(
    () => loadSettingValues(deps.db),
    (values) => values[name] === value,
  );

beforeAll(async () => {
  queue = await queueTestDeps('queue_port_settings', { NAMESPACE: NS });
  ({ deps } = queue);
}, 60_000);

afterAll(async () => {
  await projection?.stop();
  await relay?.stop();
  await queue?.close();
});

describe("the queue's copy of the port's settings and texts", () => {
  it('takes the changes made before it started from the log, the later ones from their events, each once', async () => {
    // Before the queue ever ran: nothing on the bus reaches it (no relay yet).
    await setting('queue_rta_window_duration', 'PT1H', 'PT30M');
    await setting('activity_module', 'disabled', 'enabled');
    await texts('TranslationsAdded', [
      { key: '[EMAIL SLOT REQUEST] Offer', value: 'Tarjous' },
      { key: 'Not a mail text', value: 'x' },
    ]);
    projection = await startPortSettings(deps);
    expect(await loadSettingValues(deps.db)).toEqual({ queue_rta_window_duration: 'PT1H' });
    const settings = queueSettings(await loadSettingValues(deps.db));
    expect(settings.rtaWindowMs).toBe(3_600_000);
    // Never changed: the default the gateway seeds.
    expect(settings.travelToBerthMs).toBe(30 * 60_000);
    expect((await mailTranslations(deps.db, NS))('[EMAIL SLOT REQUEST] Offer')).toBe('Tarjous');
    expect((await mailTranslations(deps.db, NS))('Not a mail text')).toBeUndefined();

    // Changed by the gateway, which then tells the queue (no relay yet, so only this copies it): in the copy at once.
    await setting('queue_laytime_buffer_duration', 'PT45M', 'PT30M');
    const copy = portSettingCommands(deps)[QueueCommands.copyPortSetting];
    await copy({ actor: { user_id: 1, api_key_id: null }, input: { name: 'queue_laytime_buffer_duration' } }, {});
    expect(queueSettings(await loadSettingValues(deps.db)).laytimeBufferMs).toBe(45 * 60_000);
    relay = await startRelay({ store: deps.store, db: deps.db, bus: deps.bus, log: deps.log });
    await setting('port_operator_emails', 'ops@port.example', '');
    await texts('TranslationsReplaced', [{ key: '[EMAIL SLOT REQUEST] Offer', value: 'Offert' }]);
    const copied = await copiedOnce('port_operator_emails', 'ops@port.example');
    expect(copied).toEqual({
      queue_rta_window_duration: 'PT1H',
      queue_laytime_buffer_duration: 'PT45M',
      port_operator_emails: 'ops@port.example',
    });
    const offer = async () => (await mailTranslations(deps.db, NS))('[EMAIL SLOT REQUEST] Offer');
    expect(await pollUntil(offer, (text) => text === 'Offert')).toBe('Offert');

    // A later change, then the first one delivered again (a relay republishing after a crash), then another: the
    // copy keeps the later value.
    await setting('queue_rta_window_duration', 'PT2H', 'PT1H');
    await copiedOnce('queue_rta_window_duration', 'PT2H');
    const [first] = await deps.store.readStream(settingStream('queue_rta_window_duration'));
    await deps.bus.publish(eventRoutingKey(first), eventMessage(first), { messageId: first.id });
    await setting('port_operator_emails', 'duty@port.example', 'ops@port.example');
    const after = await copiedOnce('port_operator_emails', 'duty@port.example');
    expect(after).toEqual({
      queue_rta_window_duration: 'PT2H',
      queue_laytime_buffer_duration: 'PT45M',
      port_operator_emails: 'duty@port.example',
    });
  }, 60_000);
});
