import { isApiError, MAIL_TRANSLATION_KEYS } from '@pcas/contracts';
import { STATES, TIME_TYPE_NAMES } from '@pcas/s211';
import { describe, expect, it } from 'vitest';
import {
  checkNamespaceAndLanguage,
  defaultTranslations,
  effectiveTranslations,
  missingToAdd,
  readEntries,
  replacementChanges,
  timestampLabelKey,
  updatesToApply,
} from './translations.ts';

function error(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (!isApiError(e)) throw e;
    return `${e.status}:${e.message}`;
  }
}

describe('translation defaults', () => {
  const defaults = defaultTranslations('gavle', 'en');

  it('names every time type × S-211 state after the catalogue, keyed as the UI looks them up', () => {
    expect(timestampLabelKey('Estimated', 'Arrival_Vessel_PortArea')).toBe('Estimated Arrival Vessel PortArea');
    expect(defaults.get('Estimated Arrival Vessel PortArea')).toBe('Estimated Arrival Vessel Port Area');
    expect(defaults.get('Actual Pilotage Commenced')).toBe('Actual Pilotage Commenced');
    expect(defaults.get('Actual Arrival Vessel AnchorageArea')).toBe('Actual Arrival Vessel Anchoring Area');
    expect(defaults.get('LiveEstimated Arrival Vessel PortArea')).toBe('Live Estimated Arrival Vessel Port Area');
    expect(defaults.size).toBe(TIME_TYPE_NAMES.length * STATES.length + 1 + MAIL_TRANSLATION_KEYS.length);
  });

  it("offers the queue's e-mail phrases in English, the text after the mail's prefix", () => {
    expect(defaults.get('[EMAIL SLOT REQUEST] offer')).toBe('offer');
    expect(defaults.get('[EMAIL LIVE ETA ALERT] Live ETA alert for')).toBe('Live ETA alert for');
    for (const key of MAIL_TRANSLATION_KEYS) expect(defaults.get(key)).toBe(key.slice(key.indexOf('] ') + 2));
  });

  it('are English only and the same in every namespace', () => {
    expect(defaultTranslations('common', 'en')).toBe(defaults);
    expect(defaultTranslations('gavle', 'fi').size).toBe(0);
  });

  it("give way to a stored text, a port's short name", () => {
    const merged = effectiveTranslations(defaults, [
      { key: 'Actual Arrival Vessel AnchorageArea', value: 'ATA Anchorage' },
      { key: 'Logout', value: 'Log out' },
    ]);
    expect(merged['Actual Arrival Vessel AnchorageArea']).toBe('ATA Anchorage');
    expect(merged.Logout).toBe('Log out');
    expect(merged['Estimated Arrival Vessel PortArea']).toBe('Estimated Arrival Vessel Port Area');
  });

  it('keep a key such as __proto__ a plain key', () => {
    const merged = effectiveTranslations(new Map(), [{ key: '__proto__', value: 'x' }]);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(JSON.parse('{"__proto__":"x"}'));
  });
});

describe('translation input', () => {
  it('reads the i18next map and the admin list forms; the last of a repeated key wins', () => {
    expect(readEntries('missing', { Hello: 'Hello', Bye: 'Bye' })).toEqual([
      { key: 'Hello', value: 'Hello' },
      { key: 'Bye', value: 'Bye' },
    ]);
    expect(
      readEntries('updated', [
        { key: 'A', value: '1' },
        { key: 'A', value: '2' },
      ]),
    ).toEqual([{ key: 'A', value: '2' }]);
    expect(readEntries('missing', {})).toEqual([]);
    expect(readEntries('missing', [])).toEqual([]);
  });

  it.each([
    ['a string', 'x', '400:Invalid updated: expected a list of translations'],
    ['a number item', [1], '400:Invalid updated: each item must be an object with key and value'],
    ['a missing key', [{ value: 'v' }], '400:Invalid translation key in updated: undefined'],
    ['an empty key', [{ key: '', value: 'v' }], '400:Invalid translation key in updated: (empty)'],
    ['a numeric key', [{ key: 5, value: 'v' }], '400:Invalid translation key in updated: 5'],
    ['a numeric text', [{ key: 'k', value: 5 }], '400:Invalid translation value for key: k'],
    ['a nested text', { k: { deep: 'x' } }, '400:Invalid translation value for key: k'],
    [
      'an overlong key',
      [{ key: 'k'.repeat(1001), value: 'v' }],
      `400:Invalid translation key in updated: ${'k'.repeat(100)}...`,
    ],
    ['an overlong text', [{ key: 'k', value: 'v'.repeat(10_001) }], '400:Invalid translation value for key: k'],
  ])('refuses %s', (_what, input, expected) => {
    expect(error(() => readEntries('updated', input))).toBe(expected);
  });

  it('checks namespace and language', () => {
    expect(error(() => checkNamespaceAndLanguage('common', 'en'))).toBe('ok');
    expect(error(() => checkNamespaceAndLanguage('gavle', 'en-US'))).toBe('ok');
    expect(error(() => checkNamespaceAndLanguage('gav-le', 'en'))).toBe('400:Invalid namespace: gav-le');
    expect(error(() => checkNamespaceAndLanguage('common', 'e n'))).toBe('400:Invalid language: e n');
    expect(error(() => checkNamespaceAndLanguage('', 'en'))).toBe('400:Invalid namespace: ');
  });
});

describe('translation changes', () => {
  const defaults = new Map([['Actual Arrival Vessel Berth', 'Actual Arrival Vessel Berth']]);
  const stored = new Map([['Logout', 'Log out']]);

  it('adds only keys with no text at all', () => {
    expect(
      missingToAdd(
        [
          { key: 'Logout', value: 'Logout' },
          { key: 'Actual Arrival Vessel Berth', value: 'x' },
          { key: 'New text', value: 'New text' },
        ],
        stored,
        defaults,
      ),
    ).toEqual([{ key: 'New text', value: 'New text' }]);
  });

  it('updates stored and default keys, and refuses an unknown key as a whole', () => {
    expect(
      updatesToApply(
        [
          { key: 'Logout', value: 'Sign out' },
          { key: 'Actual Arrival Vessel Berth', value: 'ATA Berth' },
        ],
        stored,
        defaults,
      ),
    ).toEqual([
      { key: 'Logout', value: 'Sign out' },
      { key: 'Actual Arrival Vessel Berth', value: 'ATA Berth' },
    ]);
    expect(updatesToApply([{ key: 'Logout', value: 'Log out' }], stored, defaults)).toEqual([]);
    expect(
      error(() =>
        updatesToApply(
          [
            { key: 'Logout', value: 'Sign out' },
            { key: 'Nope', value: 'x' },
          ],
          stored,
          defaults,
        ),
      ),
    ).toBe('400:Unknown translation key: Nope');
  });

  it('sees whether a full upload changes anything', () => {
    expect(replacementChanges([{ key: 'Logout', value: 'Log out' }], stored)).toBe(false);
    expect(replacementChanges([{ key: 'Logout', value: 'Sign out' }], stored)).toBe(true);
    expect(replacementChanges([], stored)).toBe(true);
    expect(replacementChanges([], new Map())).toBe(false);
  });
});
