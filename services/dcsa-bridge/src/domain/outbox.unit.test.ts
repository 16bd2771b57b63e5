import { retryDelayMs } from '@pcas/values';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, decideSend, messagesFor, type OurTime } from './outbox.ts';

const time: OurTime = {
  imo: 9704611,
  vessel_name: 'YM WHOLESOME',
  unLocationCode: 'FIRAU',
  dcsa: { serviceType: 'BERTH', eventType: 'ARRI', classifier: 'PLN' },
  timestampId: 't-1',
  dateTime: '2026-11-29T10:00:00Z',
};

describe('what one of our times becomes at a partner', () => {
  it('on the partner’s own service: the timestamp alone, answering its latest', () => {
    const messages = messagesFor(time, {
      portCall: { id: 'pc', create: false },
      terminalCall: { id: 'tc', create: false },
      service: { id: 's', create: false },
      replyTo: 'their-est',
    });
    expect(messages).toEqual([
      {
        dedupe_key: 'timestamp:t-1',
        method: 'PUT',
        path: '/v2/timestamps/t-1',
        body: {
          timestampID: 't-1',
          replyToTimestampID: 'their-est',
          portCallServiceID: 's',
          classifierCode: 'PLN',
          dateTime: '2026-11-29T10:00:00Z',
        },
      },
    ]);
  });

  it('with nothing there yet: port call, terminal call, service, then the timestamp', () => {
    const messages = messagesFor(time, {
      portCall: { id: 'pc', create: true },
      terminalCall: { id: 'tc', create: true },
      service: { id: 's', create: true },
    });
    expect(messages.map((m) => m.path)).toEqual([
      '/v2/port-calls/pc',
      '/v2/terminal-calls/tc',
      '/v2/port-call-services/s',
      '/v2/timestamps/t-1',
    ]);
    expect(messages[0].body).toMatchObject({ UNLocationCode: 'FIRAU', vessel: { vesselIMONumber: '9704611' } });
    expect(messages[2].body).toMatchObject({ portCallServiceType: 'BERTH', portCallServiceEventTypeCode: 'ARRI' });
  });
});

describe('what a partner’s answer means', () => {
  it('2xx delivered; 400 refused for good; 5xx, 404, 429 and no answer tried again, up to the limit', () => {
    expect(decideSend({ kind: 'answered', status: 204, body: '' }, 1, 5)).toEqual({ kind: 'delivered' });
    expect(decideSend({ kind: 'answered', status: 400, body: 'no' }, 1, 5).kind).toBe('refused');
    expect(decideSend({ kind: 'answered', status: 409, body: '' }, 1, 5).kind).toBe('refused');
    for (const status of [500, 503, 404, 429]) {
      expect(decideSend({ kind: 'answered', status, body: '' }, 1, 5).kind).toBe('retry');
      expect(decideSend({ kind: 'answered', status, body: '' }, 5, 5).kind).toBe('refused');
    }
    expect(decideSend({ kind: 'unreachable', error: 'ECONNREFUSED' }, 1, 5).kind).toBe('retry');
  });

  it('waits at most 30 s between attempts at a partner', () => {
    expect(retryDelayMs(1, DEFAULT_BACKOFF, () => 1)).toBe(250);
    expect(retryDelayMs(30, DEFAULT_BACKOFF, () => 1)).toBe(30_000);
  });
});
