import type { RecordedEvent } from '@pcas/eventstore';
import { describe, expect, it } from 'vitest';
import { upcastEvent } from './legacy-secrets.ts';

const event = (type: string, data: unknown): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  streamId: 'user-1',
  streamPosition: 1,
  globalPosition: 1,
  transactionId: '1',
  type,
  data,
  metadata: { user_id: 1, api_key_id: null },
  created: new Date('2024-01-01T00:00:00Z'),
});

describe('upcastEvent', () => {
  it("drops the secrets an earlier version's events carried, and nothing else", () => {
    const old = event('UserCreated', { id: 1, email: 'a@b.c', password_hash: '$scrypt$x', role: 'user' });
    expect(upcastEvent(old)).toEqual({ ...old, data: { id: 1, email: 'a@b.c', role: 'user' } });
    expect(old.data).toHaveProperty('password_hash'); // the stored event is not changed
    expect(upcastEvent(event('ApiKeyCreated', { id: 2, name: 'n', key: 'k', bound_user_id: 3 })).data).toEqual({
      id: 2,
      name: 'n',
      bound_user_id: 3,
    });
    expect(upcastEvent(event('RegistrationCodeCreated', { id: 4, code: 'ABCDEF-123456', role: 'user' })).data).toEqual({
      id: 4,
      role: 'user',
    });
    const device = { id: 5, user_id: 6, platform: 'ios', installation_id: 'i-1', previous_user_id: null };
    expect(upcastEvent(event('PushTokenRegistered', { ...device, push_token: 'ExponentPushToken[x]' })).data).toEqual(
      device,
    );
  });

  it('returns every other event as it is, without a copy', () => {
    const current = event('UserCreated', { id: 1, email: 'a@b.c' });
    expect(upcastEvent(current)).toBe(current);
    // A field of the same name in another event type is that event's business.
    const other = event('TimestampReceived', { imo: 1, payload: {}, key: 'not a secret here' });
    expect(upcastEvent(other)).toBe(other);
  });
});
