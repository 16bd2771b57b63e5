import { describe, expect, it } from 'vitest';
import { loadConfig, RATE_LIMITS_OFF_ENV } from './index.ts';

describe('rate limits (RATE_LIMIT_*)', () => {
  it('default to the documented limits (docs/security.md#limits)', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      loginPerAddressAccount: { points: 10, seconds: 60 },
      loginPerAddress: { points: 100, seconds: 900 },
      resetPerEmail: { points: 5, seconds: 3600 },
      resetPerAddress: { points: 20, seconds: 3600 },
      registerPerEmail: { points: 5, seconds: 3600 },
      registerPerAddress: { points: 20, seconds: 3600 },
      visPerAddress: { points: 600, seconds: 60 },
    });
  });

  it('read <requests>/<period> in seconds, minutes or hours, and off', () => {
    const { rateLimits } = loadConfig({
      RATE_LIMIT_LOGIN_PER_ADDRESS: '3/90',
      RATE_LIMIT_RESET_PER_EMAIL: ' 2 / 30s ',
      RATE_LIMIT_VIS_PER_ADDRESS: '1000/2h',
      RATE_LIMIT_REGISTER_PER_EMAIL: 'OFF',
    });
    expect(rateLimits.loginPerAddress).toEqual({ points: 3, seconds: 90 });
    expect(rateLimits.resetPerEmail).toEqual({ points: 2, seconds: 30 });
    expect(rateLimits.visPerAddress).toEqual({ points: 1000, seconds: 7200 });
    expect(rateLimits.registerPerEmail).toBeNull();
    expect(Object.values(loadConfig(RATE_LIMITS_OFF_ENV).rateLimits)).toEqual(Array(7).fill(null));
  });

  it('refuse to start on anything else', () => {
    for (const bad of ['10', '0/1m', '10/0', '10/1d', 'ten/1m', '-1/1m']) {
      expect(() => loadConfig({ RATE_LIMIT_LOGIN_PER_ADDRESS: bad }), bad).toThrow(/RATE_LIMIT_LOGIN_PER_ADDRESS/);
    }
  });
});

describe('TRUSTED_PROXIES', () => {
  it('trusts no proxy by default, else the addresses listed, or a number of hops', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, loopback' }).trustedProxies).toEqual(['10.0.0.0/8', 'loopback']);
    expect(loadConfig({ TRUSTED_PROXIES: '2' }).trustedProxies).toBe(2);
  });
});
