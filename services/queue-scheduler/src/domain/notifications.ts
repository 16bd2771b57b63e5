// The queue's hook for telling people about its decisions (e-mails: the vessel, the port operators). The queue's
// commands call it after their transaction committed, once per changed slot request or shifted port block; a
// failing hook is logged and never fails the command (the decision is already stored). The e-mail side
// implements QueueNotifications and is passed to startQueueScheduler (options.notifications).

import type { SlotRequestStatus } from '@pcas/contracts';

/** A slot request whose status or RTA window changed (created, resolved, updated, pushed forward, cancelled). */
export interface SlotRequestNotice {
  slot_request_id: number;
  /** The event that recorded the change, e.g. `SlotRequestReceived`, `SlotRequestCancelled`. */
  event: string;
  status: SlotRequestStatus;
  email: string;
  imo: number;
  vessel_name: string;
  rta_window_start: string | null;
  rta_window_end: string | null;
  jit_eta: string | null;
}

/** A port block moved by a longer laytime before it (the "berth block shifted" e-mail to the port operators). */
export interface BerthBlockShiftedNotice {
  berth_id: number;
  berth_code: string;
  berth_name: string;
  berth_reservation_id: number;
  reservation_start: string;
  reservation_end: string;
}

export interface QueueNotifications {
  slotRequestChanged(notice: SlotRequestNotice): Promise<void>;
  berthBlockShifted(notice: BerthBlockShiftedNotice): Promise<void>;
}

/** Nobody is told (tests of the queue alone). */
export const NO_NOTIFICATIONS: QueueNotifications = {
  slotRequestChanged: async () => {},
  berthBlockShifted: async () => {},
};
