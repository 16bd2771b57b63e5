import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { browserTimeZone } from '../../api/client.ts';
import { formatTime, localInputToUtc } from '../../components/time.ts';
import { ADMIN, apiError, openDialog, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import { Area, DONE_SHIP, page, portAnswers, SHIP } from './test-support.tsx';

const VIEWER = { ...ADMIN, id: 5, permissions: ['basic_user_action'] };

const DETAIL = {
  ship: SHIP,
  timestamps: [
    {
      time: '2026-11-25T20:00:00+00:00',
      state: 'Arrival_Vessel_PortArea',
      source: 'Port system',
      payload: { source: 'x', external_id: 'e1' },
      time_type: 'Estimated',
      created_at: '2026-11-25T16:20:33+00:00',
    },
    { state: 'Pilotage_Commenced', payload: { direction: 'inbound' }, time_type: 'Estimated' },
    {
      time: '2026-11-25T15:00:00+00:00',
      state: 'Arrival_Vessel_Berth',
      time_type: 'Actual',
      payload: { location: 'Quay 1' },
    },
    // Unexpected data is left out, not a crash.
    null,
    { time_type: 'Actual' },
  ],
};

const called = (calls: StubbedCall[], path: string) => calls.filter((call) => call.path === path);

function answers(more: (call: StubbedCall) => unknown = () => undefined) {
  return stubApi(
    portAnswers((call) => {
      const answer = more(call);
      if (answer !== undefined) return answer;
      if (call.path === 'port-call') return DETAIL;
      return undefined;
    }),
  );
}

/** Clicks the button, then the answer in the dialog asking `question` (earlier dialogs may still be fading out). */
async function confirmIn(button: HTMLElement, question: string, answer: string) {
  fireEvent.click(button);
  const dialog = await screen.findByRole('dialog', { name: question });
  fireEvent.click(within(dialog).getByRole('button', { name: answer }));
}

describe('one port call', () => {
  it('shows the timesheet: the S-211 activity with where and from whom, and the time in the browser’s zone', async () => {
    const calls = answers();
    renderView(<Area />, { path: '/port-calls/10' });
    const sheet = await screen.findByRole('table', { name: 'Timesheet' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Test Vessel: port call 10');
    expect(called(calls, 'port-call')[0].query.get('id')).toBe('10');

    const rows = within(sheet)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Estimated Arrival Vessel Port Area' + 'From Port system', formatTime('2026-11-25T20:00:00+00:00')],
      ['Estimated Pilotage Commenced (inbound)', 'not yet'],
      ['Actual Arrival Vessel Berth (Quay 1)', formatTime('2026-11-25T15:00:00+00:00')],
    ]);
  });

  it('downloads the timesheet as CSV in the browser’s zone, saved as <id>-<imo>-<name>.csv', async () => {
    const calls = answers((call) =>
      call.path === 'port-call-csv'
        ? new Response('"IMO","Name"\n"9074729","Test Vessel"\n', {
            status: 200,
            headers: { 'Content-Type': 'application/csv' },
          })
        : undefined,
    );
    const createObjectURL = vi.fn(() => 'blob:timesheet');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const saved: { name: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    renderView(<Area />, { path: '/port-calls/10' });
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));

    await waitFor(() => expect(saved).toEqual([{ name: '10-9074729-Test Vessel.csv', href: 'blob:timesheet' }]));
    const [csv] = called(calls, 'port-call-csv');
    expect(Object.fromEntries(csv.query)).toEqual({ id: '10', time_zone: browserTimeZone() });
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toContain('"9074729","Test Vessel"');
    click.mockRestore();
  });

  it('shows a refused download in words', async () => {
    answers((call) => (call.path === 'port-call-csv' ? apiError('Invalid time zone: Mars/Base') : undefined));
    renderView(<Area />, { path: '/port-calls/10' });
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Invalid time zone: Mars/Base')).toBeTruthy();
  });

  it('prints the page', async () => {
    answers();
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderView(<Area />, { path: '/port-calls/10' });
    fireEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('shows an unknown port call’s error from the API', async () => {
    answers((call) => (call.path === 'port-call' ? apiError('Invalid port call ID: 77') : undefined));
    renderView(<Area />, { path: '/port-calls/77' });
    expect(await screen.findByText('Invalid port call ID: 77')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'All port calls' })).toBeTruthy();
  });

  it('offers a user without manage_port_call the timesheet and no corrections', async () => {
    const calls = answers();
    renderView(<Area />, { path: '/port-calls/10', user: VIEWER });
    await screen.findByRole('table', { name: 'Timesheet' });
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Corrections' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Close port call/ })).toBeNull();
    expect(called(calls, 'port-call-range')).toEqual([]);
  });

  it('closes, re-scans, attaches orphans and rebuilds the vessel, each after asking', async () => {
    const calls = answers();
    renderView(<Area />, { path: '/port-calls/10' });
    await screen.findByRole('heading', { name: 'Corrections' });

    const button = (name: string) => screen.findByRole('button', { name });
    await confirmIn(
      await button('Close port call 10 of Test Vessel'),
      'Close port call 10 of Test Vessel?',
      'Close port call',
    );
    await waitFor(() => expect(called(calls, 'force-close-port-call')[0]?.query.get('port_call_id')).toBe('10'));
    await confirmIn(await button('Attach orphans'), 'Attach the orphan timestamps of Test Vessel?', 'Attach orphans');
    await waitFor(() => expect(called(calls, 'timestamps-to-port-calls')[0]?.query.get('imo')).toBe('9074729'));
    await confirmIn(await button('Rebuild vessel'), 'Rebuild every port call of Test Vessel?', 'Rebuild port calls');
    await waitFor(() => expect(called(calls, 'rebuild-port-calls')[0]?.query.get('imo')).toBe('9074729'));
    expect(called(calls, 'force-scan-port-call')).toEqual([]);
  });

  it('cannot close a port call that is done', async () => {
    answers((call) => (call.path === 'port-call' ? { ...DETAIL, ship: DONE_SHIP } : undefined));
    renderView(<Area />, { path: '/port-calls/4' });
    const close = await screen.findByRole('button', { name: 'Close port call 4 of Old Visit' });
    expect((close as HTMLButtonElement).disabled).toBe(true);
  });

  it('moves a timestamp to another port call of the same vessel', async () => {
    const other = { ...SHIP, id: 44, current_eta: '2026-12-10 08:00:00+00', status: 'arriving' };
    const calls = answers((call) => (call.path === 'port-calls' ? page([other, SHIP]) : undefined));
    renderView(<Area />, { path: '/port-calls/10' });
    const dialog = await openDialog('Move timestamp 12');
    await waitFor(() => expect(called(calls, 'port-calls')[0]?.query.get('search')).toBe('9074729'));

    fireEvent.click(within(dialog).getByLabelText('Port call of this vessel'));
    // jsdom runs no layout, so the dropdown counts as hidden.
    const option = await screen.findByRole('option', { name: /^Port call 44/, hidden: true });
    // The port call the timestamp is in is not offered.
    expect(screen.queryByRole('option', { name: /^Port call 10/, hidden: true })).toBeNull();
    fireEvent.click(option);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('Move timestamp 12 to port call 44?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move timestamp' }));
    await waitFor(() => expect(called(calls, 'update-port-call-id')[0]?.body).toEqual({ id: 12, portCallId: 44 }));
  });
});

