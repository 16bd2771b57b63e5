import { gunzipSync, gzipSync, crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, crc32, gzipHead, gzipWithTail } from './gzip-splice.ts';

describe('gzip splice', () => {
  it('computes gzip’s CRC-32, also continued over parts', () => {
    const text = Buffer.from('The quick brown fox jumps over the lazy dog');
    expect(crc32(text)).toBe(0x414fa339);
    expect(crc32(text.subarray(10), crc32(text.subarray(0, 10)))).toBe(0x414fa339);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    if (typeof zlibCrc32 === 'function') expect(crc32(text)).toBe(zlibCrc32(text));
  });

  it('gives a valid gzip body of head + tail, with any tail', () => {
    const head = Buffer.from(
      `{"portcalls":${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, ü: 'ä'.repeat(i % 7) })))}`,
    );
    const compressed = gzipHead(head);
    const long = `,"pinned_vessels":[${Array.from({ length: 20_000 }, (_, i) => 1_000_000 + i).join(',')}]}`;
    expect(long.length).toBeGreaterThan(0xffff);
    for (const tail of [',"pinned_vessels":[]}', ',"pinned_vessels":[9074729,1234567]}', '', long]) {
      const body = gzipWithTail(compressed, Buffer.from(tail));
      expect(gunzipSync(body).toString()).toBe(head.toString() + tail);
    }
    // Far smaller than the JSON, and about what a one-shot gzip gives.
    const whole = gzipWithTail(compressed, Buffer.from(',"pinned_vessels":[]}'));
    expect(whole.length).toBeLessThan(head.length / 5);
    expect(whole.length).toBeLessThan(gzipSync(head).length + 64);
  });

  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['GZIP', true],
    ['*', true],
    ['identity', false],
    ['', false],
    [undefined, false],
    ['gzip;q=0', false],
    ['gzip;q=0.0, *;q=1', false],
    ['deflate, *;q=0', false],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
