// The notifier's copies of users and translations, folded from the owners' events.

import { describe, expect, it } from 'vitest';
import { evolveUser } from './copies.ts';
import { donePortCalls } from './decisions.ts';

describe('evolveUser', () => {
  it('keeps what a notification and a push need, and anonymises a deleted user as the gateway does', () => {
    const created = evolveUser(null, 7, {
      type: 'UserCreated',
      data: { id: 7, email: 'a@port.test', first_name: 'Ann', last_name: 'Lee', status: 'active' },
    });
    expect(created).toEqual({
      id: 7,
      email: 'a@port.test',
      first_name: 'Ann',
      last_name: 'Lee',
      status: 'active',
      time_zone: null,
    });
    const zoned = evolveUser(created, 7, {
      type: 'UserTimeZoneChanged',
      data: { id: 7, time_zone: 'Europe/Helsinki' },
    });
    const renamed = evolveUser(zoned, 7, {
      type: 'UserUpdated',
      data: { id: 7, email: 'b@port.test', first_name: 'Bea', last_name: 'Lee', role: 'user' },
    });
    expect(renamed).toMatchObject({ email: 'b@port.test', first_name: 'Bea', time_zone: 'Europe/Helsinki' });
    // A login changes nothing copied.
    expect(evolveUser(renamed, 7, { type: 'UserLoggedIn', data: { id: 7 } })).toBe(renamed);
    expect(evolveUser(renamed, 7, { type: 'UserDeleted', data: { id: 7 } })).toEqual({
      id: 7,
      email: '7@deleted',
      first_name: '',
      last_name: '',
      status: 'deleted',
      time_zone: null,
    });
  });
});

describe('donePortCalls', () => {
  const change = (id: string, port_call_id: number, status?: string, master_id?: string | null) => ({
    id,
    data: { imo: 1, port_call_id, deleted: false, ...(status ? { status, master_id } : {}) },
  });
  it('names each master id of a port call whose last signal says done, once', () => {
    expect(
      donePortCalls([
        change('e1', 1, 'done', 'M1'),
        change('e2', 2, 'done', 'M2'),
        change('e3', 2, 'arriving', 'M2'),
        change('e4', 3, 'done', null),
        change('e5', 4),
        change('e6', 5, 'done', 'M1'),
      ]),
    ).toEqual([{ master_id: 'M1', cause: 'e1' }]);
  });
});
