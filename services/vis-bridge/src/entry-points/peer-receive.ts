// Storing what a peer delivered (docs/architecture.md#vis-direct-mode), for receiveFromPeer and the acknowledgements a
// peer's answer carries: each message once (a redelivery is answered "duplicate"), through the same inbox
// functions the agent's posts use, and the acknowledgements for the sender queued or answered.

import { ApiError, type ServiceDeps } from '@pcas/contracts';
import { assessRoute, parseRtz } from '@pcas/stm';
import {
  enqueueMany,
  markAcknowledged,
  markAcknowledgedMany,
  receivedAmong,
  recordReceivedMany,
} from '../adapters/outbox-store.ts';
import type { Peer } from '../adapters/peer-store.ts';
import type { InboxItem } from '../adapters/transport.ts';
import type { PeerResult } from '../domain/delivery.ts';
import { acknowledgementOf, incomingRefusal, lanesOf, type PeerMessage, type PeerOperation } from '../domain/outbox.ts';
import { acknowledgementInput, optionalString, stringField, textInput, whitelistsOf } from '../domain/peer-input.ts';
import type { PeerCommandOptions } from './peer-commands.ts';

/** Messages of one batch stored at once (in lanes, see lanesOf). */
const STORE_CONCURRENCY = 16;

export interface PeerReceiver {
  takeAll(
    peer: Peer,
    messages: readonly PeerMessage[],
    acknowledge: 'queue' | 'answer',
  ): Promise<{ results: PeerResult[]; acknowledgements: PeerMessage[] }>;
}

/** The one-by-one path: a message refused by the whitelists or known is answered so; else stored alone. */
function createSingleStore(deps: ServiceDeps, options: PeerCommandOptions) {
  const { db, log } = deps;
  const { inbox } = options;
  const now = options.now ?? Date.now;

  /** A message refused by the whitelists, or delivered before; undefined when it is to be stored. */
  function refusedOrKnown(peer: Peer, message: PeerMessage, known: ReadonlySet<string>): PeerResult | undefined {
    const { message_id, operation } = message;
    const refusal = incomingRefusal(operation, whitelistsOf(peer), peer.service_id);
    if (refusal) {
      log.warn({ peer: peer.service_id, message_id, operation }, 'VIS message from a port not whitelisted refused');
      return { message_id, status: 'refused', status_code: refusal.status, error: refusal.error };
    }
    if (known.has(message_id)) return { message_id, status: 'duplicate' };
    return undefined;
  }

  async function take(peer: Peer, message: PeerMessage, known: ReadonlySet<string>): Promise<PeerResult> {
    const { message_id } = message;
    const answered = refusedOrKnown(peer, message, known);
    if (answered) return answered;
    try {
      await store_(peer, message);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        return { message_id, status: 'refused', status_code: error.status, error: error.message };
      }
      throw error;
    }
    return { message_id, status: 'stored' };
  }

  async function store_(peer: Peer, message: PeerMessage): Promise<void> {
    const { body, message_id } = message;
    // The sender's time of sending: a redelivery after a crash between storing and recording makes the same event.
    const time = optionalString(body, 'sent_at') ?? new Date(now()).toISOString();
    const base = { time, from_service_id: peer.service_id, to_service_id: options.serviceId, message_id };
    switch (message.operation) {
      case 'textMessage': {
        await inbox.receiveTextMessage(textInput(peer, message, time, options.serviceId));
        return;
      }
      case 'voyagePlan': {
        const xml = stringField(body, 'message');
        const rta = optionalString(body, 'rta');
        const assessment = assessRoute(parseRtz(xml), options.syncPoint);
        // A plan that comes with an RTA is a port's answer to ours: stored as such, and never answered again.
        const state = rta ? 'RTA_SENT' : assessment.state;
        const payload: Record<string, unknown> = { stmMessage: { message: xml } };
        for (const key of ['rta', 'eta_min', 'eta_max']) {
          const value = optionalString(body, key);
          if (value !== undefined) payload[key] = value;
        }
        await inbox.receiveVoyagePlan({
          ...base,
          message_type: 'RTZ',
          rtz_state: state,
          rtz_parse_results: JSON.stringify(assessment.parseResults),
          payload: JSON.stringify(payload),
        });
        return;
      }
      case 'departure': {
        const imo = body.vessel_imo;
        if (typeof imo !== 'number' || !Number.isSafeInteger(imo) || imo < 0)
          throw ApiError.badRequest('Invalid vessel_imo');
        await inbox.recordInboundVessel({
          time: stringField(body, 'time'),
          imo,
          vessel_name: typeof body.vessel_name === 'string' ? body.vessel_name : '',
          from_service_id: peer.service_id,
        });
        return;
      }
      case 'acknowledgement': {
        const referenceId = stringField(body, 'referenceId');
        const sent = await markAcknowledged(db, peer.service_id, referenceId);
        await inbox.receiveNotification(acknowledgementInput(peer, message, referenceId, sent, time));
        return;
      }
    }
  }

  return { refusedOrKnown, take };
}

