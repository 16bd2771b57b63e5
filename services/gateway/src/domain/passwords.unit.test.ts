import { DEFAULT_PASSWORD_RULES, loadConfig, type PasswordRuleSet, parsePasswordRules } from '@pcas/config';
import { describe, expect, it } from 'vitest';
import {
  afterFailedLogin,
  assertPasswordAllowed,
  clientLoginBlockedMessage,
  isSuspended,
  LOCKED_MESSAGE,
  type LoginCounters,
  loginBlockedMessage,
  NO_FAILURES,
  passwordProblem,
  rulesForRole,
  suspendedMessage,
  unknownRuleRoles,
} from './passwords.ts';
import { ROLE_NAMES } from './roles.ts';

// The rules the original's Behat environment sets for role `user`.
const BEHAT =
  '{"user":{"password_min_length":"4","password_min_unique_chars":"1","suspend_failures":"3","suspend_minutes":"1","lock_failures":"7"}}';

describe('PASSWORD_RULES parsing', () => {
  it('defaults to the original rules for every role', () => {
    const rules = parsePasswordRules(undefined);
    expect(rules).toEqual({ default: DEFAULT_PASSWORD_RULES });
    expect(rulesForRole(rules, 'admin')).toEqual({
      password_min_length: 12,
      password_min_unique_chars: 3,
      suspend_failures: 3,
      suspend_minutes: 15,
      lock_failures: 15,
    });
  });

  it('takes per-role overrides as digit strings or numbers, the rest from default', () => {
    const rules = parsePasswordRules(BEHAT);
    expect(rulesForRole(rules, 'user')).toEqual({
      password_min_length: 4,
      password_min_unique_chars: 1,
      suspend_failures: 3,
      suspend_minutes: 1,
      lock_failures: 7,
    });
    expect(rulesForRole(rules, 'first_user')).toEqual(DEFAULT_PASSWORD_RULES);
    const partial = parsePasswordRules('{"default":{"lock_failures":20},"consignee":{"password_min_length":8}}');
    expect(rulesForRole(partial, 'admin').lock_failures).toBe(20);
    expect(rulesForRole(partial, 'consignee')).toMatchObject({ password_min_length: 8, lock_failures: 20 });
  });

  it('refuses what it cannot mean, so a typo stops the start', () => {
    for (const bad of [
      'not json',
      '[]',
      '"x"',
      '{"user": 5}',
      '{"user": {"password_min_lenght": "4"}}',
      '{"user": {"password_min_length": "-1"}}',
      '{"user": {"password_min_length": "4.5"}}',
      '{"user": {"password_min_length": "four"}}',
      '{"user": {"password_min_length": null}}',
      '{"User Role": {}}',
    ]) {
      expect(() => parsePasswordRules(bad), bad).toThrow(/^PASSWORD_RULES: /);
    }
    expect(() => loadConfig({ PASSWORD_RULES: '{' })).toThrow(/PASSWORD_RULES/);
    expect(loadConfig({ PASSWORD_RULES: BEHAT }).passwordRules.user.lock_failures).toBe(7);
  });

  it('names roles that do not exist', () => {
    expect(unknownRuleRoles(parsePasswordRules('{"default":{},"user":{},"usr":{}}'), ROLE_NAMES)).toEqual(['usr']);
  });
});

describe('password rules', () => {
  const user = rulesForRole(parsePasswordRules(BEHAT), 'user');
  const admin = DEFAULT_PASSWORD_RULES;

  it('checks username, length, then unique characters, with the original messages', () => {
    expect(passwordProblem('user1@test.com', 'user1@test.com', user)).toBe("Password can't be same as username");
    expect(passwordProblem(' user1@test.com ', 'user1@test.com', user)).toBe("Password can't be same as username");
    expect(passwordProblem('USER1@test.com', 'user1@TEST.com', user)).toBe("Password can't be same as username");
    expect(passwordProblem('111', 'u', user)).toBe('Password must be at least 4 characters in length');
    expect(passwordProblem('1111', 'u', user)).toBeNull();
    expect(passwordProblem('1234', 'a', admin)).toBe('Password must be at least 12 characters in length');
    expect(passwordProblem('111111222222', 'a', admin)).toBe(
      'Weak password. Not enough unique characters in password.',
    );
    expect(passwordProblem('111122223333', 'a', admin)).toBeNull();
    expect(passwordProblem('123456789012', 'a', admin)).toBeNull();
  });

  it('trims before counting and counts characters, not bytes', () => {
    expect(passwordProblem('   111   ', 'u', user)).toBe('Password must be at least 4 characters in length');
    expect(passwordProblem('ääää', 'u', user)).toBeNull();
    expect(passwordProblem('äöå', 'u', user)).toBe('Password must be at least 4 characters in length');
  });

  it('throws 403 with the message', () => {
    expect(() => assertPasswordAllowed('111', 'u', user)).toThrow(
      expect.objectContaining({ status: 403, message: 'Password must be at least 4 characters in length' }),
    );
    expect(() => assertPasswordAllowed('1111', 'u', user)).not.toThrow();
  });
});

