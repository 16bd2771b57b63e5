import { describe, expect, it } from 'vitest';
import { pageStatements } from './paging.ts';

describe('pageStatements', () => {
  const shape = (from: string, orderBy = 'v.id') => ({ select: 'v.id, v.name', from, params: ['x'], orderBy });

  it('builds the page (with its total) and the count for a shape', () => {
    const text = pageStatements(shape('FROM items v WHERE v.name LIKE $1'));
    expect(text.count).toBe('SELECT count(*)::int AS total FROM items v WHERE v.name LIKE $1');
    expect(text.page.replace(/\s+/g, ' ')).toBe(
      'SELECT v.id, v.name, (SELECT count(*)::int AS total FROM items v WHERE v.name LIKE $1) AS page_total ' +
        'FROM items v WHERE v.name LIKE $1 ORDER BY v.id LIMIT $2 OFFSET $3',
    );
  });

  it('gives the same text for the same shape built apart, and its own to another shape', () => {
    const from = (w: string) => `FROM items v WHERE ${w}`;
    const first = pageStatements(shape(from('v.id > $1')));
    const again = pageStatements(shape(from('v.id > $1')));
    expect(again.page).toBe(first.page);
    expect(again.count).toBe(first.count);
    expect(pageStatements(shape(from('v.id > $1'), 'v.name')).page).toContain('ORDER BY v.name LIMIT $2 OFFSET $3');
    expect(pageStatements({ ...shape(from('TRUE')), params: [] }).page).toContain('LIMIT $1 OFFSET $2');
  });
});
