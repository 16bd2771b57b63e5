import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatTime } from '../../components/time.ts';
import { useLiveRefresh } from '../../realtime/socket.ts';
import {
  ADMIN,
  apiError,
  firstCall,
  openDialog,
  pageOf,
  renderRoute,
  renderView,
  type StubbedCall,
  stubApi,
} from '../../test/render.tsx';
import InboundVesselsView from './inbound.tsx';
import VisArea from './index.tsx';
import PortsView from './ports.tsx';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

/** The paths a message on vis-changed refetches, as the views asked for them. */
const livePaths = () =>
  vi
    .mocked(useLiveRefresh)
    .mock.calls.filter(([channels]) => channels.includes('vis-changed'))
    .flatMap(([, paths]) => paths);

const SHIP = 'urn:mrn:stm:service:instance:test:aurora';
const HERE = 'urn:mrn:stm:service:instance:test:port';
const VIS_USER = {
  ...ADMIN,
  permissions: [...ADMIN.permissions, 'view_vis_information', 'send_vis_text_message', 'manage_port'],
};
const READER = { ...ADMIN, permissions: ['basic_user_action', 'view_vis_information'] };

const VESSEL = { id: 1, imo: 9074729, vessel_name: 'Aurora', service_id: SHIP, service_url: 'https://aurora.example' };
const MESSAGE = {
  id: 7,
  time: '2026-11-27 08:00:00+00',
  from_service_id: SHIP,
  to_service_id: HERE,
  from_name: 'Aurora',
  to_name: null,
  message_id: 'urn:mrn:stm:txt:1',
  author: 'Captain Ahab',
  subject: 'Arrival',
  body: 'We arrive at noon',
  ack: true,
  operational_ack: false,
};
const PLAN = {
  id: 3,
  time: '2026-11-27 09:00:00+00',
  from_service_id: SHIP,
  to_service_id: HERE,
  from_name: 'Aurora',
  message_id: 'urn:mrn:stm:voyage:id:1',
  rtz_state_name: 'SYNC_NOT_FOUND_CAN_BE_ADDED',
  route_name: 'Gävle–Rauma',
  eta: '2026-11-28T08:00:00+00:00',
  rta: '2026-11-28T09:00:00Z',
  eta_min: '2026-11-28T08:30:00Z',
  eta_max: '2026-11-28T09:30:00Z',
  rtz: '<route version="1.1"/>',
  ack: false,
};
const PORT = {
  id: 4,
  name: 'Port B',
  service_id: 'urn:mrn:stm:service:instance:test:port-b',
  locodes: ['FIRAU'],
  whitelist_in: true,
  whitelist_out: false,
};

function visApi(answer: (call: StubbedCall) => unknown = () => ({ result: 'OK' })) {
  return stubApi((call) => {
    if (call.method === 'GET') {
      if (call.path === 'vis-vessels') return pageOf([VESSEL]);
      if (call.path === 'vis-text-messages') return pageOf([MESSAGE]);
      if (call.path === 'vis-voyage-plans') return pageOf([PLAN]);
      if (call.path === 'vis-notifications') return pageOf([]);
      if (call.path === 'ports') return pageOf([PORT]);
      if (call.path === 'inbound-vessels') {
        return pageOf([
          {
            id: 2,
            time: '2026-11-27 12:00:00+00',
            imo: 9074729,
            vessel_name: 'Aurora',
            from_service_id: PORT.service_id,
            from_service_name: 'Port B',
          },
        ]);
      }
    }
    return answer(call);
  });
}

const renderArea = (path: string, user = VIS_USER, vis: 'enabled' | 'disabled' = 'enabled') =>
  renderRoute('vis/*', <VisArea />, { path, user, modules: { vis_module: vis } });

const queryOf = (calls: StubbedCall[], path: string) =>
  calls.filter((call) => call.path === path).map((call) => Object.fromEntries(call.query));

/** Types the subject and the text of the text message dialog and sends it. */
async function writeAndSend(dialog: HTMLElement, subject: string, text: string) {
  fireEvent.change(within(dialog).getByRole('textbox', { name: /Subject/ }), { target: { value: subject } });
  fireEvent.change(within(dialog).getByRole('textbox', { name: /Text/ }), { target: { value: text } });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
}

