import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { SessionContext } from '../../session/session.tsx';
import { ADMIN, apiError, renderView, type StubbedCall, sessionOf, stubApi } from '../../test/render.tsx';
import ActivityView from './index.tsx';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

const iso = (hoursFromNow: number) =>
  `${new Date(Date.now() + hoursFromNow * 3600_000).toISOString().slice(0, 19)}+00:00`;

function ship(id: number, imo: number, vessel_name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    imo,
    vessel_name,
    nationality: 'FI',
    from_port: 'SESTO',
    to_port: '',
    next_port: 'DEHAM',
    vessel_type_name: 'Cargo',
    badges: [{ type: 'success', value: 'arriving' }],
    next_event: { title: 'ETA', ts: iso(5) },
    ...extra,
  };
}

function events(sea: unknown[], port: unknown[] = [], departing: unknown[] = []) {
  return [
    {
      events: [
        { id: 1, location: 'sea', timestamps: sea },
        { id: 2, location: 'port', timestamps: port },
        { id: 3, location: 'sea', timestamps: departing },
      ],
    },
  ];
}

const ALPHA = {
  ship: ship(11, 9074729, 'Alpha'),
  portcalls: events(
    [
      {
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: iso(5),
        created_at: iso(-1 / 60),
        source: 'Port Agent',
      },
      { time_type: 'Recommended', state: 'Arrival_Vessel_PortArea', time: null },
      {
        time_type: 'Actual',
        state: 'Arrival_Vessel_TrafficArea',
        time: iso(-2),
        created_at: iso(-2),
        source: 'AIS',
      },
    ],
    [{ time_type: 'Estimated', state: 'Departure_Vessel_Berth', time: iso(30), created_at: iso(-3), source: 'Port' }],
  ),
};
const BRAVO = { ship: ship(12, 9319466, 'Bravo'), portcalls: events([]) };
const CHARLIE = {
  ship: ship(13, 9176187, 'Charlie', { badges: [{ type: 'success', value: 'at berth' }] }),
  portcalls: events([]),
};

function stubOngoing(body: () => unknown, put?: (call: StubbedCall) => unknown): StubbedCall[] {
  return stubApi((call) => {
    if (call.method === 'GET' && call.path === 'ongoing-port-calls') return body();
    if (call.method === 'PUT' && call.path === 'pinned-vessel-ids') return put ? put(call) : true;
    return undefined;
  });
}

const cardNames = () => screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'));

// When the user last looked, and their order and layout, are kept in this browser between visits (and recorded
// again as a view unmounts, after an afterEach).
beforeEach(() => localStorage.clear());

