import { describe, expect, it } from 'vitest';
import { evolveTranslations } from './translations.ts';

describe('evolveTranslations', () => {
  const entries = (...pairs: [string, string][]) => pairs.map(([key, value]) => ({ key, value }));
  it('adds and updates keys; a replacement leaves exactly its entries', () => {
    let texts = evolveTranslations(new Map(), {
      type: 'TranslationsAdded',
      data: { translations: entries(['a', '1']) },
    });
    texts = evolveTranslations(texts, { type: 'TranslationsUpdated', data: { translations: entries(['b', '2']) } });
    expect([...texts]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    texts = evolveTranslations(texts, { type: 'TranslationsReplaced', data: { translations: entries(['c', '3']) } });
    expect([...texts]).toEqual([['c', '3']]);
  });

  it('passes over events of other types and events without entries', () => {
    const texts = new Map([['a', '1']]);
    expect([
      ...evolveTranslations(texts, { type: 'SettingChanged', data: { translations: entries(['b', '2']) } }),
    ]).toEqual([['a', '1']]);
    expect([...evolveTranslations(texts, { type: 'TranslationsReplaced', data: null })]).toEqual([['a', '1']]);
  });
});