describe('STM / VIS views', () => {
  it('lists the VIS vessels sorted on the server, with links to their messages and plans', async () => {
    const calls = visApi();
    renderArea('/vis');
    const row = (await screen.findByText(SHIP)).closest('tr')!;
    expect(row.textContent).toContain('Aurora');
    expect(row.textContent).toContain('9074729');
    expect(queryOf(calls, 'vis-vessels')[0]).toEqual({ limit: '25', offset: '0', sort: 'lower(vessel_name)' });
    const texts = within(row).getByRole('link', { name: 'Text messages of Aurora' });
    expect(texts.getAttribute('href')).toBe(`/vis/text-messages?service=${encodeURIComponent(SHIP)}`);
    // First ascending (the default already), then descending.
    await userEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await userEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await waitFor(() =>
      expect(queryOf(calls, 'vis-vessels').some((q) => q.sort === 'lower(vessel_name) DESC')).toBe(true),
    );
    // The service's own actions do nothing by themselves: no poll on opening (the original polled on every visit).
    expect(calls.some((call) => call.path === 'vis-service-poll')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Poll VIS service' }));
    await waitFor(() => expect(calls.some((call) => call.path === 'vis-service-poll')).toBe(true));
  });

  it("shows a service's received text messages, then those sent to it, with author, subject, text and state", async () => {
    const calls = visApi();
    renderArea(`/vis/text-messages?service=${encodeURIComponent(SHIP)}`);
    const row = (await screen.findByText('We arrive at noon')).closest('tr')!;
    for (const text of ['Captain Ahab', 'Arrival', 'Aurora', 'Acknowledged', HERE])
      expect(row.textContent).toContain(text);
    expect(row.textContent).not.toContain('Not acknowledged');
    expect(queryOf(calls, 'vis-text-messages')[0]).toEqual({
      from_service_id: SHIP,
      limit: '25',
      offset: '0',
      sort: 'time DESC',
    });
    await userEvent.click(screen.getByRole('radio', { name: 'Sent to it' }));
    await waitFor(() =>
      expect(queryOf(calls, 'vis-text-messages').some((q) => q.to_service_id === SHIP && !q.from_service_id)).toBe(
        true,
      ),
    );
  });

  it('shows a voyage plan with its route, its state in words, ETA and RTA window, and its RTZ on request', async () => {
    visApi();
    renderArea('/vis/voyage-plans');
    const row = (await screen.findByText('Gävle–Rauma')).closest('tr')!;
    expect(row.textContent).toContain('No waypoint near the port; one can be added');
    expect(row.textContent).toContain('Not acknowledged');
    expect(row.textContent).toContain(formatTime(PLAN.eta));
    expect(row.textContent).toContain(`${formatTime(PLAN.eta_min)} to ${formatTime(PLAN.eta_max)}`);
    expect(screen.queryByText('<route version="1.1"/>')).toBeNull();
    const show = within(row).getByRole('button', { name: 'Show RTZ of Gävle–Rauma' });
    await userEvent.click(show);
    expect(await screen.findByText('<route version="1.1"/>')).toBeTruthy();
    expect(show.getAttribute('aria-expanded')).toBe('true');
  });

  it('sends a text message to a chosen VIS service', async () => {
    const calls = visApi();
    renderArea('/vis/text-messages');
    await screen.findByText('We arrive at noon');
    const dialog = await openDialog('Send text message');
    expect((within(dialog).getByRole('textbox', { name: /Author/ }) as HTMLInputElement).value).toBe('Ada Admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Choose the VIS service');
    const select = within(dialog).getByRole('combobox', { name: /VIS service/ });
    await userEvent.type(select, 'au');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await writeAndSend(dialog, 'Welcome', 'Berth 4 is ready');
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'vis-text-messages',
      body: { vis_service_id: SHIP, author: 'Ada Admin', subject: 'Welcome', body: 'Berth 4 is ready' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends a text message to a vessel by its IMO, in the user’s name', async () => {
    const calls = visApi();
    renderArea('/vis/text-messages');
    await screen.findByText('We arrive at noon');
    const dialog = await openDialog('Send text message');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'A vessel by IMO' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /IMO/ }), { target: { value: '9074729' } });
    await writeAndSend(dialog, 'Hi', 'Hello');
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'vis-text-messages-with-imo',
      body: { imo: 9074729, subject: 'Hi', body: 'Hello' },
    });
  });

  it("keeps the dialog open with the API's refusal in words", async () => {
    visApi((call) => (call.method === 'POST' ? apiError(`VIS service URL not found: ${SHIP}`) : undefined));
    renderArea('/vis');
    const row = (await screen.findByText(SHIP)).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Send text message to Aurora' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send text message to Aurora' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Subject/ }), { target: { value: 'Hi' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Text/ }), { target: { value: 'Hello' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(`VIS service URL not found: ${SHIP}`);
    expect(screen.getByRole('dialog', { name: 'Send text message to Aurora' })).toBeTruthy();
  });

  it('refetches every list on vis-changed, the service filter’s choices too', async () => {
    visApi();
    const pages: [string, string, string[]][] = [
      ['/vis', SHIP, ['vis-vessels']],
      ['/vis/text-messages', 'We arrive at noon', ['vis-text-messages', 'vis-vessels']],
      ['/vis/voyage-plans', 'Gävle–Rauma', ['vis-voyage-plans', 'vis-vessels']],
      ['/vis/notifications', 'No VIS notifications', ['vis-notifications']],
    ];
    for (const [path, shown, paths] of pages) {
      const view = renderArea(path);
      await screen.findByText(shown);
      expect(new Set(livePaths()), path).toEqual(new Set(paths));
      view.unmount();
      vi.mocked(useLiveRefresh).mockClear();
    }
  });

  it('offers no sending to a reader, and nothing at all with the module off or without the permission', async () => {
    const calls = visApi();
    const first = renderArea('/vis', READER);
    await screen.findByText(SHIP);
    expect(screen.queryByRole('button', { name: /Send text/ })).toBeNull();
    first.unmount();
    const off = renderArea('/vis', VIS_USER, 'disabled');
    expect(screen.getByText('STM / VIS is switched off')).toBeTruthy();
    off.unmount();
    const before = calls.length;
    renderArea('/vis', { ...ADMIN, permissions: ['basic_user_action'] });
    expect(screen.getByText('Your role does not allow reading VIS information')).toBeTruthy();
    expect(calls.length).toBe(before);
  });
});

