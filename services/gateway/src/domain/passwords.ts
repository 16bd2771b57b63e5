// Password rules per role (docs/domain.md#password-rules) and the failed-login suspension and lock
// (docs/domain.md#login-suspension-and-lock). Pure: the caller passes the rules from config and the clock.

import type { PasswordRuleSet, PasswordRules } from '@pcas/config';
import { ApiError } from '@pcas/contracts';

/** The rules of a role: its own entry, else `default`. */
export function rulesForRole(rules: PasswordRules, role: string): PasswordRuleSet {
  return Object.hasOwn(rules, role) ? rules[role] : rules.default;
}

/** Role names in PASSWORD_RULES that are not roles (a typo would silently apply the defaults). */
export function unknownRuleRoles(rules: PasswordRules, roleNames: readonly string[]): string[] {
  return Object.keys(rules).filter((name) => name !== 'default' && !roleNames.includes(name));
}

/**
 * The original's checks, in its order, on trimmed values; null when the password is acceptable. Lengths count
 * characters (code points), not bytes.
 */
export function passwordProblem(password: string, username: string, rules: PasswordRuleSet): string | null {
  const candidate = password.trim();
  // Case-insensitively, as usernames are: `Bob@Port.fi` may not be the password of `bob@port.fi` either.
  if (candidate.toLowerCase() === username.trim().toLowerCase()) return "Password can't be same as username";
  const characters = [...candidate];
  if (characters.length < rules.password_min_length) {
    return `Password must be at least ${rules.password_min_length} characters in length`;
  }
  if (new Set(characters).size < rules.password_min_unique_chars) {
    return 'Weak password. Not enough unique characters in password.';
  }
  return null;
}

/** Throws the original's 403 when the password breaks the rules. */
export function assertPasswordAllowed(password: string, username: string, rules: PasswordRuleSet): void {
  const problem = passwordProblem(password, username, rules);
  if (problem) throw ApiError.forbidden(problem);
}

/** What the login rules need of a user: the read model's counters. */
export interface LoginCounters {
  failed_logins: number;
  /** When the current (or last) suspension began; null when none. */
  suspend_start: Date | null;
  locked: boolean;
}

export const LOCKED_MESSAGE = 'Too many failed login attempts. Account locked.';

export const suspendedMessage = (minutes: number) =>
  `Too many failed login attempts. Account suspended for ${minutes} minute(s).`;

/** Suspended while suspend_start + suspend_minutes has not passed (inclusive, as the original). */
export function isSuspended(counters: Pick<LoginCounters, 'suspend_start'>, rules: PasswordRuleSet, now: Date) {
  if (!counters.suspend_start) return false;
  return counters.suspend_start.getTime() + rules.suspend_minutes * 60_000 >= now.getTime();
}

/** The 200 `{message}` that refuses a login before the password is even checked, or null. */
export function loginBlockedMessage(counters: LoginCounters, rules: PasswordRuleSet, now: Date): string | null {
  if (counters.locked) return LOCKED_MESSAGE;
  if (isSuspended(counters, rules, now)) return suspendedMessage(rules.suspend_minutes);
  return null;
}

/** A client that has not failed to sign in to the account. */
export const NO_FAILURES: LoginCounters = Object.freeze({ failed_logins: 0, suspend_start: null, locked: false });

/**
 * Failed logins count per account and client address, so that a stranger's failures suspend and lock the account
 * for the stranger only: a login is refused by the account's own state (an administrator's lock or suspension,
 * counts from before) or by the failures of the client it comes from, never by another client's.
 */
export function clientLoginBlockedMessage(
  counters: { account: LoginCounters; client: LoginCounters },
  rules: PasswordRuleSet,
  now: Date,
): string | null {
  return loginBlockedMessage(counters.account, rules, now) ?? loginBlockedMessage(counters.client, rules, now);
}

/**
 * The counters after one more wrong password: reaching lock_failures locks (and ends a
 * suspension); otherwise every suspend_failures-th failure starts a suspension. A count of 0 turns a rule off.
 */
export function afterFailedLogin(counters: LoginCounters, rules: PasswordRuleSet, now: Date): LoginCounters {
  const failed = counters.failed_logins + 1;
  if (rules.lock_failures > 0 && failed >= rules.lock_failures) {
    return { failed_logins: failed, suspend_start: null, locked: true };
  }
  const suspend = rules.suspend_failures > 0 && failed % rules.suspend_failures === 0;
  return { failed_logins: failed, suspend_start: suspend ? now : counters.suspend_start, locked: counters.locked };
}
