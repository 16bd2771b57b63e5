import type { PasswordRuleSet } from '@pcas/config';
import { describe, expect, it } from 'vitest';
import { signInHolds } from './sign-in.ts';

const rules = { suspend_minutes: 15 } as PasswordRuleSet;
const now = new Date('2026-11-29T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

describe('a sign-in holds', () => {
  it('while the user is active, not locked and not suspended', () => {
    expect(signInHolds({ status: 'active', locked: false, suspend_start: null }, rules, now)).toBe(true);
  });

  it('not for a user who is not active, or a locked account', () => {
    expect(signInHolds({ status: 'api_user', locked: false, suspend_start: null }, rules, now)).toBe(false);
    expect(signInHolds({ status: 'active', locked: true, suspend_start: null }, rules, now)).toBe(false);
  });

  it('not while the account is suspended, and again once the suspension is over', () => {
    expect(signInHolds({ status: 'active', locked: false, suspend_start: minutesAgo(14) }, rules, now)).toBe(false);
    expect(signInHolds({ status: 'active', locked: false, suspend_start: minutesAgo(16) }, rules, now)).toBe(true);
  });
});
