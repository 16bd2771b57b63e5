// The fleet the queue's e2e tests run on: every mail captured by an SMTP server the test starts, an administrator
// signed in, and a data source's API key.

import { type ReceivedMail, startFleet, startSmtpServer } from '@pcas/testing';
import { expect } from 'vitest';
import { ADMIN, adminAndDataSource, HOUR, iso } from './timestamps.ts';

export { HOUR, iso };
export const MIN = 60_000;
// 00:00 UTC the day after tomorrow: a nomination window the rules accept (not before yesterday, at most a month ahead).
export const W0 = Math.ceil(Date.now() / (24 * HOUR)) * 24 * HOUR + 24 * HOUR;
/** PostgreSQL's text form at UTC, as the original's rows carry times. */
export const pg = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00`;

/** A slot request as a vessel's agent posts it: Victor's (IMO 952002 with its check digit), ETA W0+3h, laytime 2 h. */
export const vesselSlotRequest = (over: Record<string, unknown> = {}) => ({
  email: 'master@victor.example',
  imo: 9520027,
  vessel_name: 'Victor',
  loa: '120.5',
  beam: '20',
  draft: '7.5',
  laytime: '02:00',
  eta: iso(W0 + 3 * HOUR),
  ...over,
});

export type QueueFleet = Awaited<ReturnType<typeof startQueueFleet>>;

/** `env`: the fleet's environment besides SMTP_URL. */
export async function startQueueFleet(env: Record<string, string> = {}) {
  const smtp = await startSmtpServer();
  const system = await startFleet({ SMTP_URL: smtp.url, ...env });
  const made = await adminAndDataSource(system.baseUrl, ADMIN);
  return {
    smtp,
    system,
    admin: made.admin,
    agent: made.api.withApiKey(made.apiKey.key),
    anonymous: made.api.anonymous(),
    apiKeyId: made.apiKey.id,
    /** A slot request as the port reads it. */
    slot: async (id: number) => (await made.admin.get('/slot-reservation-by-id', { id })).body,
    async stop() {
      await system.stop();
      await smtp.close();
    },
  };
}

/** The answer is a 200 (its body shown when not). */
export const ok = (res: { status: number; body: unknown }) => expect(res.status, JSON.stringify(res.body)).toBe(200);

/** The token of the JIT ETA form link in a mail. */
export const etaFormToken = (m: ReceivedMail) => /\/agent\/eta-form\/\?token=([\w.-]+)/.exec(m.text)![1];
