// The live-ETA alert's storage (docs/domain.md#queue-e-mails-and-live-eta): the slot request's alert columns in
// queue.slot_reservations (jit_eta_alert_state, jit_eta_discrepancy_time, read by the dashboard), written in the
// transaction that appends the LiveEtaAlertChanged event to `liveetaalert-<id>`. Evaluations of one slot request are
// serialised by a transaction-scoped advisory lock, so a live ETA and the delayed job never decide on the same state.

import type { EventMetadata, EventStore } from '@pcas/eventstore';
import { lockForTransaction, type Queryable } from '@pcas/sql';
import { type AlertSlotRequest, type LiveEtaAlertChanged, liveEtaAlertStream } from '../domain/live-eta.ts';
import type { AlertState } from '../domain/live-eta-alert.ts';

export interface AlertRow extends AlertSlotRequest {
  imo: number;
  vessel_name: string;
  nomination_email: string | null;
}

interface Row {
  id: number;
  imo: string | number;
  vessel_name: string;
  slot_reservation_status: string;
  jit_eta: Date | string | null;
  jit_eta_alert_state: string;
  jit_eta_discrepancy_time: Date | string | null;
  nomination_email: string | null;
}

const ms = (v: Date | string | null): number | null => (v === null ? null : new Date(v).getTime());

const SELECT = `SELECT s.id, s.imo, s.vessel_name, s.slot_reservation_status, s.jit_eta, s.jit_eta_alert_state,
                       s.jit_eta_discrepancy_time, n.email AS nomination_email
                  FROM queue.slot_reservations s LEFT JOIN queue.nominations n ON n.id = s.nomination_id`;

/**
 * The slot request a live ETA is about: the port call's (`slotRequestId`), else the vessel's newest one waiting for
 * its arrival with a JIT ETA. Takes the request's alert lock.
 */
export async function lockAlertSlot(
  tx: Queryable,
  slotRequestId: number | null,
  imo: number | null,
): Promise<AlertRow | undefined> {
  const { rows } =
    slotRequestId !== null
      ? await tx.query<Row>(`${SELECT} WHERE s.id = $1`, [slotRequestId])
      : await tx.query<Row>(
          `${SELECT} WHERE s.imo = $1 AND s.slot_reservation_status IN ('offered', 'accepted', 'updated')
                       AND s.jit_eta IS NOT NULL ORDER BY s.id DESC LIMIT 1`,
          [imo],
        );
  const row = rows[0];
  if (!row) return undefined;
  await lockForTransaction(tx, 'queue-live-eta-alert', String(row.id));
  // Read again under the lock: another evaluation may have committed meanwhile.
  const fresh = (await tx.query<Row>(`${SELECT} WHERE s.id = $1`, [row.id])).rows[0];
  return {
    id: fresh.id,
    imo: Number(fresh.imo),
    vessel_name: fresh.vessel_name,
    status: fresh.slot_reservation_status,
    jit_eta: ms(fresh.jit_eta),
    state: (['green', 'orange', 'red'].includes(fresh.jit_eta_alert_state)
      ? fresh.jit_eta_alert_state
      : 'green') as AlertState,
    discrepancy_time: ms(fresh.jit_eta_discrepancy_time),
    nomination_email: fresh.nomination_email,
  };
}

/** Appends the change (once per `eventId`) and writes the alert columns; false when it was already recorded. */
export async function recordAlert(
  tx: Queryable,
  store: EventStore,
  change: LiveEtaAlertChanged,
  eventId: string,
  metadata: EventMetadata,
): Promise<boolean> {
  const result = await store.append(
    liveEtaAlertStream(change.slot_request_id),
    [{ id: eventId, type: 'LiveEtaAlertChanged', data: change, metadata }],
    { tx },
  );
  if (result.events.every((e) => e.duplicate)) return false;
  await tx.query(
    `UPDATE queue.slot_reservations SET jit_eta_alert_state = $2, jit_eta_discrepancy_time = $3 WHERE id = $1`,
    [change.slot_request_id, change.state, change.discrepancy_time],
  );
  return true;
}

/** Slot requests late but not yet red: their next evaluation is due at discrepancy + delay. */
export async function pendingAlerts(q: Queryable): Promise<{ id: number; discrepancy: number }[]> {
  const { rows } = await q.query<{ id: number; t: Date | string }>(
    `SELECT id, jit_eta_discrepancy_time AS t FROM queue.slot_reservations
      WHERE jit_eta_discrepancy_time IS NOT NULL AND slot_reservation_status IN ('offered', 'accepted', 'updated')`,
  );
  return rows.map((r) => ({ id: r.id, discrepancy: new Date(r.t).getTime() }));
}
