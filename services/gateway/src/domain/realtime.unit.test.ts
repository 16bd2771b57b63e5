import { describe, expect, it } from 'vitest';
import {
  type ChannelRules,
  channelUserId,
  keepsSignIn,
  realtimeAnonymousMode,
  type SocketCaller,
  subscribeRefusal,
} from './realtime.ts';

const rules: ChannelRules = {
  named: new Map([
    ['portcalls-changed', { kind: 'signal' }],
    ['notifications-changed', { kind: 'permission', permission: 'basic_user_action' }],
  ]),
  perUser: ['portcalls-changed-', 'notifications-changed-'],
};

const anonymous: SocketCaller = { kind: 'anonymous', userId: null, permissions: new Set() };
const user = (userId: number, ...permissions: string[]): SocketCaller => ({
  kind: 'session',
  userId,
  permissions: new Set(permissions),
});

describe('real-time subscriptions', () => {
  it('knows the per-user channels', () => {
    expect(channelUserId('portcalls-changed-12', rules)).toBe(12);
    expect(channelUserId('notifications-changed-3', rules)).toBe(3);
    for (const channel of [
      'portcalls-changed',
      'queue-portcalls-changed',
      'portcalls-changed-',
      'portcalls-changed-01',
    ])
      expect(channelUserId(channel, rules)).toBeNull();
  });

  it('reads the stored mode, the on/off values of before included', () => {
    expect(realtimeAnonymousMode('off')).toBe('off');
    expect(realtimeAnonymousMode('signals')).toBe('signals');
    expect(realtimeAnonymousMode('legacy')).toBe('legacy');
    expect(realtimeAnonymousMode('disabled')).toBe('off');
    expect(realtimeAnonymousMode('enabled')).toBe('legacy');
    expect(realtimeAnonymousMode(undefined)).toBe('signals');
  });

  it('legacy: an anonymous socket may subscribe to anything, as the original', () => {
    for (const channel of ['portcalls-changed', 'notifications-changed', 'portcalls-changed-12', 'anything'])
      expect(subscribeRefusal(channel, anonymous, 'legacy', rules)).toBeNull();
  });

  it('signals: an anonymous socket may subscribe to signals only', () => {
    expect(subscribeRefusal('portcalls-changed', anonymous, 'signals', rules)).toBeNull();
    expect(subscribeRefusal('notifications-changed', anonymous, 'signals', rules)).toBe(
      'Sign in to subscribe to notifications-changed',
    );
    expect(subscribeRefusal('portcalls-changed-12', anonymous, 'signals', rules)).toBe(
      'Sign in to subscribe to portcalls-changed-12',
    );
    expect(subscribeRefusal('anything', anonymous, 'signals', rules)).toBe('Sign in to subscribe to anything');
  });

  it('off: an anonymous socket may subscribe to nothing', () => {
    expect(subscribeRefusal('portcalls-changed', anonymous, 'off', rules)).toBe(
      'Sign in to subscribe to portcalls-changed',
    );
  });

  it('a signed-in socket: signals, channels its permissions allow, its own per-user channels (in every mode)', () => {
    for (const mode of ['off', 'signals', 'legacy'] as const) {
      const reader = user(7, 'basic_user_action');
      expect(subscribeRefusal('portcalls-changed', reader, mode, rules)).toBeNull();
      expect(subscribeRefusal('notifications-changed', reader, mode, rules)).toBeNull();
      expect(subscribeRefusal('portcalls-changed-7', reader, mode, rules)).toBeNull();
      expect(subscribeRefusal('notifications-changed-7', reader, mode, rules)).toBeNull();
      expect(subscribeRefusal('portcalls-changed-12', reader, mode, rules)).toBe(
        'Channel portcalls-changed-12 belongs to another user',
      );
      expect(subscribeRefusal('notifications-changed', user(7), mode, rules)).toBe(
        'Channel notifications-changed needs the permission basic_user_action',
      );
      expect(subscribeRefusal('anything', reader, mode, rules)).toBe('Unknown channel anything');
    }
  });

  it("a socket keeps its sign-in while its token, session and user's sign-in last", () => {
    const now = 1_000;
    expect(keepsSignIn({ expiresAt: 2_000, sessionEnded: false, userSignedIn: true }, now)).toBe(true);
    expect(keepsSignIn({ expiresAt: 1_000, sessionEnded: false, userSignedIn: true }, now)).toBe(false);
    expect(keepsSignIn({ expiresAt: 2_000, sessionEnded: true, userSignedIn: true }, now)).toBe(false);
    expect(keepsSignIn({ expiresAt: 2_000, sessionEnded: false, userSignedIn: false }, now)).toBe(false);
  });
});
