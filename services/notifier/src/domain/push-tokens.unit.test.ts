import { isApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { deviceChange, readRegistration, readStaleTokens } from './push-tokens.ts';

function outcome(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (error) {
    if (!isApiError(error)) throw error;
    return `${error.status}:${error.message}`;
  }
}

describe('push token registration input', () => {
  const ok = { installation_id: 'c0ffee-1', platform: 'ios', push_token: 'ExponentPushToken[abc]' };

  it('takes a device identifier, a platform and a token (empty: unregister)', () => {
    expect(readRegistration(ok)).toEqual(ok);
    expect(readRegistration({ ...ok, push_token: '' })).toEqual({ ...ok, push_token: '' });
    expect(readRegistration({ ...ok, push_token: null })).toEqual({ ...ok, push_token: '' });
    expect(readRegistration({ ...ok, installation_id: 12345 })).toEqual({ ...ok, installation_id: '12345' });
  });

  it.each([
    [{ installation_id: '' }, '400:Invalid Device Identifier'],
    [{ installation_id: '0' }, '400:Invalid Device Identifier'],
    [{ installation_id: null }, '400:Invalid Device Identifier'],
    [{ installation_id: { id: 1 } }, '400:Invalid Device Identifier'],
    [{ installation_id: 'x'.repeat(256) }, '400:Invalid Device Identifier'],
    [{ platform: '' }, '400:Invalid Device Platform'],
    [{ platform: ['ios'] }, '400:Invalid Device Platform'],
    [{ platform: 'i o s' }, '400:Invalid Device Platform'],
    [{ push_token: 42 }, '400:Invalid push token'],
    [{ push_token: { token: 'x' } }, '400:Invalid push token'],
  ])('refuses %j', (change, expected) => {
    expect(outcome(() => readRegistration({ ...ok, ...change }))).toBe(expected);
  });

  it('reads the stale token list of the push service', () => {
    expect(readStaleTokens(['a', 'b', 'a', ''])).toEqual(['a', 'b']);
    expect(outcome(() => readStaleTokens({ a: 'b' }))).toMatch(/^400:Invalid tokens/);
    expect(outcome(() => readStaleTokens(['a', 1]))).toBe('400:Invalid tokens: every token must be a string');
  });
});

describe("a registration's change to the device it names", () => {
  const mine = { user_id: 1, push_token: 'ExponentPushToken[a]' };
  const registration = (push_token: string) => ({ installation_id: 'i', platform: 'android', push_token });

  it('registers a new device, keeps an unchanged one and takes a new token of its own user', () => {
    expect(deviceChange(undefined, 1, registration('ExponentPushToken[a]'))).toBe('register');
    expect(deviceChange(mine, 1, registration('ExponentPushToken[a]'))).toBe('keep');
    expect(deviceChange(mine, 1, registration('ExponentPushToken[b]'))).toBe('register');
  });

  it('removes a device only for its own user: for anyone else an empty token removes nothing', () => {
    expect(deviceChange(mine, 1, registration(''))).toBe('remove');
    expect(deviceChange(mine, 2, registration(''))).toBe('nothing');
    expect(deviceChange(undefined, 2, registration(''))).toBe('nothing');
  });

  it('moves a device to another user only with its current token', () => {
    expect(deviceChange(mine, 2, registration('ExponentPushToken[a]'))).toBe('register');
    expect(() => deviceChange(mine, 2, registration('ExponentPushToken[b]'))).toThrow(
      'This device is registered to another user',
    );
  });
});
