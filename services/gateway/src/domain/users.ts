// Pure rules about users: the user bound to a new API key (docs/domain.md#api-keys) and time zones (#sessions).

import type { UserCreated } from '@pcas/contracts';

/**
 * The hidden user every API key is bound to: it cannot log in (no password, status api_user, role
 * inactive_user) and exists so that changes made with the key are tracked per user.
 */
export function apiKeyUser(input: {
  /** Unix seconds. */
  now: number;
  /** Uniqueness suffix (the original used PHP uniqid: 13 hex chars). */
  suffix: string;
  createdBy: number | null;
}): Omit<UserCreated, 'id'> {
  return {
    email: `${Math.floor(input.now)}-${input.suffix}@api.key`,
    first_name: 'ApiKey',
    last_name: 'ApiKey',
    role: 'inactive_user',
    status: 'api_user',
    registration_type: 'api_key',
    created_by: input.createdBy,
  };
}

/** The canonical IANA name of a zone the runtime knows, else null (the original ignored invalid zones). */
export function canonicalTimeZone(zone: string): string | null {
  if (zone === '' || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