describe('the activity timeline', () => {
  it('shows each port call as a card with status, vessel, IMO link, route and next event, pinned first', async () => {
    stubOngoing(() => ({ portcalls: [ALPHA, BRAVO, CHARLIE], pinned_vessels: [9176187] }));
    renderView(<ActivityView />);
    await waitFor(() => expect(cardNames()).toEqual(['Charlie', 'Alpha', 'Bravo']));
    const alpha = screen.getByRole('article', { name: 'Alpha' });
    // Under the group headings ("Pinned", "Next arrivals and departures").
    expect(within(alpha).getByRole('heading', { level: 3 }).textContent).toBe('AlphaFI');
    expect(screen.getByRole('heading', { level: 2, name: /Next arrivals and departures/ })).toBeTruthy();
    expect(within(alpha).getByText('arriving')).toBeTruthy();
    expect(within(alpha).getByRole('link', { name: 'IMO 9074729' }).getAttribute('href')).toBe('/port-calls/11');
    // Only the ports that are known, each named: no placeholder dash for the missing "to".
    expect(alpha.textContent).toContain('From SESTO, → Next port DEHAM');
    expect(alpha.textContent).not.toContain('—');
    // The header's arrival and departure: the ETA of the port area (nothing reported for the berth) and the ETD.
    expect(alpha.querySelector('[data-arrival]')?.textContent).toMatch(
      /^ETA \d\d[./]\d\d[./]\d{4} \d\d:\d\d \(in 5 hr\.\)$/,
    );
    expect(alpha.querySelector('[data-departure]')?.textContent).toMatch(/^ETD /);
    expect(alpha.textContent).toContain('Estimated arrival');
    expect(screen.getByRole('button', { name: 'Unpin Charlie' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Pin Alpha' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByText('3 ongoing port calls')).toBeTruthy();
    expect(vi.mocked(useLiveRefresh)).toHaveBeenCalledWith(
      ['portcalls-changed', `portcalls-changed-${ADMIN.id}`],
      ['ongoing-port-calls'],
    );
  });

  it('splits the timeline at now, with human S-211 names, times, sources and new ones highlighted', async () => {
    stubOngoing(() => ({ portcalls: [ALPHA], pinned_vessels: [] }));
    renderView(<ActivityView />);
    const alpha = await screen.findByRole('article', { name: 'Alpha' });
    const rows = within(alpha).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('span')?.textContent)).toEqual([
      'Actual Arrival Vessel Traffic Area',
      'Estimated Arrival Vessel Port AreaNew',
      'Estimated Departure Vessel Berth',
    ]);
    expect(rows.map((row) => row.hasAttribute('data-past'))).toEqual([true, false, false]);
    expect(rows.map((row) => row.hasAttribute('data-fresh'))).toEqual([false, true, false]);
    expect(rows[0].textContent).toContain('2 hr. ago');
    expect(rows[0].textContent).toContain('AIS');
    expect(rows[1].textContent).toContain('in 5 hr.');
    // "Now" is between the past and the future rows.
    const now = alpha.querySelector('[data-now]')!;
    expect(now.textContent).toMatch(/^Now \d\d:\d\d$/);
    expect(rows[0].compareDocumentPosition(now) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(rows[1].compareDocumentPosition(now) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();
    // The parts of the port call are named.
    expect(alpha.textContent).toContain('Arriving: sea and port area');
    expect(alpha.textContent).toContain('At berth');

    // Placeholders of the template show only when asked for.
    expect(alpha.textContent).not.toContain('Recommended Arrival Vessel Port Area');
    const showAll = within(alpha).getByRole('button', { name: 'Show all' });
    fireEvent.click(showAll);
    expect(showAll.getAttribute('aria-expanded')).toBe('true');
    expect(alpha.textContent).toContain('Recommended Arrival Vessel Port Area · not reported');
  });

  it('filters the cards by name or IMO', async () => {
    stubOngoing(() => ({ portcalls: [ALPHA, BRAVO, CHARLIE], pinned_vessels: [] }));
    renderView(<ActivityView />);
    await waitFor(() => expect(cardNames()).toHaveLength(3));
    const search = screen.getByLabelText('Search vessels');
    fireEvent.change(search, { target: { value: 'bra' } });
    await waitFor(() => expect(cardNames()).toEqual(['Bravo']));
    expect(screen.getByText('1 of 3 port calls match')).toBeTruthy();
    fireEvent.change(search, { target: { value: '9176' } });
    await waitFor(() => expect(cardNames()).toEqual(['Charlie']));
    fireEvent.change(search, { target: { value: 'zulu' } });
    await screen.findByText('No vessel matches the search.');
  });

  it('pins a vessel by sending the whole list, and shows it first at once', async () => {
    let pinned: number[] = [9176187];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = stubOngoing(
      () => ({ portcalls: [ALPHA, BRAVO, CHARLIE], pinned_vessels: pinned }),
      async (call) => {
        await held;
        pinned = (call.body as { vessel_ids: number[] }).vessel_ids;
        return true;
      },
    );
    renderView(<ActivityView />);
    await waitFor(() => expect(cardNames()).toEqual(['Charlie', 'Alpha', 'Bravo']));
    fireEvent.click(screen.getByRole('button', { name: 'Pin Bravo' }));
    // Shown pinned while the change is on its way.
    await waitFor(() => expect(cardNames()).toEqual(['Charlie', 'Bravo', 'Alpha']));
    expect(screen.getByRole('button', { name: 'Unpin Bravo' }).getAttribute('aria-pressed')).toBe('true');
    release();
    const puts = () => calls.filter((call) => call.method === 'PUT');
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toMatchObject({ path: 'pinned-vessel-ids', body: { vessel_ids: [9176187, 9319466] } });
    // Then read again, and still in that order.
    await waitFor(() => expect(calls.filter((call) => call.path === 'ongoing-port-calls').length).toBe(2));
    expect(cardNames()).toEqual(['Charlie', 'Bravo', 'Alpha']);

    fireEvent.click(screen.getByRole('button', { name: 'Unpin Charlie' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1].body).toEqual({ vessel_ids: [9319466] });
    await waitFor(() => expect(cardNames()).toEqual(['Bravo', 'Alpha', 'Charlie']));
  });

  it('shows the API error in words when pinning is refused, and the pins as they were', async () => {
    stubOngoing(
      () => ({ portcalls: [ALPHA, BRAVO], pinned_vessels: [] }),
      () => apiError('Too many pinned vessels'),
    );
    renderView(<ActivityView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pin Bravo' }));
    await screen.findByText('Too many pinned vessels');
    expect(cardNames()).toEqual(['Alpha', 'Bravo']);
    expect(screen.getByRole('button', { name: 'Pin Bravo' })).toBeTruthy();
  });

  it('says when there are no ongoing port calls, and shows a load error in words', async () => {
    stubOngoing(() => ({ portcalls: [], pinned_vessels: [] }));
    const { unmount } = renderView(<ActivityView />);
    await screen.findByText(/No ongoing port calls/);
    unmount();
    stubApi(() => apiError('Invalid access', 403));
    renderView(<ActivityView />);
    expect(await screen.findByText('Invalid access')).toBeTruthy();
  });

  it('does not fail on unexpected data', async () => {
    stubOngoing(() => ({
      portcalls: [
        null,
        { ship: null },
        { ship: { id: 3, imo: 9074729, vessel_name: null, badges: null, next_event: {} }, portcalls: [{}] },
        { ship: { id: 4, vessel_name: 'No events' }, portcalls: [{ events: [{ id: 1, timestamps: null }] }] },
      ],
      pinned_vessels: null,
    }));
    renderView(<ActivityView />);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(4));
    expect(screen.getAllByRole('article', { name: 'Unnamed vessel' })).toHaveLength(3);
    // No IMO: nothing to pin.
    expect(screen.getAllByRole('button', { name: /^Pin / })).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'No events' }).textContent).toContain('No times reported yet.');
  });

  it('hides adding timestamps and the timesheet link from a user without the permissions', async () => {
    stubOngoing(() => ({ portcalls: [ALPHA], pinned_vessels: [] }));
    renderView(<ActivityView />, { user: { ...ADMIN, permissions: ['basic_user_action'] } });
    const alpha = await screen.findByRole('article', { name: 'Alpha' });
    expect(within(alpha).queryByRole('button', { name: /Add timestamp/ })).toBeNull();
    expect(within(alpha).queryByRole('link')).toBeNull();
    expect(alpha.textContent).toContain('IMO 9074729');
  });

  it('is hidden, and asks the API nothing, when the activity module is off', async () => {
    const calls = stubOngoing(() => ({ portcalls: [ALPHA], pinned_vessels: [] }));
    renderView(
      <SessionContext.Provider value={sessionOf(ADMIN, { activity_module: 'disabled' })}>
        <ActivityView />
      </SessionContext.Provider>,
    );
    expect(await screen.findByText('The activity timeline is switched off for this port.')).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('orders by the next movements with the vessels at berth grouped, or by the order the user chose, kept per user', async () => {
    const departing = {
      ship: ship(14, 9319478, 'Delta', { badges: [{ type: 'success', value: 'departing' }], status: 'departing' }),
      portcalls: events(
        [],
        [{ time_type: 'Planned', state: 'Departure_Vessel_Berth', time: iso(1), created_at: iso(-5), source: 'Port' }],
      ),
    };
    const atBerth = { ...CHARLIE, ship: { ...CHARLIE.ship, status: 'at berth' } };
    stubOngoing(() => ({ portcalls: [BRAVO, ALPHA, atBerth, departing], pinned_vessels: [] }));
    const { unmount } = renderView(<ActivityView />);
    // Delta leaves in an hour, Alpha arrives in five; Bravo has no time; Charlie is at berth.
    await waitFor(() => expect(cardNames()).toEqual(['Delta', 'Alpha', 'Bravo', 'Charlie']));
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Next arrivals and departures (3)',
      'At berth (1)',
    ]);
    const delta = screen.getByRole('article', { name: 'Delta' });
    expect(delta.querySelector('[data-departure]')?.textContent).toMatch(/^PTD /);
    fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'name' } });
    await waitFor(() => expect(cardNames()).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']));
    expect(localStorage.getItem(`pcas.activity.order.${ADMIN.id}`)).toBe('name');
    unmount();
    renderView(<ActivityView />);
    await waitFor(() => expect(cardNames()).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']));
  });

  it('shows the compact list, one row each, and a row opens its full card', async () => {
    stubOngoing(() => ({ portcalls: [ALPHA, BRAVO, CHARLIE], pinned_vessels: [] }));
    renderView(<ActivityView />);
    await waitFor(() => expect(cardNames()).toHaveLength(3));
    fireEvent.click(screen.getByLabelText('Compact'));
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(0));
    const rows = document.querySelectorAll('tr[data-row]');
    expect(rows).toHaveLength(3);
    const alpha = [...rows].find((row) => row.textContent?.startsWith('Alpha'))!;
    const cells = [...alpha.children].map((cell) => cell.textContent);
    expect(cells[0]).toBe('Alpha');
    expect(cells[1]).toBe('arriving');
    expect(cells[3]).toMatch(/^Estimated arrival in 5 hr\.$/);
    expect(cells[4]).toMatch(/^ETA \d\d[./]\d\d \d\d:\d\d$/);
    expect(cells[5]).toMatch(/^ETD /);
    expect(cells[6]).toMatch(/ago/);
    const open = within(alpha as HTMLElement).getByRole('button', { name: 'Alpha' });
    fireEvent.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByRole('article', { name: 'Alpha' })).toBeTruthy();
    expect(localStorage.getItem(`pcas.activity.layout.${ADMIN.id}`)).toBe('compact');
  });

  it('marks as new only what arrived since the user last looked', async () => {
    // The last look was after Alpha's newest timestamp arrived (a minute ago).
    localStorage.setItem(`pcas.activity.lastLook.${ADMIN.id}`, String(Date.now() - 30_000));
    stubOngoing(() => ({ portcalls: [ALPHA], pinned_vessels: [] }));
    renderView(<ActivityView />);
    const alpha = await screen.findByRole('article', { name: 'Alpha' });
    expect(alpha.querySelectorAll('[data-fresh], [data-new-count]')).toHaveLength(0);
    expect(alpha.textContent).not.toContain('New');
    // And this look is recorded for the next visit.
    expect(Number(localStorage.getItem(`pcas.activity.lastLook.${ADMIN.id}`))).toBeGreaterThan(Date.now() - 5_000);
  });
});
