import { describe, expect, it } from 'vitest';
import { SESSION_PAYLOAD_KEYS } from '../testing/session-payload-keys.ts';
import { buildSessionPayload, moduleStates } from './session-payload.ts';

const input = {
  user: {
    id: 1,
    email: 'demo@sma',
    first_name: 'Demo',
    last_name: 'SMA',
    role: 'admin',
    permissions: ['login', 'basic_user_action'],
  },
  settings: {
    activity_module: 'enabled',
    logistics_module: 'disabled',
    queue_module: 'enabled',
    map_module: 'enabled',
  },
  now: 1_700_000_000.7,
  ttl: 3_456_000,
  jwt: 'a.b.c',
  rtaPointCoordinates: '',
  mapDefaultCoordinates: '60.699083,17.328354',
  mapDefaultZoom: '10',
};

describe('session payload', () => {
  it('has the keys the clients read, session_id first when given', () => {
    const payload = buildSessionPayload({ ...input, sessionId: 's'.repeat(32) });
    expect(Object.keys(payload)).toEqual(SESSION_PAYLOAD_KEYS);
    expect(payload.session_id).toBe('s'.repeat(32));
  });

  it('has no session_id for GET /session', () => {
    const payload = buildSessionPayload(input);
    expect('session_id' in payload).toBe(false);
  });

  it('keeps user flat: role is the name string, permissions an array of names', () => {
    const { user } = buildSessionPayload(input);
    expect(user).toEqual(input.user);
    for (const value of Object.values(user)) {
      if (typeof value === 'object') expect(Array.isArray(value)).toBe(true);
    }
  });

  it('drops extra fields of the user object passed in', () => {
    const { user } = buildSessionPayload({
      ...input,
      user: { ...input.user, password_hash: 'x', status: 'active' } as never,
    });
    expect(Object.keys(user)).toEqual(['id', 'email', 'first_name', 'last_name', 'role', 'permissions']);
  });

  it('gives session time, ttl and absolute expiry in whole seconds', () => {
    const { session } = buildSessionPayload(input);
    expect(session).toEqual({ time: 1_700_000_000, ttl: 3_456_000, expires_ts: 1_703_456_000 });
  });

  it('lists the module flags, missing or odd values as disabled', () => {
    expect(buildSessionPayload(input).modules).toEqual({
      activity_module: 'enabled',
      logistics_module: 'disabled',
      queue_module: 'enabled',
      map_module: 'enabled',
      codeless_registration_module: 'disabled',
      vis_module: 'disabled',
    });
    expect(moduleStates({ activity_module: 'yes' }).activity_module).toBe('disabled');
  });

  it('passes the map and RTA strings through', () => {
    const payload = buildSessionPayload(input);
    expect(payload.map_default_coordinates).toBe('60.699083,17.328354');
    expect(payload.map_default_zoom).toBe('10');
    expect(payload.rta_point_coordinates).toBe('');
    expect(payload.jwt).toBe('a.b.c');
  });
});