describe('failed logins: suspension and lock (feature account_suspend_and_lock)', () => {
  const rules: PasswordRuleSet = {
    ...DEFAULT_PASSWORD_RULES,
    suspend_failures: 3,
    suspend_minutes: 1,
    lock_failures: 7,
  };
  const t0 = new Date('2030-01-01T12:00:00Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
  const fresh: LoginCounters = { failed_logins: 0, suspend_start: null, locked: false };

  it('suspends on every third failure, for suspend_minutes inclusive', () => {
    let c = fresh;
    c = afterFailedLogin(c, rules, t0);
    expect(c).toEqual({ failed_logins: 1, suspend_start: null, locked: false });
    expect(loginBlockedMessage(c, rules, t0)).toBeNull();
    c = afterFailedLogin(afterFailedLogin(c, rules, t0), rules, t0);
    expect(c).toEqual({ failed_logins: 3, suspend_start: t0, locked: false });
    expect(loginBlockedMessage(c, rules, at(30))).toBe(
      'Too many failed login attempts. Account suspended for 1 minute(s).',
    );
    expect(isSuspended(c, rules, at(60))).toBe(true);
    expect(isSuspended(c, rules, at(61))).toBe(false);
    expect(loginBlockedMessage(c, rules, at(65))).toBeNull();
  });

  it('carries on counting after a suspension and locks at lock_failures', () => {
    let c: LoginCounters = { failed_logins: 3, suspend_start: t0, locked: false };
    c = afterFailedLogin(c, rules, at(65)); // 4
    c = afterFailedLogin(c, rules, at(66)); // 5
    expect(loginBlockedMessage(c, rules, at(66))).toBeNull();
    c = afterFailedLogin(c, rules, at(67)); // 6: suspended again
    expect(c.suspend_start).toEqual(at(67));
    expect(loginBlockedMessage(c, rules, at(67))).toBe(suspendedMessage(1));
    // An admin unsuspends: the counter stays at 6, the next failure locks.
    c = { ...c, suspend_start: null };
    c = afterFailedLogin(c, rules, at(70));
    expect(c).toEqual({ failed_logins: 7, suspend_start: null, locked: true });
    expect(loginBlockedMessage(c, rules, at(10_000))).toBe(LOCKED_MESSAGE);
  });

  it("judges a client by the account's own state and that client's failures, never another client's", () => {
    const strangerLocked: LoginCounters = { failed_logins: 7, suspend_start: null, locked: true };
    const adminSuspended: LoginCounters = { failed_logins: 0, suspend_start: t0, locked: false };
    // Each client has its own counters: the stranger's lock is the stranger's only.
    expect(clientLoginBlockedMessage({ account: fresh, client: strangerLocked }, rules, t0)).toBe(LOCKED_MESSAGE);
    expect(clientLoginBlockedMessage({ account: fresh, client: NO_FAILURES }, rules, t0)).toBeNull();
    // The account's own state (an administrator's suspension or lock) holds for every client.
    expect(clientLoginBlockedMessage({ account: adminSuspended, client: NO_FAILURES }, rules, at(30))).toBe(
      suspendedMessage(1),
    );
    expect(clientLoginBlockedMessage({ account: { ...fresh, locked: true }, client: NO_FAILURES }, rules, t0)).toBe(
      LOCKED_MESSAGE,
    );
  });

  it('the lock wins over a suspension at the same count', () => {
    const both: PasswordRuleSet = { ...rules, suspend_failures: 3, lock_failures: 3 };
    expect(afterFailedLogin({ ...fresh, failed_logins: 2 }, both, t0)).toEqual({
      failed_logins: 3,
      suspend_start: null,
      locked: true,
    });
  });

  it('a count of 0 turns a rule off', () => {
    const off: PasswordRuleSet = { ...rules, suspend_failures: 0, lock_failures: 0 };
    let c = fresh;
    for (let i = 0; i < 50; i++) c = afterFailedLogin(c, off, t0);
    expect(c).toEqual({ failed_logins: 50, suspend_start: null, locked: false });
  });

  it('uses the default rules (suspend every 3rd for 15 min, lock at 15)', () => {
    let c = fresh;
    for (let i = 0; i < 14; i++) c = afterFailedLogin(c, DEFAULT_PASSWORD_RULES, t0);
    expect(c.locked).toBe(false);
    expect(loginBlockedMessage(c, DEFAULT_PASSWORD_RULES, at(15 * 60 - 1))).toBe(suspendedMessage(15));
    c = afterFailedLogin(c, DEFAULT_PASSWORD_RULES, t0);
    expect(c.locked).toBe(true);
  });
});
