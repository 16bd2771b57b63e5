// Setting a vessel's type against a real database: the event on `vessel-<imo>` and the vessels row commit
// together; concurrent changes (the same command delivered twice at once, two operators, timestamp posts of the
// vessel meanwhile) record each change once and never lose a post.

import { type ApiError, type PostTimestampCommand, vesselStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { describe, expect, it } from 'vitest';
import { useIngest } from '../testing/database.ts';
import type { IngestCommandHandlers } from './commands.ts';

const log = createLogger('ingest-vessel-type-test', 'silent');
const person = { user_id: 12, api_key_id: null };
const IMO = 9074729;

let db: Db;
let store: EventStore;
let ingest: IngestCommandHandlers;

const post = (n: number): PostTimestampCommand => ({
  imo: IMO,
  vessel_name: 'Typed',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: `2026-05-12T08:${String(n % 60).padStart(2, '0')}:00+00:00`,
  payload: { n },
  manual: true,
});
const typeEvents = async () =>
  (await store.readStream(vesselStream(IMO))).filter((e) => e.type === 'VesselTypeSet').map((e) => e.data);
const row = async () =>
  (await db.query('SELECT vessel_type, modified_by FROM ingest.vessels WHERE imo = $1', [IMO])).rows[0];

useIngest('pcas_ingest_vtype', { pool: { poolSize: 8 }, log }, async (made) => {
  ({ db, store, ingest } = made);
  await ingest.postTimestamp({ actor: person, input: post(0) });
});

describe('setVesselType', () => {
  it('records the change on the stream and in the row together, by IMO or by row id', async () => {
    expect(await row()).toMatchObject({ vessel_type: 1 });
    expect(await ingest.setVesselType({ actor: person, input: { imo: IMO, vessel_type: 41 } })).toEqual({
      result: 'OK',
    });
    const { id } = (await db.query<{ id: number }>('SELECT id FROM ingest.vessels WHERE imo = $1', [IMO])).rows[0];
    await ingest.setVesselType({ actor: person, input: { id, vessel_type: '17' } });
    expect(await typeEvents()).toEqual([
      { imo: IMO, vessel_type: 41, previous_vessel_type: 1 },
      { imo: IMO, vessel_type: 17, previous_vessel_type: 41 },
    ]);
    expect(await row()).toEqual({ vessel_type: 17, modified_by: 12 });
  });

  it('records a command delivered several times at once once, and loses no post made meanwhile', async () => {
    const before = (await typeEvents()).length;
    const posts = Array.from({ length: 20 }, (_, i) => ingest.postTimestamp({ actor: person, input: post(i + 1) }));
    const sets = Array.from({ length: 6 }, () =>
      ingest.setVesselType({ actor: person, input: { imo: IMO, vessel_type: 36 } }),
    );
    await Promise.all([...posts, ...sets]);
    expect((await typeEvents()).slice(before)).toEqual([{ imo: IMO, vessel_type: 36, previous_vessel_type: 17 }]);
    const received = (await store.readStream(vesselStream(IMO))).filter((e) => e.type === 'TimestampReceived');
    expect(received).toHaveLength(21);
    expect(await row()).toMatchObject({ vessel_type: 36 });
  });

  it('two operators at once: both changes recorded, each from the type the other left', async () => {
    const before = (await typeEvents()).length;
    await Promise.all([
      ingest.setVesselType({ actor: person, input: { imo: IMO, vessel_type: 2 } }),
      ingest.setVesselType({ actor: person, input: { imo: IMO, vessel_type: 3 } }),
    ]);
    const events = (await typeEvents()).slice(before) as { vessel_type: number; previous_vessel_type: number }[];
    expect(events).toHaveLength(2);
    expect(events[0].previous_vessel_type).toBe(36);
    expect(events[1].previous_vessel_type).toBe(events[0].vessel_type);
    expect((await row()).vessel_type).toBe(events[1].vessel_type);
  });

  it('refuses an unknown vessel and an unknown type, storing nothing', async () => {
    const before = (await store.readStream(vesselStream(IMO))).length;
    const refusal = (input: object) =>
      ingest.setVesselType({ actor: person, input }).then(
        () => undefined,
        (error: ApiError) => [error.status, error.message],
      );
    expect(await refusal({ imo: 9176187, vessel_type: 2 })).toEqual([400, 'Vessel does not exist']);
    expect(await refusal({ id: 999_999, vessel_type: 2 })).toEqual([400, 'Vessel does not exist']);
    expect(await refusal({ vessel_type: 2 })).toEqual([400, 'Vessel does not exist']);
    expect(await refusal({ imo: IMO, vessel_type: 74 })).toEqual([400, 'Invalid vessel type']);
    expect((await store.readStream(vesselStream(IMO))).length).toBe(before);
  });
});
