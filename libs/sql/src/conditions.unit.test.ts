import { expect, it } from 'vitest';
import { equalities, whereAll } from './conditions.ts';

it('makes a numbered condition per value given, after the parameters already there', () => {
  const params: unknown[] = ['earlier'];
  const conditions = equalities({ 'p.id': 7, 'p.imo': undefined, name: 'Aurora' }, params);
  expect(conditions).toEqual(['p.id = $2', 'name = $3']);
  expect(params).toEqual(['earlier', 7, 'Aurora']);
  expect(whereAll(conditions)).toBe('WHERE p.id = $2 AND name = $3');
});

it('filters nothing when no value is given', () => {
  const params: unknown[] = [];
  expect(whereAll(equalities({ imo: undefined }, params))).toBe('');
  expect(params).toEqual([]);
});
