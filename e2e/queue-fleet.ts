// The fleet the queue's e2e tests run on: every mail captured by an SMTP server the test starts, an administrator
// signed in, and a data source's API key.

import { type ReceivedMail, startFleet, startSmtpServer } from '@pcas/testing';
import { expect } from 'vitest';
import { ADMIN, adminAndDataSource } from './timestamps.ts';

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
