import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderView, stubApi } from '../test/render.tsx';
import { ServerTable, sortExpression } from './ServerTable.tsx';

describe('ServerTable', () => {
  it('puts DESC on every field of a column sorted by several', () => {
    expect(sortExpression({ column: 'lower(last_name),lower(first_name),id', descending: true })).toBe(
      'lower(last_name) DESC,lower(first_name) DESC,id DESC',
    );
    expect(sortExpression({ column: 'atd', descending: false })).toBe('atd');
  });

  it('asks the server for each page, sort and search, and shows what it answers', async () => {
    const calls = stubApi((call) => ({
      data: [{ id: Number(call.query.get('offset')) + 1, vessel_name: 'Aurora' }],
      pagination: { start: Number(call.query.get('offset')), limit: 2, total: 5 },
    }));
    renderView(
      <ServerTable
        path="vessels"
        caption="Vessels"
        pageSize={2}
        defaultSort="id"
        searchLabel="Search vessels"
        columns={[
          { key: 'id', label: 'ID' },
          { key: 'vessel_name', label: 'Name', sort: 'lower(vessel_name)' },
        ]}
      />,
    );
    expect(await screen.findByText('Aurora')).toBeTruthy();
    expect(calls[0].path).toBe('vessels');
    expect(Object.fromEntries(calls[0].query)).toEqual({ limit: '2', offset: '0', sort: 'id' });

    await userEvent.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(calls.at(-1)?.query.get('offset')).toBe('4'));

    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(calls.at(-1)?.query.get('sort')).toBe('lower(vessel_name)'));
    expect(calls.at(-1)?.query.get('offset')).toBe('4');
    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(calls.at(-1)?.query.get('sort')).toBe('lower(vessel_name) DESC'));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');

    // A search starts again at the first page.
    await userEvent.type(screen.getByLabelText('Search vessels'), 'aur');
    await waitFor(() => expect(calls.at(-1)?.query.get('search')).toBe('aur'));
    expect(calls.at(-1)?.query.get('offset')).toBe('0');
  });
});
