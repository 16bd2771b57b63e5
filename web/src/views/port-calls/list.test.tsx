import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../components/time.ts';
import { SessionContext } from '../../session/session.tsx';
import { ADMIN, apiError, renderView, type StubbedCall, sessionOf, stubApi } from '../../test/render.tsx';
import { Area, portAnswers } from './test-support.tsx';

const VIEWER = { ...ADMIN, id: 5, permissions: ['basic_user_action'] };

const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;
const called = (calls: StubbedCall[], path: string) => calls.filter((call) => call.path === path);

/** Clicks the button, then the answer in the dialog that asks (earlier dialogs may still be fading out). */
async function confirm(button: HTMLElement, answer: string, question?: string) {
  fireEvent.click(button);
  const asked = question ?? button.getAttribute('aria-label') ?? '';
  const dialog = await screen.findByRole('dialog', { name: (name) => name.startsWith(asked) });
  fireEvent.click(within(dialog).getByRole('button', { name: answer }));
}

describe('the port-call list', () => {
  it('asks the server for a page sorted by ATD (newest first) and shows each port call’s columns', async () => {
    const calls = stubApi(portAnswers());
    renderView(<Area />, { path: '/port-calls' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Port calls');

    const row = await rowOf('Test Vessel');
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent?.trim());
    expect(headers).toEqual(['Vessel', 'IMO', 'Route', 'ETA', 'RTA', 'ATA', 'ETD', 'ATD', 'Status', 'Actions']);
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1, 9)).toEqual([
      '9074729',
      'SEGVX → FIRAU',
      formatTime('2026-11-25 20:00:00+00'),
      '',
      formatTime('2026-11-25 15:00:00+00'),
      formatTime('2026-11-26 06:30:00+00'),
      '',
      'at berth',
    ]);
    expect(within(row).getByRole('link', { name: 'Test Vessel' }).getAttribute('href')).toBe('/port-calls/10');

    const [first] = called(calls, 'port-calls');
    expect(Object.fromEntries(first.query)).toEqual({ limit: '30', offset: '0', sort: 'atd DESC' });
  });

  it('sorts and searches on the server', async () => {
    const calls = stubApi(portAnswers());
    renderView(<Area />, { path: '/port-calls' });
    await rowOf('Test Vessel');
    fireEvent.click(screen.getByRole('button', { name: /^ETA/ }));
    await waitFor(() => expect(called(calls, 'port-calls').at(-1)?.query.get('sort')).toBe('current_eta'));
    fireEvent.change(screen.getByLabelText('Search by vessel name or IMO'), { target: { value: '9074729' } });
    await waitFor(() => expect(called(calls, 'port-calls').at(-1)?.query.get('search')).toBe('9074729'));
  });

  it('closes and re-scans a port call after asking; a done port call cannot be closed again', async () => {
    const calls = stubApi(portAnswers());
    renderView(<Area />, { path: '/port-calls' });
    const done = await rowOf('Old Visit');
    expect(
      (within(done).getByRole('button', { name: 'Close port call 4 of Old Visit' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    const row = await rowOf('Test Vessel');
    await confirm(within(row).getByRole('button', { name: 'Close port call 10 of Test Vessel' }), 'Close port call');
    await waitFor(() => expect(called(calls, 'force-close-port-call')).toHaveLength(1));
    expect(called(calls, 'force-close-port-call')[0].query.get('port_call_id')).toBe('10');
    expect(await screen.findByText('Port call closed')).toBeTruthy();

    await confirm(
      within(row).getByRole('button', { name: 'Re-scan port call 10 of Test Vessel' }),
      'Re-scan port call',
    );
    await waitFor(() => expect(called(calls, 'force-scan-port-call')[0]?.query.get('port_call_id')).toBe('10'));
  });

  it('shows the API’s refusal in words', async () => {
    stubApi(
      portAnswers((call) => (call.path === 'force-scan-port-call' ? apiError('Invalid port call ID: 10') : undefined)),
    );
    renderView(<Area />, { path: '/port-calls' });
    const row = await rowOf('Test Vessel');
    await confirm(
      within(row).getByRole('button', { name: 'Re-scan port call 10 of Test Vessel' }),
      'Re-scan port call',
    );
    expect(await screen.findByText('Invalid port call ID: 10')).toBeTruthy();
  });

  it('expands a row to the port call’s timestamps and the vessel’s orphans, paged on the server', async () => {
    const calls = stubApi(portAnswers());
    renderView(<Area />, { path: '/port-calls' });
    await rowOf('Test Vessel');
    const toggle = screen.getByRole('button', { name: 'Show timestamps of Test Vessel' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);

    expect(await screen.findByText('Timestamps of port call 10: 1–1 of 1')).toBeTruthy();
    expect(await screen.findByText('Orphan timestamps of IMO 9074729: 1–1 of 1')).toBeTruthy();
    expect(Object.fromEntries(called(calls, 'port-call-timestamps')[0].query)).toEqual({
      port_call_id: '10',
      limit: '10',
      offset: '0',
      sort: 'time',
    });
    expect(called(calls, 'non-port-call-timestamps')[0].query.get('imo')).toBe('9074729');
    expect(screen.getByText('Actual Arrival Vessel Berth')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide timestamps of Test Vessel' }).getAttribute('aria-expanded')).toBe(
      'true',
    );

    // Detach the port call's timestamp; attach the orphan here.
    await confirm(screen.getByRole('button', { name: 'Detach timestamp 12' }), 'Detach');
    await waitFor(() => expect(called(calls, 'unset-port-call-id')[0]?.body).toEqual({ id: 12 }));
    await confirm(
      screen.getByRole('button', { name: 'Attach here: timestamp 30' }),
      'Attach here',
      'Attach timestamp 30 to port call 10?',
    );
    await waitFor(() => expect(called(calls, 'update-port-call-id')[0]?.body).toEqual({ id: 30, portCallId: 10 }));
  });

  it('is not shown to a user who may not manage port calls, nor when the activity module is off', async () => {
    const calls = stubApi(portAnswers());
    renderView(<Area />, { path: '/port-calls', user: VIEWER });
    expect(screen.getByText('You do not have permission to manage port calls.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    renderView(
      <SessionContext.Provider value={sessionOf(ADMIN, { activity_module: 'disabled' })}>
        <Area />
      </SessionContext.Provider>,
      { path: '/port-calls' },
    );
    expect(screen.getByText('Port calls are part of the activity module, which is switched off.')).toBeTruthy();
    expect(called(calls, 'port-calls')).toEqual([]);
  });
});
