import { describe, expect, it } from 'vitest';
import {
  acknowledgementOf,
  incomingRefusal,
  lanesOf,
  nextBatch,
  outgoingRefusal,
  type PeerMessage,
  type QueuedMessage,
} from './outbox.ts';

const queued = (seq: number, bytes = 100): QueuedMessage => ({
  seq,
  bytes,
  message_id: `m${seq}`,
  operation: 'textMessage',
  body: {},
});

describe('nextBatch', () => {
  it('takes the oldest first, in queue order, up to the message limit', () => {
    const batch = nextBatch([queued(3), queued(1), queued(2), queued(4)], { maxMessages: 3, maxBytes: 10_000 });
    expect(batch.map((m) => m.seq)).toEqual([1, 2, 3]);
  });

  it('stops before the byte limit, but a large message still goes (alone)', () => {
    const limits = { maxMessages: 10, maxBytes: 900 };
    expect(nextBatch([queued(1, 400), queued(2, 400), queued(3, 200)], limits).map((m) => m.seq)).toEqual([1, 2]);
    expect(nextBatch([queued(1, 5000), queued(2, 10)], { maxMessages: 10, maxBytes: 900 }).map((m) => m.seq)).toEqual([
      1,
    ]);
    expect(nextBatch([], { maxMessages: 10, maxBytes: 900 })).toEqual([]);
  });
});

describe('whitelists', () => {
  const open = { whitelist_in: true, whitelist_out: true };
  const closed = { whitelist_in: false, whitelist_out: false };

  it('send to a port only with whitelist_out on; acknowledgements and unlisted services always', () => {
    expect(outgoingRefusal('departure', open, 's')).toBeUndefined();
    expect(outgoingRefusal('textMessage', undefined, 's')).toBeUndefined();
    expect(outgoingRefusal('acknowledgement', closed, 's')).toBeUndefined();
    expect(outgoingRefusal('departure', closed, 'urn:b')).toBe('Service ID is not whitelisted to receive data: urn:b');
  });

  it('take from a port only with whitelist_in on, departures with the original’s message', () => {
    expect(incomingRefusal('textMessage', open, 's')).toBeUndefined();
    expect(incomingRefusal('acknowledgement', closed, 's')).toBeUndefined();
    expect(incomingRefusal('departure', closed, 'urn:b')).toEqual({
      status: 400,
      error: 'Service ID is not whitelisted to post inbound vessel data: urn:b',
    });
    expect(incomingRefusal('voyagePlan', closed, 'urn:b')).toEqual({
      status: 403,
      error: 'Service ID is not whitelisted to send data: urn:b',
    });
  });
});

describe('acknowledgementOf', () => {
  it('answers a message with an id derived from it, so a redelivery is acknowledged once', () => {
    const at = new Date('2026-11-27T08:00:00Z');
    const ack = acknowledgementOf(
      { message_id: 'm1', from_service_id: 'urn:a', from_name: 'A' },
      { service_id: 'urn:b', name: 'B' },
      at,
    );
    expect(ack).toEqual({
      message_id: 'ack:m1',
      operation: 'acknowledgement',
      body: {
        id: 'ack:m1',
        referenceId: 'm1',
        timeOfDelivery: '2026-11-27T08:00:00.000Z',
        fromId: 'urn:a',
        fromName: 'A',
        toId: 'urn:b',
        toName: 'B',
        ackResult: 'OK',
      },
    });
  });
});

describe('lanesOf', () => {
  const m = (message_id: string, operation: PeerMessage['operation'], body: Record<string, unknown> = {}) => ({
    message_id,
    operation,
    body,
  });

  it('keeps a vessel’s departures and a repeated id in one lane, in order; the rest each alone', () => {
    const batch = [
      m('d1', 'departure', { vessel_imo: 9074729 }),
      m('t1', 'textMessage'),
      m('d2', 'departure', { vessel_imo: 9306172 }),
      m('d3', 'departure', { vessel_imo: 9074729 }),
      m('t1', 'textMessage'),
      m('a1', 'acknowledgement'),
    ];
    expect(lanesOf(batch).map((lane) => lane.map((x) => x.message_id))).toEqual([
      ['d1', 'd3'],
      ['t1', 't1'],
      ['d2'],
      ['a1'],
    ]);
  });
});
