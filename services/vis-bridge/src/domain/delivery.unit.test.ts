import { retryDelayMs } from '@pcas/values';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, decideDelivery } from './delivery.ts';

describe('DEFAULT_BACKOFF', () => {
  it('tries a peer that stays down every 2 to 4 s, so its return is noticed soon', () => {
    expect(retryDelayMs(20, DEFAULT_BACKOFF, () => 1)).toBe(4000);
    expect(retryDelayMs(20, DEFAULT_BACKOFF, () => 0)).toBe(2000);
  });
});

describe('decideDelivery', () => {
  const ids = ['m1', 'm2', 'm3'];

  it('retries the whole batch when the peer is down, busy, does not trust us (yet) or took the request for a replay', () => {
    expect(decideDelivery(ids, { kind: 'unreachable', error: 'ECONNREFUSED' })).toEqual({
      kind: 'retry',
      error: 'ECONNREFUSED',
    });
    for (const status of [401, 403, 409, 429, 500, 503]) {
      expect(decideDelivery(ids, { kind: 'answered', status, body: { error: 'x' } })).toEqual({
        kind: 'retry',
        error: `${status} x`,
      });
    }
  });

  it('splits a batch that was too large, but never a single message', () => {
    expect(decideDelivery(ids, { kind: 'answered', status: 413, body: {} }).kind).toBe('split');
    expect(decideDelivery(['m1'], { kind: 'answered', status: 413, body: {} })).toMatchObject({
      kind: 'settled',
      refused: [{ message_id: 'm1' }],
    });
  });

  it('reads each message’s fate from the answer: stored or duplicate is delivered, refused is final, unanswered waits', () => {
    const body = {
      results: [
        { message_id: 'm1', status: 'stored' },
        { message_id: 'm2', status: 'refused', status_code: 400, error: 'Malformed XML' },
        { message_id: 'other', status: 'stored' },
      ],
    };
    expect(decideDelivery([...ids, 'm4'], { kind: 'answered', status: 200, body })).toEqual({
      kind: 'settled',
      delivered: ['m1'],
      refused: [{ message_id: 'm2', error: '400 Malformed XML' }],
      pending: ['m3', 'm4'],
    });
    const again = { results: [{ message_id: 'm3', status: 'duplicate' }] };
    expect(decideDelivery(['m3'], { kind: 'answered', status: 200, body: again })).toMatchObject({
      delivered: ['m3'],
    });
  });

  it('refuses every message of a batch the peer refused as a whole', () => {
    expect(decideDelivery(['m1', 'm2'], { kind: 'answered', status: 400, body: { error: 'Invalid batch' } })).toEqual({
      kind: 'settled',
      delivered: [],
      refused: [
        { message_id: 'm1', error: '400 Invalid batch' },
        { message_id: 'm2', error: '400 Invalid batch' },
      ],
      pending: [],
    });
  });
});
