// When to try a peer again (docs/architecture.md#vis-direct-mode): delivery to a peer that fails waits longer
// after each failure in a row (retryDelayMs of @pcas/values), and what a peer's answer means for each message.

import type { BackoffPolicy } from '@pcas/values';

/** A peer that stays down is tried every 2 to 4 s, so that its return is noticed soon. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 4_000 };

/** What the peer said about a batch, as the sender saw it. */
export type BatchOutcome = { kind: 'unreachable'; error: string } | { kind: 'answered'; status: number; body: unknown };

/** One message's fate in a peer's answer. */
export interface PeerResult {
  message_id: string;
  status: 'stored' | 'duplicate' | 'refused';
  /** For a refusal: the HTTP status it would have had alone, and why. */
  status_code?: number;
  error?: string;
}

export type DeliveryDecision =
  /** The whole batch waits for the next attempt (peer down, busy, or not yet trusting us). */
  | { kind: 'retry'; error: string }
  /** The batch was too large for the peer: send fewer at a time. */
  | { kind: 'split'; error: string }
  /**
   * Per message: delivered (stored now or before: the peer holds it), refused for good (the peer will never take
   * it as it is), or left for the next attempt (not answered for).
   */
  | { kind: 'settled'; delivered: string[]; refused: { message_id: string; error: string }[]; pending: string[] };

/** Decides what a peer's answer to a batch means for each of its messages. */
export function decideDelivery(messageIds: readonly string[], outcome: BatchOutcome): DeliveryDecision {
  if (outcome.kind === 'unreachable') return { kind: 'retry', error: outcome.error };
  const { status, body } = outcome;
  const said = errorOf(body);
  if (status === 413 && messageIds.length > 1) return { kind: 'split', error: `413 ${said}`.trim() };
  // Not signed right or not trusted (yet): the two ports' settings may still be on their way; try again. 409: the
  // peer had this very request before (something on the way sent it twice); the next attempt is signed anew.
  const again = [401, 403, 408, 409, 429];
  if (again.includes(status) || status >= 500) {
    return { kind: 'retry', error: `${status} ${said}`.trim() };
  }
  if (status < 200 || status >= 300) {
    // The peer refused the request as a whole: none of it will ever be taken as it is.
    return {
      kind: 'settled',
      delivered: [],
      refused: messageIds.map((message_id) => ({ message_id, error: `${status} ${said}`.trim() })),
      pending: [],
    };
  }
  const results = resultsOf(body);
  const byId = new Map(results.map((r) => [r.message_id, r]));
  const delivered: string[] = [];
  const refused: { message_id: string; error: string }[] = [];
  const pending: string[] = [];
  for (const id of messageIds) {
    const result = byId.get(id);
    if (!result) pending.push(id);
    else if (result.status === 'refused') {
      refused.push({ message_id: id, error: `${result.status_code ?? 400} ${result.error ?? ''}`.trim() });
    } else delivered.push(id);
  }
  return { kind: 'settled', delivered, refused, pending };
}

function errorOf(body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : '';
}

function resultsOf(body: unknown): PeerResult[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.filter(
    (r): r is PeerResult =>
      r !== null &&
      typeof r === 'object' &&
      typeof (r as PeerResult).message_id === 'string' &&
      ['stored', 'duplicate', 'refused'].includes((r as PeerResult).status),
  );
}
