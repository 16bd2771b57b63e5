import { describe, expect, it } from 'vitest';
import { channelUserId, subscribeRefusal } from './realtime.ts';

describe('real-time subscriptions', () => {
  it('knows the per-user channels', () => {
    expect(channelUserId('portcalls-changed-12')).toBe(12);
    expect(channelUserId('notifications-changed-3')).toBe(3);
    for (const channel of [
      'portcalls-changed',
      'queue-portcalls-changed',
      'portcalls-changed-',
      'portcalls-changed-01',
    ])
      expect(channelUserId(channel)).toBeNull();
  });

  it('anonymous allowed (the default, as the original): anyone, any channel', () => {
    expect(subscribeRefusal('portcalls-changed', null, true)).toBeNull();
    expect(subscribeRefusal('portcalls-changed-12', null, true)).toBeNull();
    expect(subscribeRefusal('notifications-changed-12', 7, true)).toBeNull();
  });

  it('anonymous not allowed: only signed-in sockets, and a per-user channel only to its user', () => {
    expect(subscribeRefusal('portcalls-changed', null, false)).toBe('Sign in to subscribe to portcalls-changed');
    expect(subscribeRefusal('portcalls-changed', 7, false)).toBeNull();
    expect(subscribeRefusal('portcalls-changed-7', 7, false)).toBeNull();
    expect(subscribeRefusal('notifications-changed-7', 7, false)).toBeNull();
    expect(subscribeRefusal('portcalls-changed-12', 7, false)).toBe(
      'Channel portcalls-changed-12 belongs to another user',
    );
    expect(subscribeRefusal('notifications-changed-12', 7, false)).toBe(
      'Channel notifications-changed-12 belongs to another user',
    );
  });
});
