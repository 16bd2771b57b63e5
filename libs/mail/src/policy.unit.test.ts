import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  DEFAULT_RETRY,
  describeServer,
  isTransient,
  outboxFileName,
  recipientList,
  shouldGiveUp,
} from './policy.ts';

describe('isTransient', () => {
  it('retries 4xx replies and gives up on 5xx replies', () => {
    expect(isTransient({ code: 'EENVELOPE', responseCode: 451 })).toBe(true);
    expect(isTransient({ code: 'EAUTH', responseCode: 454 })).toBe(true);
    expect(isTransient({ code: 'EAUTH', responseCode: 535 })).toBe(false);
    expect(isTransient({ code: 'EENVELOPE', responseCode: 550 })).toBe(false);
    expect(isTransient({ code: 'EMESSAGE', responseCode: 552 })).toBe(false);
  });

  it('retries connection trouble without a reply, nothing else', () => {
    for (const code of ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNREFUSED', 'EDNS']) {
      expect(isTransient({ code })).toBe(true);
    }
    for (const code of ['ECONFIG', 'ENOAUTH', 'EENVELOPE', undefined]) {
      expect(isTransient({ code })).toBe(false);
    }
  });
});

describe('backoff', () => {
  const policy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 500 };

  it('triples the wait per attempt up to the cap', () => {
    expect([2, 3, 4, 5].map((next) => backoffMs(next, policy))).toEqual([100, 300, 500, 500]);
  });

  it('adds at most 20 % jitter', () => {
    expect(backoffMs(2, policy, 0.999)).toBeLessThanOrEqual(120);
    expect(backoffMs(2, policy, 0.5)).toBe(110);
  });

  it('gives up on a final failure at once and on a transient one after the last attempt', () => {
    expect(shouldGiveUp({ responseCode: 535 }, 1, policy)).toBe(true);
    expect(shouldGiveUp({ responseCode: 451 }, 1, policy)).toBe(false);
    expect(shouldGiveUp({ responseCode: 451 }, 3, policy)).toBe(false);
    expect(shouldGiveUp({ responseCode: 451 }, 4, policy)).toBe(true);
  });

  it('keeps the default total wait of a failing send under ten seconds', () => {
    let total = 0;
    for (let next = 2; next <= DEFAULT_RETRY.attempts; next++) total += backoffMs(next, DEFAULT_RETRY, 0.999);
    expect(total).toBeLessThan(10_000);
  });
});

describe('recipientList', () => {
  it('accepts one address or a list, trimmed, without empty entries', () => {
    expect(recipientList(' a@port.local ')).toEqual(['a@port.local']);
    expect(recipientList(['a@port.local', '', '  ', 'b@port.local'])).toEqual(['a@port.local', 'b@port.local']);
    expect(recipientList([])).toEqual([]);
  });
});

describe('outboxFileName', () => {
  it('is sortable by time and safe as a file name', () => {
    const name = outboxFileName(new Date('2024-05-06T07:08:09.010Z'), 'ab/c..d');
    expect(name).toBe('2024-05-06T07-08-09-010Z-abcd.eml');
  });
});

describe('describeServer', () => {
  it('never shows the credentials of the URL', () => {
    expect(describeServer('smtps://user:s3cret@mail.example.org:465')).toBe('smtps://mail.example.org:465');
    expect(describeServer('smtp://mail.example.org')).toBe('smtp://mail.example.org');
    expect(describeServer('not a url s3cret')).not.toContain('s3cret');
  });
});
