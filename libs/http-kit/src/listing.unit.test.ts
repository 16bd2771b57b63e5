import { ApiError } from '@pcas/errors';
import { describe, expect, it } from 'vitest';
import { escapeLike, paginated, parseLimit, parseOffset, parseSort, searchClause } from './listing.ts';

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('parseSort', () => {
  const fields = ['id', 'last_name', 'first_name', 'email', 'atd'];

  it('accepts the four token forms, comma separated', () => {
    expect(parseSort('lower(last_name),lower(first_name),lower(email),id', fields, 'id')).toBe(
      'lower(last_name), lower(first_name), lower(email), id',
    );
    expect(parseSort('atd DESC', fields, 'id')).toBe('atd DESC');
    expect(parseSort('lower(email) DESC,id DESC', fields, 'id')).toBe('lower(email) DESC, id DESC');
  });

  it('tolerates whitespace', () => {
    expect(parseSort(' id ,  lower( email )   DESC ', fields, 'id')).toBe('id, lower(email) DESC');
  });

  it('uses the fallback for an absent or blank sort', () => {
    expect(parseSort(undefined, fields, 'atd DESC')).toBe('atd DESC');
    expect(parseSort('  ', fields, 'id')).toBe('id');
  });

  it('maps API field names to SQL expressions', () => {
    const map = { vessel_name: 'pc.vessel_name', next_event_ts: "(doc->>'next_event_ts')" };
    expect(parseSort('lower(vessel_name) DESC,next_event_ts', map, 'next_event_ts')).toBe(
      "lower(pc.vessel_name) DESC, (doc->>'next_event_ts')",
    );
    expect(apiError(() => parseSort('constructor', map, 'vessel_name')).message).toBe('Invalid orderBy: constructor');
  });

  it('rejects what the original rejects, naming the token', () => {
    for (const token of ['-id', 'id ASC', 'id desc', 'nope', 'id; drop table x', 'upper(id)', 'lower(id DESC)', '']) {
      const error = apiError(() => parseSort(`id,${token}`, fields, 'id'));
      expect(error.status).toBe(400);
      expect(error.message).toBe(`Invalid orderBy: ${token.trim()}`);
    }
    expect(apiError(() => parseSort('id,', fields, 'id')).message).toBe('Invalid orderBy: ');
  });
});

describe('paginated', () => {
  it('builds the original envelope, total as a number', () => {
    expect(paginated([{ id: 1 }], { start: 0, limit: 10, total: '25' })).toEqual({
      data: [{ id: 1 }],
      pagination: { start: 0, limit: 10, total: 25 },
    });
  });
});

describe('searchClause', () => {
  const vessel = { imoColumn: 'imo', columns: ['vessel_name'] };

  it('returns null when there is nothing to search', () => {
    expect(searchClause(undefined, vessel)).toBeNull();
    expect(searchClause('  ', vessel)).toBeNull();
  });

  it('matches an IMO exactly for seven or more digits', () => {
    expect(searchClause('9201827', vessel)).toEqual({ sql: 'imo = $1', params: [9201827] });
    expect(searchClause('123456', vessel)).toEqual({ sql: 'vessel_name ILIKE $1', params: ['%123456%'] });
    expect(searchClause('99999999999', vessel)).toEqual({ sql: 'FALSE', params: [] });
  });

  it('prefix-matches after a caret, substring otherwise, numbering after the offset', () => {
    expect(searchClause('^Ever', { ...vessel, offset: 2 })).toEqual({ sql: 'vessel_name ILIKE $3', params: ['Ever%'] });
    expect(searchClause('ever', { ...vessel, offset: 4 })).toEqual({ sql: 'vessel_name ILIKE $5', params: ['%ever%'] });
  });

  it('ORs several columns with one parameter and can ignore the caret rule', () => {
    expect(searchClause('^b', { columns: ['code', 'name'], caretPrefix: false })).toEqual({
      sql: '(code ILIKE $1 OR name ILIKE $1)',
      params: ['%^b%'],
    });
  });

  it('uses only the name rules when no IMO column is given', () => {
    expect(searchClause('9201827', { columns: ['vessel_name'] })).toEqual({
      sql: 'vessel_name ILIKE $1',
      params: ['%9201827%'],
    });
  });

  it('escapes LIKE wildcards typed by the user', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
    expect(searchClause('100%', vessel)?.params).toEqual(['%100\\%%']);
  });
});

describe('parseLimit / parseOffset', () => {
  it('defaults and accepts numbers or digit strings', () => {
    expect(parseLimit(undefined)).toBe(100);
    expect(parseLimit('')).toBe(100);
    expect(parseLimit('20')).toBe(20);
    expect(parseLimit(0)).toBe(0);
    expect(parseOffset(undefined)).toBe(0);
    expect(parseOffset('300')).toBe(300);
  });

  it('gives the export messages', () => {
    expect(apiError(() => parseLimit(101)).message).toBe('Maximum limit is 100 records. Given limit: 101');
    expect(apiError(() => parseLimit('-5')).message).toBe('Limit cannot be negative. Given limit: -5');
    expect(apiError(() => parseLimit('ten')).message).toBe("Wrong parameter type: limit should be int but got 'ten'");
    expect(apiError(() => parseOffset(-1)).message).toBe('Offset cannot be negative. Given offset: -1');
    expect(parseLimit(500, { max: 1000 })).toBe(500);
  });
});
