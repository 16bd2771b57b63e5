// The queue's rows (schema `queue`) as its streams' events make them, written in the transaction of the append they
// follow. Every column but the created/modified times comes from the events, so the rows are a cache of the
// streams: dropped, they are rebuilt from the log (rebuildQueueRows; docs/queue.md#why-the-rows-are-a-cache-of-the-streams).

import type { BerthEvent, NominationData, NominationEvent, SlotRequestEvent } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';

// ---- Projection: each stream's events into its rows, in the append's transaction ----
// Each statement also records the stream's new version on its row (one round trip each); a calendar change sets
// its berth's in the same statement ($8 the berth, $9 the version; renumbered where a statement has fewer).

const SET_BERTH_VERSION = 'WITH berth_version AS (UPDATE queue.berths SET version = $9 WHERE id = $8)';

export async function projectBerth(
  tx: Queryable,
  berthId: number,
  events: readonly BerthEvent[],
  version: number,
  actor: number | null,
): Promise<void> {
  for (const e of events) {
    switch (e.type) {
      case 'BerthCreated':
        await tx.query(
          `INSERT INTO queue.berths (id, code, name, nominatable, version, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [e.data.id, e.data.code, e.data.name, e.data.nominatable, version, actor],
        );
        break;
      case 'BerthUpdated':
        await tx.query(
          `UPDATE queue.berths SET code = $2, name = $3, nominatable = $4, modified_by = $5, modified_at = now(),
                  version = $6 WHERE id = $1`,
          [e.data.id, e.data.code, e.data.name, e.data.nominatable, actor, version],
        );
        break;
      case 'BerthDeleted':
        await tx.query('DELETE FROM queue.berths WHERE id = $1', [e.data.id]);
        break;
      case 'BerthReservationMade':
        await tx.query(
          `${SET_BERTH_VERSION} INSERT INTO queue.berth_reservations (id, berth_id, berth_reservation_type,
             reservation_start, reservation_end, slot_reservation_id, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
          [
            e.data.id,
            e.data.berth_id,
            e.data.berth_reservation_type,
            e.data.reservation_start,
            e.data.reservation_end,
            e.data.slot_reservation_id,
            actor,
            berthId,
            version,
          ],
        );
        break;
      case 'BerthReservationMoved':
        await tx.query(
          `${SET_BERTH_VERSION.replace('$8', '$5').replace('$9', '$6')} UPDATE queue.berth_reservations
              SET reservation_start = $2, reservation_end = $3, modified_by = $4, modified_at = now() WHERE id = $1`,
          [e.data.id, e.data.reservation_start, e.data.reservation_end, actor, berthId, version],
        );
        break;
      case 'BerthReservationRemoved':
        await tx.query(
          `${SET_BERTH_VERSION.replace('$8', '$2').replace('$9', '$3')} DELETE FROM queue.berth_reservations WHERE id = $1`,
          [e.data.id, berthId, version],
        );
        break;
    }
  }
}

/** A nomination's own columns, as the parameters $1..$8 of its insert and its update. */
const nominationColumns = (n: NominationData) => [
  n.id,
  n.company_name,
  n.email,
  n.imo,
  n.vessel_name,
  n.window_start,
  n.window_end,
  n.berth_ids,
];

export async function projectNomination(
  tx: Queryable,
  events: readonly NominationEvent[],
  version: number,
  actor: number | null,
): Promise<void> {
  for (const e of events) {
    const d = e.data;
    switch (e.type) {
      case 'NominationCreated':
        await tx.query(
          `INSERT INTO queue.nominations (id, company_name, email, imo, vessel_name, nomination_status, window_start,
             window_end, berth_ids, version, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $8::int[], $9, $10, $11)`,
          [...nominationColumns(e.data), version, e.data.created_by, actor],
        );
        break;
      case 'NominationUpdated':
        await tx.query(
          `UPDATE queue.nominations SET company_name = $2, email = $3, imo = $4, vessel_name = $5, window_start = $6,
                  window_end = $7, berth_ids = $8::int[], modified_by = $9, modified_at = now(), version = $10
            WHERE id = $1`,
          [...nominationColumns(e.data), actor, version],
        );
        break;
      case 'NominationDeleted':
        await tx.query('DELETE FROM queue.nominations WHERE id = $1', [d.id]);
        break;
      case 'NominationReserved':
        await tx.query(
          `UPDATE queue.nominations SET nomination_status = 'reserved', slot_reservation_id = $2, modified_at = now(),
                  version = $3 WHERE id = $1`,
          [e.data.id, e.data.slot_reservation_id, version],
        );
        break;
      case 'NominationReopened':
        await tx.query(
          `UPDATE queue.nominations SET nomination_status = 'open', slot_reservation_id = NULL, modified_at = now(),
                  version = $2 WHERE id = $1`,
          [d.id, version],
        );
        break;
      case 'NominationExpired':
        await tx.query(
          `UPDATE queue.nominations SET nomination_status = 'expired', modified_at = now(), version = $2 WHERE id = $1`,
          [d.id, version],
        );
        break;
    }
  }
}

export async function projectSlotRequest(
  tx: Queryable,
  events: readonly SlotRequestEvent[],
  version: number,
  actor: number | null,
): Promise<void> {
  for (const e of events) {
    switch (e.type) {
      case 'SlotRequestReceived': {
        const d = e.data;
        await tx.query(
          `INSERT INTO queue.slot_reservations (id, nomination_id, berth_id, berth_reservation_id, email, imo, vessel_name,
             loa, beam, draft, laytime, eta, rta_window_start, rta_window_end, jit_eta, slot_reservation_status,
             version, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::interval, $12, $13, $14, $15, $16, $17, $18, $18)`,
          [
            d.id,
            d.nomination_id,
            d.berth_id,
            d.berth_reservation_id,
            d.email,
            d.imo,
            d.vessel_name,
            d.loa,
            d.beam,
            d.draft,
            d.laytime,
            d.eta,
            d.rta_window_start,
            d.rta_window_end,
            d.jit_eta,
            d.status,
            version,
            actor,
          ],
        );
        break;
      }
      case 'SlotRequestResolved':
      case 'SlotRequestUpdated':
      case 'SlotRequestPushedForward': {
        const d = e.data;
        const laytime = 'laytime' in d ? d.laytime : null;
        const jitEta = 'jit_eta' in d ? d.jit_eta : undefined;
        await tx.query(
          `UPDATE queue.slot_reservations
              SET slot_reservation_status = $2, nomination_id = $3, berth_id = $4, berth_reservation_id = $5,
                  rta_window_start = $6, rta_window_end = $7, laytime = coalesce($8::interval, laytime),
                  jit_eta = CASE WHEN $9 THEN $10::timestamptz ELSE jit_eta END,
                  modified_by = $11, modified_at = now(), version = $12
            WHERE id = $1`,
          [
            d.id,
            d.status,
            d.nomination_id,
            d.berth_id,
            d.berth_reservation_id,
            d.rta_window_start,
            d.rta_window_end,
            laytime,
            jitEta !== undefined,
            jitEta ?? null,
            actor,
            version,
          ],
        );
        break;
      }
      case 'SlotRequestCancelled':
        await tx.query(
          `UPDATE queue.slot_reservations
              SET slot_reservation_status = $2, nomination_id = NULL, berth_reservation_id = NULL,
                  rta_window_start = NULL, rta_window_end = NULL, jit_eta = NULL, modified_by = $3, modified_at = now(),
                  version = $4
            WHERE id = $1`,
          [e.data.id, e.data.status, actor, version],
        );
        break;
      case 'SlotRequestCompleted':
        await tx.query(
          `UPDATE queue.slot_reservations SET slot_reservation_status = 'completed', modified_at = now(), version = $2
            WHERE id = $1`,
          [e.data.id, version],
        );
        break;
    }
  }
}
