// Truck gate passages, owned by logistics (docs/architecture.md#services): each one an event on
// `logistics-<checkpoint>`, and a row of logistics.gate_passages written in the append's transaction, shaped like
// GET /logistics-timestamps' items (the gateway reads it). The table can be dropped and rebuilt from the
// GatePassageRecorded events: every column but created_at/modified_at (the event's time) is in the event.

import { type GatePassageRecorded, logisticsStream } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Db } from '@pcas/sql';

export const GATE_PASSAGES_DDL = [
  `CREATE TABLE IF NOT EXISTS logistics.gate_passages (
     event_id uuid PRIMARY KEY,
     time timestamptz NOT NULL,
     checkpoint text NOT NULL,
     direction text NOT NULL,
     external_id bigint NOT NULL,
     front_license_plates jsonb NOT NULL,
     rear_license_plates jsonb NOT NULL,
     containers jsonb NOT NULL,
     -- The front and rear plate numbers: what the plate filter and GET …/by-license-plate/:plate match.
     plate_numbers text[] NOT NULL,
     created_by integer,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer,
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS gate_passages_time ON logistics.gate_passages (time DESC, event_id)',
  'CREATE INDEX IF NOT EXISTS gate_passages_plate_numbers ON logistics.gate_passages USING gin (plate_numbers)',
];

/**
 * Appends the passage's event (its id derived from its content) and writes its row, in one transaction. Returns
 * false when the same passage was already stored: nothing is written, no event goes out.
 */
export async function recordGatePassage(
  db: Db,
  store: EventStore,
  event: { id: string; type: 'GatePassageRecorded'; data: GatePassageRecorded },
  metadata: EventMetadata,
): Promise<boolean> {
  const p = event.data;
  return db.transaction(async (tx) => {
    const appended = await store.append(logisticsStream(p.checkpoint), [{ ...event, metadata }], {
      tx,
      expectedVersion: 'any',
    });
    if (appended.events[0]?.duplicate) return false;
    const plates = [...p.front_license_plates, ...p.rear_license_plates].map((plate) => plate.number);
    await tx.query(
      `INSERT INTO logistics.gate_passages (event_id, time, checkpoint, direction, external_id, front_license_plates,
         rear_license_plates, containers, plate_numbers, created_by, modified_by)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9::text[], $10, $10)
       ON CONFLICT (event_id) DO NOTHING`,
      [
        event.id,
        p.time,
        p.checkpoint,
        p.direction,
        p.external_id,
        JSON.stringify(p.front_license_plates),
        JSON.stringify(p.rear_license_plates),
        JSON.stringify(p.containers),
        plates,
        p.user_id,
      ],
    );
    return true;
  });
}
