import { ApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { decodeActor, decodeCommand, eventMetadata, parseTimestampId, positiveId } from './body.ts';
import { commandHandler } from './dispatch.ts';

const refusal = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
};

describe('decodeCommand', () => {
  it('returns the actor and the input as sent', () => {
    const input = { id: 7, note: 'x' };
    const body = decodeCommand<typeof input>({ actor: { user_id: 3, api_key_id: null }, input });
    expect(body).toEqual({ actor: { user_id: 3, api_key_id: null }, input });
    expect(body.input).toBe(input);
  });

  it('refuses a body whose input is not an object', () => {
    for (const payload of [undefined, null, {}, { input: null }, { input: 5 }, { input: 'x' }, 'body']) {
      const error = refusal(() => decodeCommand(payload));
      expect([error.status, error.message]).toEqual([400, 'Invalid command']);
    }
  });

  it('treats a missing or malformed actor as anonymous', () => {
    expect(decodeCommand({ input: {} }).actor).toEqual({ user_id: null, api_key_id: null });
    expect(decodeActor({ user_id: '3', api_key_id: 1.5 })).toEqual({ user_id: null, api_key_id: null });
    expect(decodeActor({ user_id: Number.MAX_SAFE_INTEGER + 1, api_key_id: 9 })).toEqual({
      user_id: null,
      api_key_id: 9,
    });
    expect(decodeActor('someone')).toEqual({ user_id: null, api_key_id: null });
  });
});

describe('eventMetadata', () => {
  it('carries who acted and the correlation, causation and trace headers', () => {
    const headers = {
      correlation_id: 'corr-1',
      causation_id: 'cmd-1',
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'k=v',
      'x-other': 'not metadata',
    };
    expect(eventMetadata({ user_id: 4, api_key_id: null }, headers)).toEqual({
      user_id: 4,
      api_key_id: null,
      correlation_id: 'corr-1',
      causation_id: 'cmd-1',
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'k=v',
    });
  });

  it('leaves out headers that are absent or not text (the event store fills its defaults)', () => {
    expect(eventMetadata({ user_id: null, api_key_id: 2 }, { correlation_id: 5, traceparent: undefined })).toEqual({
      user_id: null,
      api_key_id: 2,
    });
  });
});

describe('ids', () => {
  it('accepts positive whole numbers and their digits, blanks around them included', () => {
    expect(positiveId(5)).toBe(5);
    expect(positiveId('42')).toBe(42);
    expect(positiveId(' 42 ')).toBe(42);
    expect(parseTimestampId('\t17\n')).toBe(17);
  });

  it('refuses anything else with the original message, showing the value as sent', () => {
    for (const bad of [
      0,
      -1,
      1.5,
      '',
      ' ',
      'x',
      '4a',
      '4 2',
      '-3',
      '1e3',
      '0x10',
      '1234567890123456',
      null,
      undefined,
      {},
    ]) {
      expect(positiveId(bad)).toBeUndefined();
      const error = refusal(() => parseTimestampId(bad));
      expect([error.status, error.message]).toEqual([400, `Invalid timestamp id: ${String(bad)}`]);
    }
  });
});

describe('commandHandler', () => {
  const handle = commandHandler({ echo: async (payload, headers) => ({ payload, headers }) });

  it('hands a command its payload and headers and replies with its result', async () => {
    expect(await handle('echo', { a: 1 }, { traceparent: 't' })).toEqual({
      payload: { a: 1 },
      headers: { traceparent: 't' },
    });
  });

  it('refuses unknown commands, inherited names included', async () => {
    for (const name of ['nope', 'toString', '__proto__', 'constructor']) {
      await expect(handle(name, {}, {})).rejects.toMatchObject({ status: 400, message: `Unknown command: ${name}` });
    }
  });
});
