import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { formatTime, localInputToUtc } from '../../components/time.ts';
import { useLiveRefresh } from '../../realtime/socket.ts';
import {
  ADMIN,
  apiError,
  openDialog,
  pageOf,
  renderRoute,
  renderView,
  type StubbedCall,
  stubApi,
} from '../../test/render.tsx';
import QueueArea from './index.tsx';
import { QueueLanding } from './landing.tsx';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

const QUEUE_PERMISSIONS = [
  'view_queue_slot_reservation',
  'manage_queue_slot_reservation',
  'view_berth_reservation',
  'manage_berth_reservation',
  'view_all_queue_nomination',
  'manage_all_queue_nomination',
  'view_own_queue_nomination',
  'manage_own_queue_nomination',
  'view_berth',
  'manage_berth',
];
const PORT = { ...ADMIN, permissions: [...ADMIN.permissions, ...QUEUE_PERMISSIONS] };
const CONSIGNEE = {
  ...ADMIN,
  id: 7,
  role: 'consignee',
  permissions: ['login', 'view_own_queue_nomination', 'manage_own_queue_nomination'],
};

const NORTH = { id: 1, code: 'B1', name: 'North quay', nominatable: true };
const SOUTH = { id: 2, code: 'B2', name: 'South quay', nominatable: true };
const SLOT = {
  id: 31,
  nomination_id: 4,
  berth_id: 1,
  email: 'master@victor.example',
  imo: 9520027,
  vessel_name: 'Victor',
  loa: 120.5,
  beam: 20,
  draft: 7.5,
  laytime: 'PT2H30M',
  eta: '2030-01-10 03:00:00+00',
  rta_window_start: '2030-01-10 03:00:00+00',
  rta_window_end: '2030-01-10 03:30:00+00',
  jit_eta: '2030-01-10 03:10:00+00',
  slot_reservation_status: 'accepted',
  readable_slot_reservation_status: 'Accepted',
  berth_name: 'North quay',
  jit_eta_alert_state: 'orange',
  live_eta: '2030-01-10 05:00:00+00',
  ptd: '2030-01-10 07:00:00+00',
  vessel_nationality: 'FI',
};
const OPEN_NOMINATION = {
  id: 4,
  company_name: 'Cargo Oy',
  email: 'carla@cargo.example',
  imo: 9520027,
  vessel_name: 'Victor',
  nomination_status: 'open',
  readable_nomination_status: 'Open',
  window_start: '2030-01-10 00:00:00+00',
  window_end: '2030-01-10 12:00:00+00',
  berth_ids: [1, 2],
  berth_names: ['North quay', 'South quay'],
  owner_first_name: 'Carla',
  owner_last_name: 'Consignee',
};

/** A port with two berths, one accepted slot request, one open nomination; `more` answers first. */
function queueApi(more: (call: StubbedCall) => unknown = () => undefined) {
  return stubApi((call) => {
    const answer = more(call);
    if (answer !== undefined) return answer;
    if (call.method !== 'GET') return { result: 'OK' };
    switch (call.path) {
      case 'dashboard-slot-reservations':
      case 'slot-reservations':
        return pageOf([SLOT]);
      case 'slot-reservation-by-id':
        return { ...SLOT, laytime: '02:30', max_laytime: '05:00' };
      case 'berths':
        return pageOf([NORTH, SOUTH]);
      case 'all-nominatable-berths':
        return [NORTH, SOUTH];
      case 'nominations':
      case 'own-nominations':
        return pageOf([
          OPEN_NOMINATION,
          {
            ...OPEN_NOMINATION,
            id: 5,
            vessel_name: 'Reserved One',
            nomination_status: 'reserved',
            readable_nomination_status: 'Reserved',
          },
        ]);
      case 'consignee-users':
        return [{ id: 7, name: 'Consignee, Carla' }];
      case 'berth-reservations':
        return pageOf([
          {
            id: 11,
            berth_id: 1,
            berth_reservation_type: 'vessel_reserved',
            readable_berth_reservation_type: 'Reserved for vessel',
            reservation_start: new Date(Date.now() + 3_600_000).toISOString(),
            reservation_end: new Date(Date.now() + 4 * 3_600_000).toISOString(),
            slot_reservation_id: 31,
            vessel_name: 'Victor',
          },
          {
            id: 12,
            berth_id: 1,
            berth_reservation_type: 'port_blocked',
            readable_berth_reservation_type: 'Blocked by port',
            reservation_start: new Date(Date.now() + 26 * 3_600_000).toISOString(),
            reservation_end: new Date(Date.now() + 30 * 3_600_000).toISOString(),
            slot_reservation_id: null,
            vessel_name: null,
          },
        ]);
      default:
        return undefined;
    }
  });
}

const renderQueue = (path: string, user = PORT, module: 'enabled' | 'disabled' = 'enabled') =>
  renderRoute('/queue/*', <QueueArea />, { path, user, modules: { queue_module: module } });

const sent = (calls: StubbedCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);

