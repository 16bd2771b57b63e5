// Password reset by e-mail (docs/domain.md#password-reset). The request always answers the same, at
// the same speed, whether or not the address belongs to anyone (no user enumeration): the mail is composed and
// sent after the answer. Only active users whose username is an e-mail address get one.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import type { Logger } from '@pcas/observability';
import { isMailableUsername } from '@pcas/values';
import { hashPassword } from '../../adapters/password.ts';
import { passwordFingerprint, signResetToken, verifyResetToken } from '../../adapters/reset-token.ts';
import { findActiveUserRecordByEmail, setPassword, userJson } from '../../adapters/users.ts';
import { assertPasswordAllowed, rulesForRole } from '../../domain/passwords.ts';
import type { GatewayDeps } from '../deps.ts';
import { signingKeyLoader } from '../sign-in.ts';
import { text } from './params.ts';
import { EMAIL_MAX, PASSWORD_MAX } from './users.ts';

export const RESET_REQUESTED = { message: 'Password reset requested' } as const;
export const INVALID_TOKEN = { message: 'Invalid token, you must request new one.' } as const;
export const RESET_FAILED = { message: 'Password reset failed, please try again' } as const;
export const RESET_SUBJECT = 'Port Activity App - reset password';

/** `2024-05-01T12:00:00+00:00`, the ATOM form the original's mail used. */
const atom = (date: Date) => `${date.toISOString().slice(0, 19)}+00:00`;

export function resetMailText(link: string, expiresAt: Date): string {
  return [
    'Hello,',
    '',
    'A password reset was requested for your Port Activity App account.',
    'Open this link to choose a new password:',
    '',
    link,
    '',
    `The link expires at ${atom(expiresAt)}. It works once.`,
    'If you did not ask for this, ignore this message: your password stays as it is.',
  ].join('\n');
}

export function passwordRoutes(deps: GatewayDeps): Route[] {
  const { db, store, config, mailer } = deps;
  const signingKeys = signingKeyLoader(deps);

  async function sendResetMail(email: string, port: string, log: Logger): Promise<void> {
    const user = await findActiveUserRecordByEmail(db, email);
    if (!user || !isMailableUsername(user.email)) return;
    const { token, expiresAt } = signResetToken(await signingKeys(), {
      email: user.email,
      port,
      pwf: passwordFingerprint(user.id, user.password_hash),
    });
    const query = new URLSearchParams({ username: user.email, token, port });
    const link = `${config.baseUrl}/reset-password?${query}`;
    await mailer.send({ to: user.email, subject: RESET_SUBJECT, text: resetMailText(link, expiresAt) });
    log.info({ user_id: user.id }, 'password reset mail sent');
  }

  return [
    {
      method: 'POST',
      path: '/request-password-reset',
      permission: 'public',
      params: { email: text(EMAIL_MAX), port: text(100) },
      // Mails to one address, and requests from one client, are limited (docs/security.md#limits).
      rateLimits: [
        { limit: 'reset_address', perAddress: true },
        { limit: 'reset_email', perParam: 'email' },
      ],
      async handle({ params, log }) {
        if (params.email === '') throw ApiError.badRequest("Email can't be empty");
        if (params.port === '') throw ApiError.badRequest("Port can't be empty");
        // Not awaited: how long the answer takes must not tell whether a mail went out.
        void sendResetMail(params.email, params.port, log).catch((error) =>
          log.error({ err: error }, 'password reset mail failed'),
        );
        return RESET_REQUESTED;
      },
    },
    {
      method: 'POST',
      path: '/reset-password',
      permission: 'public',
      params: { password: text(PASSWORD_MAX), token: text(4096) },
      async handle({ params }) {
        if (params.password === '') throw ApiError.badRequest("Password can't be empty");
        if (params.token === '') throw ApiError.badRequest("Token can't be empty");
        const claims = verifyResetToken(await signingKeys(), params.token);
        // The original answered these with 200 {message}; the UI counts any 200 as done and shows the message.
        if (!claims) return INVALID_TOKEN;
        const user = await findActiveUserRecordByEmail(db, claims.email);
        if (!user) return RESET_FAILED;
        if (passwordFingerprint(user.id, user.password_hash) !== claims.pwf) return INVALID_TOKEN;
        assertPasswordAllowed(params.password, user.email, rulesForRole(config.passwordRules, user.role));
        const hash = await hashPassword(params.password);
        // Checked again under the lock: of two resets racing with one token, one wins.
        const updated = await setPassword(
          db,
          store,
          user.id,
          hash,
          'reset',
          { user_id: user.id, api_key_id: null },
          (current) => passwordFingerprint(current.id, current.password_hash) === claims.pwf,
        );
        if (!updated) return INVALID_TOKEN;
        return userJson(updated);
      },
    },
  ];
}
