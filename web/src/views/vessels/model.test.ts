import { describe, expect, it } from 'vitest';
import {
  imoOf,
  isTrashed,
  isVisible,
  parsePayload,
  payloadSource,
  payloadSummary,
  readableJson,
  vesselTypeName,
} from './model.ts';

describe('reading timestamps and vessels', () => {
  it.each([
    ['JSON text', '{"source":"e2e"}', { source: 'e2e' }],
    ['twice-encoded text', JSON.stringify(JSON.stringify({ source: 'vis' })), { source: 'vis' }],
    ['an object', { a: 1 }, { a: 1 }],
    ['text that is not JSON', 'not json', 'not json'],
    ['empty text', '', null],
    ['nothing', null, null],
  ])('decodes a payload given as %s', (_given, payload, decoded) => {
    expect(parsePayload(payload)).toEqual(decoded);
  });

  it('summarises a payload in one line and finds its source', () => {
    expect(payloadSummary('{"source":"e2e","external_id":"x-1","empty":null,"nested":{"a":1}}')).toBe(
      'source: e2e · external_id: x-1 · nested: {"a":1}',
    );
    expect(payloadSummary('[1,2]')).toBe('[1,2]');
    expect(payloadSummary(`{"text":"${'x'.repeat(300)}"}`, 20)).toHaveLength(20);
    expect(payloadSource('{"source":"vis"}')).toBe('vis');
    expect(payloadSource('[]')).toBe('');
    expect(payloadSource(undefined)).toBe('');
  });

  it('reads text booleans', () => {
    expect(isTrashed('t')).toBe(true);
    expect(isTrashed('f')).toBe(false);
    expect(isTrashed(true)).toBe(true);
    expect(isTrashed(undefined)).toBe(false);
    expect(isVisible(false)).toBe(false);
    expect(isVisible('f')).toBe(false);
    expect(isVisible(true)).toBe(true);
  });

  it('shows a stored timestamp with its payload decoded', () => {
    expect(JSON.parse(readableJson({ id: 1, payload: '{"a":1}' }))).toEqual({ id: 1, payload: { a: 1 } });
  });

  it('takes seven-digit IMOs from the path and names vessel types', () => {
    expect(imoOf('9074729')).toBe(9074729);
    expect(imoOf('123')).toBeNull();
    expect(imoOf(undefined)).toBeNull();
    const types = [
      { id: 1, name: 'Unknown Vessel Type' },
      { id: 73, name: 'Other Pleasure Craft' },
    ];
    expect(vesselTypeName(types, 1)).toBe('Unknown Vessel Type');
    expect(vesselTypeName(types, '73')).toBe('Other Pleasure Craft');
    expect(vesselTypeName(types, 74)).toBeNull();
    expect(vesselTypeName(types, null)).toBeNull();
    expect(vesselTypeName(undefined, 1)).toBeNull();
  });
});
