import { describe, expect, it } from 'vitest';
import { apiKeyUser, canonicalTimeZone } from './users.ts';

describe('apiKeyUser', () => {
  it('is a hidden user that cannot log in (it gets no password hash)', () => {
    const user = apiKeyUser({ now: 1_700_000_000.9, suffix: '65f1a2b3c4d5e', createdBy: 1 });
    expect(user).toEqual({
      email: '1700000000-65f1a2b3c4d5e@api.key',
      first_name: 'ApiKey',
      last_name: 'ApiKey',
      role: 'inactive_user',
      status: 'api_user',
      registration_type: 'api_key',
      created_by: 1,
    });
  });
});

describe('canonicalTimeZone', () => {
  it('accepts IANA names and returns their canonical spelling', () => {
    expect(canonicalTimeZone('Europe/Helsinki')).toBe('Europe/Helsinki');
    expect(canonicalTimeZone('europe/helsinki')).toBe('Europe/Helsinki');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });

  it('rejects anything else', () => {
    expect(canonicalTimeZone('')).toBeNull();
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull();
    expect(canonicalTimeZone('x'.repeat(100))).toBeNull();
  });
});
