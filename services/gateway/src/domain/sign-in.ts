// Whether a user's sign-in still holds (docs/domain.md#sessions): a session, and a real-time socket signed in with
// its token, end when the user is no longer active (deleted, or an API user), or when the account is locked or
// suspended (an administrator's POST /user-lock and /user-suspend).

import type { PasswordRuleSet } from '@pcas/config';
import { isSuspended } from './passwords.ts';

export interface AccountState {
  status: string;
  locked: boolean;
  suspend_start: Date | null;
}

export function signInHolds(account: AccountState, rules: PasswordRuleSet, now: Date): boolean {
  return account.status === 'active' && !account.locked && !isSuspended(account, rules, now);
}
