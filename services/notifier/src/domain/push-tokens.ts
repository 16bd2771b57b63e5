// Push-notification tokens of the mobile app (docs/domain.md#push-tokens). Pure checks of what
// POST /register-push-token and POST /push-notification-tokens receive.

import { ApiError } from '@pcas/contracts';

export interface PushTokenRegistration {
  installation_id: string;
  platform: string;
  /** Empty: the device unregisters (its row is deleted). */
  push_token: string;
}

const MAX_ID_LENGTH = 255;
const MAX_TOKEN_LENGTH = 1_000;
// Expo reports Platform.OS: ios, android (web, windows, macos exist too).
const PLATFORM = /^[A-Za-z0-9_.-]{1,32}$/;

/** A value the original took as given: a non-empty string, or a number sent unquoted. */
function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** The original's checks and messages, plus bounds and types so malformed input is a 400, never a crash. */
export function readRegistration(input: {
  installation_id: unknown;
  platform: unknown;
  push_token: unknown;
}): PushTokenRegistration {
  const installation = text(input.installation_id);
  // PHP's falsy test: "", "0" and 0 are no identifier either.
  if (!installation || installation === '0' || installation.length > MAX_ID_LENGTH) {
    throw ApiError.badRequest('Invalid Device Identifier');
  }
  const platform = typeof input.platform === 'string' ? input.platform.trim() : null;
  if (!platform || platform === '0' || !PLATFORM.test(platform)) throw ApiError.badRequest('Invalid Device Platform');
  // A token is text (Expo: `ExponentPushToken[...]`); only an absent value counts as empty besides "".
  const token = input.push_token === null ? '' : typeof input.push_token === 'string' ? input.push_token.trim() : null;
  if (token === null || token.length > MAX_TOKEN_LENGTH) throw ApiError.badRequest('Invalid push token');
  return { installation_id: installation, platform, push_token: token };
}

/** A device as registered: whose it is and its current token. */
export interface RegisteredDevice {
  user_id: number;
  push_token: string;
}

/** What a registration does to the device it names (by platform and installation id). */
export type DeviceChange = 'register' | 'keep' | 'remove' | 'nothing';

/**
 * Only a device's own user removes it, and a device moves to another user only with its current token (the
 * device itself signing in as someone else): otherwise anyone who learnt an installation id could unregister
 * another user's device or take its pushes away. An empty token naming another user's device removes nothing, as
 * when it names none (the original's answer 0).
 */
export function deviceChange(
  existing: RegisteredDevice | undefined,
  userId: number,
  registration: PushTokenRegistration,
): DeviceChange {
  const own = existing !== undefined && existing.user_id === userId;
  if (registration.push_token === '') return own ? 'remove' : 'nothing';
  if (!existing) return 'register';
  if (own) return existing.push_token === registration.push_token ? 'keep' : 'register';
  if (existing.push_token === registration.push_token) return 'register';
  throw ApiError.forbidden('This device is registered to another user');
}

export const MAX_STALE_TOKENS = 10_000;

/** POST /push-notification-tokens {tokens: [...]}: the tokens the push service found stale. */
export function readStaleTokens(tokens: unknown): string[] {
  if (!Array.isArray(tokens) || tokens.length > MAX_STALE_TOKENS) {
    throw ApiError.badRequest(`Invalid tokens: expected a list of at most ${MAX_STALE_TOKENS} tokens`);
  }
  if (!tokens.every((t) => typeof t === 'string' && t.length <= MAX_TOKEN_LENGTH)) {
    throw ApiError.badRequest('Invalid tokens: every token must be a string');
  }
  return [...new Set((tokens as string[]).filter((t) => t !== ''))];
}