/** Clicks the button, then the confirming one in the dialog that asks. */
async function confirm(button: HTMLElement, answer: string) {
  fireEvent.click(button);
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: answer }));
}

describe('the queue dashboard', () => {
  it('lists slot requests in RTA order with the JIT ETA, live ETA and the alert in words, live', async () => {
    const calls = queueApi();
    renderQueue('/queue/dashboard');
    const row = (await screen.findByRole('link', { name: 'Victor' })).closest('tr')!;
    expect(row.textContent).toContain('Late');
    expect(row.textContent).toContain('North quay');
    expect(row.textContent).toContain('2 h 30 min');
    expect(row.textContent).toContain('IMO 9520027 · FI');
    // The window's end without its day when it is the same day.
    expect(within(row).getAllByRole('cell')[1].textContent).toBe(
      `${formatTime('2030-01-10 03:00:00+00')} – ${formatTime('2030-01-10 03:30:00+00').split(' ')[1]}`,
    );
    expect(sent(calls, 'GET', 'dashboard-slot-reservations')[0].query.get('sort')).toBe('rta_window_start');
    expect(vi.mocked(useLiveRefresh)).toHaveBeenCalledWith(
      ['queue-portcalls-changed'],
      ['dashboard-slot-reservations'],
    );
  });

  it('opens the first page the role allows, and says so when the module is off', async () => {
    queueApi();
    renderQueue('/queue', { ...ADMIN, permissions: ['view_berth'] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Berths' })).toBeTruthy();
    renderQueue('/queue/dashboard', PORT, 'disabled');
    expect(await screen.findByText('The just-in-time queue is switched off.')).toBeTruthy();
  });
});

describe('a consignee', () => {
  const app = (
    <Routes>
      <Route
        index
        element={
          <QueueLanding>
            <h1>Activity timeline</h1>
          </QueueLanding>
        }
      />
      <Route path="/queue/*" element={<QueueArea />} />
    </Routes>
  );

  it('lands on their own nominations, where the port’s staff land on the timeline', async () => {
    queueApi();
    renderView(app, { path: '/', user: CONSIGNEE, modules: { queue_module: 'enabled' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'My nominations' })).toBeTruthy();
    renderView(app, { path: '/', user: PORT, modules: { queue_module: 'enabled' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity timeline' })).toBeTruthy();
  });
});

describe('nominations', () => {
  it('makes a nomination for a consignee with the berths reordered by keyboard', async () => {
    const calls = queueApi();
    renderQueue('/queue/nominations');
    await screen.findAllByText('Consignee, Carla');
    // Only an open nomination can be changed.
    expect(screen.getByRole('button', { name: 'Edit nomination of Victor' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit nomination of Reserved One' })).toBeNull();

    const dialog = await openDialog('Add nomination', 'Add nomination for a consignee');
    await within(dialog).findByRole('option', { name: 'Consignee, Carla' });
    fireEvent.change(within(dialog).getByLabelText(/Consignee/), { target: { value: '7' } });
    fireEvent.change(within(dialog).getByLabelText(/Vessel name/), { target: { value: 'Victor' } });
    fireEvent.change(within(dialog).getByLabelText(/IMO/), { target: { value: '9520027' } });
    fireEvent.change(within(dialog).getByLabelText(/Company/), { target: { value: 'Cargo Oy' } });
    fireEvent.change(within(dialog).getByLabelText(/E-mail/), { target: { value: 'carla@cargo.example' } });
    fireEvent.change(within(dialog).getByLabelText(/Window start/), { target: { value: '2030-01-10T00:00' } });
    fireEvent.change(within(dialog).getByLabelText(/Window end/), { target: { value: '2030-01-10T12:00' } });
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    for (const id of ['1', '2']) {
      fireEvent.change(within(dialog).getByLabelText('Add a berth'), { target: { value: id } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add berth' }));
    }
    const up = within(dialog).getByRole('button', { name: 'Move South quay up' });
    up.focus();
    fireEvent.click(up);
    const items = within(within(dialog).getByRole('list', { name: 'Berths in priority order' })).getAllByRole(
      'listitem',
    );
    expect(items.map((item) => item.textContent?.slice(0, 10))).toEqual(['South quay', 'North quay']);
    expect(within(dialog).getByRole('status').textContent).toBe('South quay is now priority 1');
    // The moved berth keeps the focus (its up button is disabled at the top, so its down button has it).
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Move South quay down' })),
    );

    fireEvent.click(add);
    await waitFor(() => expect(sent(calls, 'POST', 'nomination-for-consignee')).toHaveLength(1));
    expect(sent(calls, 'POST', 'nomination-for-consignee')[0].body).toEqual({
      consignee_user_id: 7,
      company_name: 'Cargo Oy',
      email: 'carla@cargo.example',
      imo: 9520027,
      vessel_name: 'Victor',
      window_start: localInputToUtc('2030-01-10T00:00'),
      window_end: localInputToUtc('2030-01-10T12:00'),
      berth_ids: [2, 1],
    });
    // Many steps of typing: more time than the project's default on a busy machine.
  }, 40_000);

  it('edits a consignee’s own nomination and shows the API’s refusal in the dialog', async () => {
    const calls = queueApi((call) =>
      call.method === 'PUT' ? apiError('Window start must be after current date') : undefined,
    );
    renderQueue('/queue/my-nominations', CONSIGNEE);
    const dialog = await openDialog('Edit nomination of Victor');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Window start must be after current date');
    expect(sent(calls, 'PUT', 'own-nominations')[0].body).toEqual({
      id: 4,
      company_name: 'Cargo Oy',
      email: 'carla@cargo.example',
      imo: 9520027,
      vessel_name: 'Victor',
      window_start: '2030-01-10T00:00:00+00:00',
      window_end: '2030-01-10T12:00:00+00:00',
      berth_ids: [1, 2],
    });
    expect(sent(calls, 'GET', 'all-nominatable-berths')).toHaveLength(1);
  });
});

describe('berths and the berth calendar', () => {
  it('adds a berth that consignees may nominate', async () => {
    const calls = queueApi();
    renderQueue('/queue/berths');
    await screen.findByText('North quay');
    const dialog = await openDialog('Add berth');
    fireEvent.change(within(dialog).getByLabelText(/Code/), { target: { value: ' B3 ' } });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'East quay' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(sent(calls, 'POST', 'berths')).toHaveLength(1));
    expect(sent(calls, 'POST', 'berths')[0].body).toEqual({ code: 'B3', name: 'East quay', nominatable: true });
  });

  it('draws the berth’s week and adds, moves and deletes a port block', async () => {
    const calls = queueApi();
    renderQueue('/queue/berth-calendar?berth=1');
    const timeline = await screen.findByRole('region', { name: 'Time line of North quay' });
    await within(timeline).findByText('Victor (vessel slot)');
    expect(within(timeline).getAllByRole('listitem')).toHaveLength(2);
    expect(sent(calls, 'GET', 'berth-reservations').every((call) => call.query.get('berth_id') === '1')).toBe(true);

    let dialog = await openDialog('Add port block', 'Add port block on North quay');
    fireEvent.change(within(dialog).getByLabelText(/Block start/), { target: { value: '2030-01-11T08:00' } });
    fireEvent.change(within(dialog).getByLabelText(/Block end/), { target: { value: '2030-01-11T10:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(sent(calls, 'POST', 'berth-reservations')).toHaveLength(1));
    expect(sent(calls, 'POST', 'berth-reservations')[0].body).toEqual({
      berth_id: 1,
      berth_reservation_type: 'port_blocked',
      reservation_start: localInputToUtc('2030-01-11T08:00'),
      reservation_end: localInputToUtc('2030-01-11T10:00'),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The block's bar opens its move dialog; only the block is offered for moving.
    fireEvent.click(within(timeline).getByRole('button', { name: /^Blocked by port, .*: move$/ }));
    dialog = await screen.findByRole('dialog', { name: 'Move port block on North quay' });
    fireEvent.change(within(dialog).getByLabelText(/Block end/), { target: { value: '2030-01-12T10:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(sent(calls, 'PUT', 'berth-reservations')).toHaveLength(1));
    expect(sent(calls, 'PUT', 'berth-reservations')[0].body).toMatchObject({
      id: 12,
      reservation_end: localInputToUtc('2030-01-12T10:00'),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getAllByRole('button', { name: /^Move the block/ })).toHaveLength(1);

    await confirm(screen.getByRole('button', { name: /^Delete the block from/ }), 'Delete');
    await waitFor(() => expect(sent(calls, 'DELETE', 'berth-reservations')).toHaveLength(1));
    expect(sent(calls, 'DELETE', 'berth-reservations')[0].body).toEqual({ id: 12 });
  });
});

describe('slot requests', () => {
  it('shows one request and lets the port change its laytime or cancel it', async () => {
    const calls = queueApi();
    renderQueue('/queue/slot-requests/31');
    expect(await screen.findByRole('heading', { level: 1, name: 'Slot request #31: Victor' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Longest laytime the berth allows/ }).textContent).toContain('5 h');
    expect(screen.getByRole('row', { name: /Arrival alert/ }).textContent).toContain('Late');

    const dialog = await openDialog('Change', 'Change slot request #31');
    fireEvent.change(within(dialog).getByLabelText('Laytime hours'), { target: { value: '4' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent(calls, 'PUT', 'slot-reservations')).toHaveLength(1));
    // The RTA window did not move, so it is not sent (a sent one makes the request "updated by port").
    expect(sent(calls, 'PUT', 'slot-reservations')[0].body).toEqual({
      id: 31,
      laytime: 'PT4H30M',
      jit_eta: '2030-01-10T03:10:00+00:00',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await confirm(screen.getByRole('button', { name: 'Cancel slot request #31' }), 'Cancel the slot request');
    await waitFor(() => expect(sent(calls, 'DELETE', 'slot-reservations')).toHaveLength(1));
    expect(sent(calls, 'DELETE', 'slot-reservations')[0].body).toEqual({ id: 31, cancel_only: true, by_vessel: false });
  });
});
