// What the account pages share: the words of a failed call, and the port's name sent with a reset request.

import { ApiError, api } from '../../api/client.ts';

/**
 * The `port` of a reset request. The gateway only carries it into the mail's link (as the original's
 * namespace, which picked the port's logo and texts); this UI does not need it back, so any name will do.
 */
export const RESET_PORT = 'gavle';

/** The API's own words for a failure, or a fallback when the call never got an answer the API wrote. */
export function failureText(caught: unknown, fallback: string): string {
  return caught instanceof ApiError && caught.message ? caught.message : fallback;
}

/** Asks for a reset mail. The answer is the same whether the address is known or not (no user enumeration). */
export function requestPasswordReset(email: string): Promise<unknown> {
  return api('POST', 'request-password-reset', { email: email.trim(), port: RESET_PORT });
}

/** A plain e-mail shape check, only to catch typos before asking the server. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(value.trim());
}