describe('other ports and inbound vessels', () => {
  const renderPorts = (user = VIS_USER) =>
    renderView(<PortsView />, { path: '/ports', user, modules: { vis_module: 'enabled' } });

  it('switches a whitelist at once', async () => {
    const calls = visApi();
    renderPorts();
    const row = (await screen.findByText('Port B')).closest('tr')!;
    expect(row.textContent).toContain('FIRAU');
    const inbound = within(row).getByRole('switch', { name: 'Accept inbound vessels from Port B' }) as HTMLInputElement;
    const out = within(row).getByRole('switch', { name: 'Send our departures to Port B' }) as HTMLInputElement;
    expect([inbound.checked, out.checked]).toEqual([true, false]);
    await userEvent.click(inbound);
    await userEvent.click(out);
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST').length).toBe(2));
    expect(calls.filter((call) => call.method === 'POST').map((call) => [call.path, call.body])).toEqual([
      ['port-whitelist-in', { service_id: PORT.service_id, whitelist: false }],
      ['port-whitelist-out', { service_id: PORT.service_id, whitelist: true }],
    ]);
  });

  it('adds a port with its locodes cleaned up, and refuses a code that is no UN/LOCODE', async () => {
    const calls = visApi();
    renderPorts();
    await screen.findByText('Port B');
    const dialog = await openDialog('Add port');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Port/ }), { target: { value: 'Port C' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /VIS service id/ }), {
      target: { value: 'urn:mrn:stm:service:instance:test:port-c' },
    });
    const codes = within(dialog).getByLabelText(/UN\/LOCODEs/);
    await userEvent.type(codes, 'sehad{Enter}FI-X{Enter}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add port' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('FI-X');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    // Backspace in the empty box takes the last code away.
    await userEvent.type(codes, '{Backspace}');
    await userEvent.type(codes, 'SEGVX{Enter}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add port' }));
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'ports',
      body: { name: 'Port C', service_id: 'urn:mrn:stm:service:instance:test:port-c', locodes: ['SEHAD', 'SEGVX'] },
    });
  });

  it('refetches the ports and the inbound vessels on vis-changed', async () => {
    visApi();
    const ports = renderPorts();
    await screen.findByText('Port B');
    expect(new Set(livePaths())).toEqual(new Set(['ports']));
    ports.unmount();
    vi.mocked(useLiveRefresh).mockClear();
    renderView(<InboundVesselsView />, { path: '/inbound-vessels', modules: { vis_module: 'enabled' } });
    await screen.findByText('Port B');
    expect(new Set(livePaths())).toEqual(new Set(['inbound-vessels']));
  });

  it('is closed to a role without manage_port', () => {
    visApi();
    renderPorts(READER);
    expect(screen.getByText('Your role does not allow managing ports')).toBeTruthy();
  });

  it('lists inbound vessels newest first and searches on the server', async () => {
    const calls = visApi();
    renderView(<InboundVesselsView />, { path: '/inbound-vessels', modules: { vis_module: 'enabled' } });
    const row = (await screen.findByText('Port B')).closest('tr')!;
    expect(row.textContent).toContain('Aurora');
    expect(row.textContent).toContain(formatTime('2026-11-27 12:00:00+00'));
    expect(queryOf(calls, 'inbound-vessels')[0]).toEqual({ limit: '25', offset: '0', sort: 'time DESC' });
    fireEvent.change(screen.getByLabelText('Search by name or IMO'), { target: { value: '9074729' } });
    await waitFor(() => expect(queryOf(calls, 'inbound-vessels').some((q) => q.search === '9074729')).toBe(true));
  });
});
