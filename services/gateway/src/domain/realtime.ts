// Who may subscribe to a real-time channel (docs/architecture.md#real-time). Each channel has a declared rule
// (entry-points/routes/channels.ts, beside the route table): a signal that carries no personal or operational data,
// the permission of the GET that serves the same data, or the signed-in user's own channel. The setting
// `realtime_anonymous` says what a socket that never signed in may do: nothing (`off`), signals (`signals`, the
// default) or anything (`legacy`, as the original, whose web UI never signs its socket in).

import type { AuthContext } from '@pcas/http-kit';
import { isAllowed } from './roles.ts';

export const REALTIME_ANONYMOUS_MODES = ['off', 'signals', 'legacy'] as const;
export type RealtimeAnonymous = (typeof REALTIME_ANONYMOUS_MODES)[number];
export const DEFAULT_REALTIME_ANONYMOUS: RealtimeAnonymous = 'signals';

/**
 * The mode a stored value means. Before the three modes the setting was on/off: `disabled` is `off`, and an
 * `enabled` an administrator chose is `legacy` (the seeded `enabled` becomes `signals` when the schema starts).
 */
export function realtimeAnonymousMode(stored: string | undefined): RealtimeAnonymous {
  if ((REALTIME_ANONYMOUS_MODES as readonly string[]).includes(stored ?? '')) return stored as RealtimeAnonymous;
  if (stored === 'disabled') return 'off';
  if (stored === 'enabled') return 'legacy';
  return DEFAULT_REALTIME_ANONYMOUS;
}

/** What a channel's messages need: nothing (a refetch signal), a permission, or being that channel's user. */
export type ChannelRule =
  | { kind: 'signal' }
  | { kind: 'permission'; permission: string }
  /** `<name>-<user id>`: only that user's signed-in socket. */
  | { kind: 'own' };

export interface ChannelRules {
  /** Channel name → rule. */
  named: ReadonlyMap<string, ChannelRule>;
  /** Prefixes of per-user channels (`portcalls-changed-`), each followed by a user id. */
  perUser: readonly string[];
}

/** The user id of a per-user channel (`portcalls-changed-12` → 12), else null. */
export function channelUserId(channel: string, rules: ChannelRules): number | null {
  for (const prefix of rules.perUser) {
    if (!channel.startsWith(prefix)) continue;
    const id = channel.slice(prefix.length);
    if (/^[1-9]\d{0,15}$/.test(id)) return Number(id);
  }
  return null;
}

/** A socket as the rules see it: who signed it in, with what permissions (anonymous when it did not). */
export type SocketCaller = Pick<AuthContext, 'kind' | 'userId' | 'permissions'>;

/** Why a subscription is refused, or null when it is allowed. */
export function subscribeRefusal(
  channel: string,
  caller: SocketCaller,
  mode: RealtimeAnonymous,
  rules: ChannelRules,
): string | null {
  const signedIn = caller.kind === 'session' && caller.userId !== null;
  if (!signedIn && mode === 'legacy') return null;
  const owner = channelUserId(channel, rules);
  const rule: ChannelRule | undefined = owner !== null ? { kind: 'own' } : rules.named.get(channel);
  // Unknown channels carry nothing today; refusing them keeps a future channel closed until it has a rule.
  if (!rule) return signedIn ? `Unknown channel ${channel}` : `Sign in to subscribe to ${channel}`;
  if (!signedIn) return mode === 'signals' && rule.kind === 'signal' ? null : `Sign in to subscribe to ${channel}`;
  if (rule.kind === 'own' && owner !== caller.userId) return `Channel ${channel} belongs to another user`;
  if (rule.kind === 'permission' && !isAllowed(caller as AuthContext, rule.permission)) {
    return `Channel ${channel} needs the permission ${rule.permission}`;
  }
  return null;
}

/** A signed-in socket's state as the periodic re-check finds it. */
export interface SocketSessionState {
  /** The token's expiry (Unix seconds), if any. */
  expiresAt: number | undefined;
  /** Whether its session was ended (logout, a new login). */
  sessionEnded: boolean;
  /** Whether the user's sign-in still holds (domain/sign-in.ts): false too when the user was deleted. */
  userSignedIn: boolean;
}

/**
 * Whether a signed-in socket keeps its sign-in: not once its token expired, its session ended, or its user's
 * sign-in no longer holds (suspended, locked, deleted). A role or permission change keeps it, with the new
 * permissions.
 */
export function keepsSignIn(state: SocketSessionState, nowSeconds: number): boolean {
  if (state.expiresAt !== undefined && state.expiresAt <= nowSeconds) return false;
  return !state.sessionEnded && state.userSignedIn;
}