export function createPeerReceiver(deps: ServiceDeps, options: PeerCommandOptions): PeerReceiver {
  const { db, log } = deps;
  const { inbox } = options;
  const now = options.now ?? Date.now;
  const { refusedOrKnown, take } = createSingleStore(deps, options);

  /**
   * Takes a batch: what the peer delivered before is answered "duplicate" (and acknowledged again); the rest is
   * stored. Text messages and acknowledgements (the bulk of the traffic) are stored together in one transaction,
   * with the record of what was received; the other operations in lanes side by side (a vessel's departures in
   * the order sent; each message keeps its time of sending). Should the common transaction fail, its messages go
   * one by one as the others do. The acknowledgements for the sender are queued in one statement, or, for a
   * `batch`, answered (a lost answer makes the sender post the batch again: answered "duplicate" and acknowledged
   * again, with the same acknowledgement ids).
   */
  async function takeAll(
    peer: Peer,
    messages: readonly PeerMessage[],
    acknowledge: 'queue' | 'answer',
  ): Promise<{ results: PeerResult[]; acknowledgements: PeerMessage[] }> {
    const known = await receivedAmong(
      db,
      peer.service_id,
      messages.map((m) => m.message_id),
    );
    const results = new Map<string, PeerResult>();
    // Stored one by one, so their receipt is still to be recorded (takeTogether records its own).
    const storedAlone: { message_id: string; operation: PeerOperation }[] = [];
    const toAcknowledge: string[] = [];
    const settle = (message: PeerMessage, result: PeerResult, recorded = false) => {
      results.set(message.message_id, result);
      if (result.status === 'stored') {
        known.add(message.message_id);
        if (!recorded) storedAlone.push({ message_id: message.message_id, operation: message.operation });
      }
      if (result.status !== 'refused' && message.operation !== 'acknowledgement')
        toAcknowledge.push(message.message_id);
    };
    const one = async (message: PeerMessage) => settle(message, await take(peer, message, known));

    // The same id twice in one batch is taken once (its answer serves both).
    const distinct = [...new Map(messages.map((m) => [m.message_id, m])).values()];
    const together: PeerMessage[] = [];
    const alone: PeerMessage[] = [];
    for (const message of distinct) {
      const answered = refusedOrKnown(peer, message, known);
      if (answered) settle(message, answered);
      else if (message.operation === 'textMessage' || message.operation === 'acknowledgement') together.push(message);
      else alone.push(message);
    }
    if (together.length > 0) {
      const recorded = await takeTogether(peer, together);
      if (recorded) for (const [i, result] of recorded.entries()) settle(together[i], result, true);
      else for (const message of together) await one(message);
    }
    // Lanes side by side, so their commits share the disk's flushes; inside a lane, the order sent.
    const lanes = lanesOf(alone);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(STORE_CONCURRENCY, lanes.length) }, async () => {
        for (let i = next++; i < lanes.length; i = next++) for (const message of lanes[i]) await one(message);
      }),
    );
    await recordReceivedMany(db, peer.service_id, storedAlone);
    const deliveredAt = new Date(now());
    const acknowledgements = [...new Set(toAcknowledge)].map((message_id) =>
      acknowledgementOf(
        { message_id, from_service_id: peer.service_id, from_name: peer.name ?? peer.service_id },
        { service_id: options.serviceId, name: options.portName },
        deliveredAt,
      ),
    );
    if (acknowledge === 'queue') await enqueueMany(db, peer.service_id, acknowledgements);
    return {
      results: messages.map((m) => results.get(m.message_id) as PeerResult),
      acknowledgements: acknowledge === 'answer' ? acknowledgements : [],
    };
  }

  /**
   * Text messages and acknowledgements stored in one transaction (VisInbox.receiveMany), their receipt recorded
   * in it; a message refused on its own (malformed) is answered so. Undefined when the transaction failed.
   */
  async function takeTogether(peer: Peer, messages: readonly PeerMessage[]): Promise<PeerResult[] | undefined> {
    const results: (PeerResult | undefined)[] = messages.map(() => undefined);
    const refuse = (i: number, error: unknown) => {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      results[i] = {
        message_id: messages[i].message_id,
        status: 'refused',
        status_code: error.status,
        error: error.message,
      };
    };
    // What each acknowledgement answers, marked in one statement (as markAcknowledged does for one).
    const references = new Map<number, string>();
    messages.forEach((m, i) => {
      if (m.operation !== 'acknowledgement') return;
      try {
        references.set(i, stringField(m.body, 'referenceId'));
      } catch (error) {
        refuse(i, error);
      }
    });
    const sent = await markAcknowledgedMany(db, peer.service_id, [...new Set(references.values())]);
    const items: InboxItem[] = [];
    const itemOf: number[] = [];
    messages.forEach((m, i) => {
      if (results[i]) return;
      try {
        const time = optionalString(m.body, 'sent_at') ?? new Date(now()).toISOString();
        if (m.operation === 'textMessage') {
          items.push({ kind: 'text', input: textInput(peer, m, time, options.serviceId) });
        } else {
          const referenceId = references.get(i) as string;
          const operation = sent.get(referenceId);
          items.push({ kind: 'notification', input: acknowledgementInput(peer, m, referenceId, operation, time) });
        }
        itemOf.push(i);
      } catch (error) {
        refuse(i, error);
      }
    });
    let refusals: (unknown | undefined)[];
    try {
      refusals = await inbox.receiveMany(items, (tx, accepted) =>
        recordReceivedMany(
          tx,
          peer.service_id,
          items.flatMap((_, k) => (accepted[k] ? [messages[itemOf[k]]] : [])),
        ),
      );
    } catch (error) {
      log.warn({ peer: peer.service_id, err: error }, 'VIS batch not stored together; storing one by one');
      return undefined;
    }
    refusals.forEach((refusal, k) => {
      const i = itemOf[k];
      if (refusal === undefined) results[i] = { message_id: messages[i].message_id, status: 'stored' };
      else refuse(i, refusal);
    });
    return results as PeerResult[];
  }

  return { takeAll };
}
