// setPinnedVessels against real PostgreSQL: the list recorded on the user's pins stream with the actor in the
// metadata, notifier.pinned_vessels written with it (in order, findable by IMO), nothing appended for the same
// list again or for a refused one, and racing changes of one user ending with the read model equal to the log.

import { ApiError, PinCommands, type PinnedVesselsSet, pinsStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotifierDatabase, notifierDatabase } from '../testing/database.ts';
import { pinCommands } from './pins.ts';

const A = 9074729;
const B = 9201827;
const C = 9176187;
const MADE_UP = 100000042;

describe('setPinnedVessels', () => {
  let database: NotifierDatabase;
  let db: Db;
  let store: EventStore;
  let setPins: (userId: number | null, vesselIds: unknown) => Promise<unknown>;

  beforeAll(async () => {
    database = await notifierDatabase('pcas_notifier_pins');
    ({ db, store } = database);
    const commands = pinCommands({ db, store, log: createLogger('pins-test', 'warn') });
    setPins = (userId, vesselIds) =>
      commands[PinCommands.setPinnedVessels](
        { actor: { user_id: userId, api_key_id: null }, input: { vessel_ids: vesselIds } },
        { correlation_id: 'corr-pins' },
      );
  });
  afterAll(() => database?.close());

  const events = async (userId: number) => store.readStream(pinsStream(userId));
  const rows = async (userId: number) =>
    (
      await db.query<{ imo: string }>('SELECT imo FROM notifier.pinned_vessels WHERE user_id = $1 ORDER BY position', [
        userId,
      ])
    ).rows.map((r) => Number(r.imo));
  const version = async (userId: number) =>
    Number(
      (await db.query<{ version: string }>('SELECT version FROM notifier.pin_versions WHERE user_id = $1', [userId]))
        .rows[0]?.version ?? 0,
    );

  it('records the list in its order, with who set it, and replies it', async () => {
    expect(await setPins(1, [B, A, MADE_UP])).toEqual([B, A, MADE_UP]);
    const [event] = await events(1);
    expect(event.type).toBe('PinnedVesselsSet');
    expect(event.data).toEqual({ user_id: 1, imos: [B, A, MADE_UP] } satisfies PinnedVesselsSet);
    expect(event.metadata).toMatchObject({ user_id: 1, api_key_id: null, correlation_id: 'corr-pins' });
    expect(await rows(1)).toEqual([B, A, MADE_UP]);
    expect(await version(1)).toBe(1);
  });

  it('appends nothing for the same list again, and a new event for a new order', async () => {
    expect(await setPins(2, [A, B])).toEqual([A, B]);
    expect(await setPins(2, [A, B])).toEqual([A, B]);
    expect(await events(2)).toHaveLength(1);
    expect(await setPins(2, [B, A])).toEqual([B, A]);
    expect((await events(2)).map((e) => (e.data as PinnedVesselsSet).imos)).toEqual([
      [A, B],
      [B, A],
    ]);
    expect(await rows(2)).toEqual([B, A]);
    expect(await setPins(2, [])).toEqual([]);
    expect(await setPins(2, undefined)).toEqual([]);
    expect(await events(2)).toHaveLength(3);
    expect(await rows(2)).toEqual([]);
    expect(await version(2)).toBe(3);
  });

  it('refuses a bad list with 400 and stores nothing', async () => {
    await setPins(3, [C]);
    for (const bad of [[A, A], [String(A)], [1.5], [A, 1234568], 'nope', { 0: A }]) {
      await expect(setPins(3, bad)).rejects.toMatchObject({ status: 400 });
    }
    await expect(setPins(null, [A])).rejects.toBeInstanceOf(ApiError);
    expect(await events(3)).toHaveLength(1);
    expect(await rows(3)).toEqual([C]);
  });

  it('finds who pinned an IMO by the IMO index', async () => {
    await setPins(4, [C, A]);
    const { rows: who } = await db.query<{ user_id: string }>(
      'SELECT user_id FROM notifier.pinned_vessels WHERE imo = $1 ORDER BY user_id',
      [C],
    );
    expect(who.map((r) => Number(r.user_id))).toEqual([3, 4]);
    const { rows: index } = await db.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = 'notifier' AND indexname = 'pinned_vessels_imo'",
    );
    expect(index[0]?.indexdef).toContain('(imo)');
  });

  it('keeps the read model equal to the log when one user changes the list from many places at once', async () => {
    const lists = Array.from({ length: 8 }, (_, i) => [100000100 + i, A]);
    const outcomes = await Promise.allSettled(lists.map((list) => setPins(5, list)));
    // Each either landed or, after losing every race, got the kit's 503; none failed otherwise.
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ status: 503 });
    expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
    const log = await events(5);
    expect(await rows(5)).toEqual((log[log.length - 1].data as PinnedVesselsSet).imos);
    expect(await version(5)).toBe(log.length);
  });
});