describe('the range form', () => {
  it('shows the master ID and the manual flag, and posts the range after asking', async () => {
    const calls = answers();
    renderView(<Area />, { path: '/port-calls/10' });
    const form = await screen.findByRole('form', { name: 'Port call range' });
    await within(form).findByText('M-77');
    expect(within(form).getByText('Range set by hand')).toBeTruthy();
    const start = within(form).getByLabelText(/^Start/) as HTMLInputElement;
    const end = within(form).getByLabelText(/^End/) as HTMLInputElement;
    await waitFor(() => expect(start.value).not.toBe(''));
    expect(localInputToUtc(start.value)).toBe('2026-11-25T20:00:00+00:00');
    expect(end.value).toBe('');

    // No end: asked for, nothing sent.
    fireEvent.click(within(form).getByRole('button', { name: 'Save range' }));
    expect(await within(form).findByText('Enter the end time')).toBeTruthy();

    fireEvent.change(start, { target: { value: '2026-11-25T08:00' } });
    fireEvent.change(end, { target: { value: '2026-11-24T08:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save range' }));
    expect(await within(form).findByText('The end must not be before the start')).toBeTruthy();

    fireEvent.change(end, { target: { value: '2026-11-27T18:30' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save range' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set the range of port call 10?' });
    expect(called(calls, 'port-call-range').filter((call) => call.method === 'POST')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save range' }));
    await waitFor(() =>
      expect(called(calls, 'port-call-range').find((call) => call.method === 'POST')?.body).toEqual({
        port_call_id: 10,
        start: localInputToUtc('2026-11-25T08:00'),
        end: localInputToUtc('2026-11-27T18:30'),
      }),
    );
  });

  it('shows the API’s refusal of a range in words', async () => {
    answers((call) =>
      call.path === 'port-call-range' && call.method === 'POST'
        ? apiError('Start time must be before end time')
        : undefined,
    );
    renderView(<Area />, { path: '/port-calls/10' });
    const form = await screen.findByRole('form', { name: 'Port call range' });
    const end = within(form).getByLabelText(/^End/) as HTMLInputElement;
    fireEvent.change(end, { target: { value: '2026-11-27T18:30' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save range' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set the range of port call 10?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save range' }));
    expect(await screen.findByText('Start time must be before end time', undefined, { timeout: 5000 })).toBeTruthy();
  });
});
