// What a JIT ETA form link may still do (docs/domain.md#queue-e-mails-and-live-eta). Not the original's rule, which
// let every link it ever mailed change its slot request for 30 days: a link changes the request only while it is the
// newest one mailed for it and the request is neither cancelled nor completed; otherwise it only shows the request.
// Pure: the link's id and the request's status and newest link id are given (adapters/eta-form-links.ts,
// adapters/read-models/queue.ts).

const CANCELLED = new Set(['cancelled_by_vessel', 'cancelled_by_port']);

export const LINK_CANCELLED = 'This link no longer allows changes: the slot request is cancelled';
export const LINK_COMPLETED = 'This link no longer allows changes: the slot request is completed';
export const LINK_SUPERSEDED = 'This link has been replaced by a newer one; use the link in the latest e-mail';

/** The slot request as the link's check reads it: its status as shown and the id of its newest mailed link. */
export interface LinkedSlotRequest {
  status: string;
  newest_link_id: string | null;
}

/**
 * Why the link may not change its slot request, or null when it may. A cancelled or completed request says so first
 * (its last mail's link is the newest, and changes nothing either). A link without an id (mailed before links had
 * one) is superseded by any link with one. An unknown request is left to the queue to answer.
 */
export function linkChangeRefusal(link: { link_id: string | null }, request: LinkedSlotRequest | null): string | null {
  if (request === null) return null;
  if (CANCELLED.has(request.status)) return LINK_CANCELLED;
  if (request.status === 'completed') return LINK_COMPLETED;
  const newest = link.link_id === null ? request.newest_link_id === null : request.newest_link_id === link.link_id;
  return newest ? null : LINK_SUPERSEDED;
}
