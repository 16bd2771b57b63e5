import { describe, expect, it } from 'vitest';
import { parseAtom } from './atom-time.ts';

const MINUTE_MS = 60_000;

describe('the strict ISO date-time form', () => {
  it('takes YYYY-MM-DDThh:mm:ss±hh:mm only, as a real calendar time', () => {
    expect(parseAtom('2026-11-27T10:00:00+00:00')).toBe(Date.UTC(2026, 10, 27, 10));
    expect(parseAtom('2026-11-27T12:00:00+02:00')).toBe(Date.UTC(2026, 10, 27, 10));
    expect(parseAtom('2026-11-27T05:30:00-04:30')).toBe(Date.UTC(2026, 10, 27, 10));
    for (const bad of [
      '2026-11-27T10:00:00Z',
      '2026-11-27T10:00:00.000+00:00',
      '2026-11-27T10:00:00',
      '2026-02-30T10:00:00+00:00',
      '2026-11-27T24:00:00+00:00',
      17,
    ]) {
      expect(parseAtom(bad), String(bad)).toBeUndefined();
    }
  });
});

describe('the strict ISO date-time form read by character codes', () => {
  // The regular-expression reading it replaced, kept here as the reference.
  const ATOM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;
  const reference = (text: unknown): number | undefined => {
    if (typeof text !== 'string') return undefined;
    const m = ATOM.exec(text);
    if (!m) return undefined;
    const [y, mo, d, h, mi, s, oh, om] = [m[1], m[2], m[3], m[4], m[5], m[6], m[8], m[9]].map(Number);
    if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return undefined;
    const local = Date.UTC(y, mo - 1, d, h, mi, s);
    if (new Date(local).getUTCDate() !== d) return undefined;
    return local - (m[7] === '-' ? -1 : 1) * (oh * 60 + om) * MINUTE_MS;
  };

  it('reads edge cases as the regular expression did', () => {
    for (const text of [
      '2024-02-29T23:59:59+00:00',
      '2023-02-29T00:00:00+00:00',
      '1900-02-29T00:00:00+00:00',
      '0000-02-29T00:00:00+00:00',
      '0099-03-01T00:00:00+00:00',
      '0004-02-29T00:00:00+00:00',
      '2026-04-31T00:00:00+00:00',
      '2026-12-31T23:59:59-23:59',
      '2026-01-00T00:00:00+00:00',
      '2026-00-10T00:00:00+00:00',
      '2026-13-10T00:00:00+00:00',
      '2026-01-10T00:60:00+00:00',
      '2026-01-10T00:00:60+00:00',
      '2026-01-10T00:00:00+24:00',
      '2026-01-10T00:00:00+00:60',
      '2026-01-10T00:00:00*00:00',
      '2026-01-10t00:00:00+00:00',
      '2026/01/10T00:00:00+00:00',
      '2026-01-10T00:00:00+00:00\n',
      '２026-01-10T00:00:00+00:00',
      '2026-01-1 T00:00:00+00:00',
      '2026-01-10T00:00:00+0000 ',
      '',
      null,
      undefined,
      1_700_000_000_000,
    ]) {
      expect(parseAtom(text), String(text)).toBe(reference(text));
    }
  });

  it('reads random times and random corruptions of them as the regular expression did', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const chars = '0123456789-+:T Z/.a';
    for (let i = 0; i < 5_000; i++) {
      const sign = random() < 0.5 ? '+' : '-';
      let text =
        `${pad(Math.floor(random() * 10_000), 4)}-${pad(Math.floor(random() * 14), 2)}-${pad(Math.floor(random() * 33), 2)}` +
        `T${pad(Math.floor(random() * 26), 2)}:${pad(Math.floor(random() * 62), 2)}:${pad(Math.floor(random() * 62), 2)}` +
        `${sign}${pad(Math.floor(random() * 26), 2)}:${pad(Math.floor(random() * 62), 2)}`;
      if (random() < 0.3) {
        const at = Math.floor(random() * text.length);
        text = text.slice(0, at) + chars[Math.floor(random() * chars.length)] + text.slice(at + 1);
      }
      expect(parseAtom(text), text).toBe(reference(text));
    }
  });
});

describe('the years 0000-0099', () => {
  it('read as 1900-1999 (Date.UTC), as the queue always took them', () => {
    expect(parseAtom('0050-01-01T00:00:00+00:00')).toBe(Date.UTC(1950, 0, 1));
  });
});
