import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, apiError, firstCall, openDialog, pageOf, renderView, stubApi } from '../../test/render.tsx';
import NotificationsView from './index.tsx';
import { answeredBy, imoFrom, inTab, type Notification, vesselOf } from './model.ts';

// The real-time socket is not opened in jsdom; the view's live refresh is checked in the browser test.
vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

/**
 * A notification as the API lists it, sent by `email` on 22 November 2026 at `time` (UTC): about no vessel, with no
 * decision and no replies unless `fields` say so.
 */
const notification = (email: string, time: string, fields: Notification): Notification => ({
  created_at: `2026-11-22 ${time}:00+00`,
  sender: { email },
  ship_imo: null,
  ship: null,
  decision: null,
  children: null,
  ...fields,
});
/** The vessel a notification is about, as the API gives it: its IMO, and the vessel as the port knows it. */
const aboutVessel = (imo: number, vessel_name: string) => ({ ship_imo: imo, ship: { imo, vessel_name } });

const port = notification('harbour@port.test', '10:00', { id: 3, type: 'port', message: 'Port closes at noon' });
const ship = notification('agent@port.test', '09:00', {
  id: 2,
  type: 'ship',
  message: 'Pilot boards at 14',
  ...aboutVessel(9074729, 'Baltic Star'),
});
// What a deleted sender or an unknown vessel (and a careless server) may leave: no sender, no ship object.
const bare = { id: 1, type: 'ship', message: 'No sender here', ship_imo: 1234567, sender: null, ship: null };
const decision = notification('first@port.test', '08:00', {
  id: 10,
  type: 'port_call_decision',
  message: 'Ship is arriving',
  ...aboutVessel(1234567, 'Unikieship'),
  decision: {
    id: 7,
    status: 'open',
    notification_id: 10,
    port_call_master_id: 'decision1',
    decision_items: [
      {
        id: 71,
        label: 'Pilot',
        response_name: 'Accept',
        response_type: 'positive',
        response_options: { Accept: { type: 'positive' }, Reject: { type: 'negative' } },
      },
      {
        id: 72,
        label: 'Tugs',
        response_name: null,
        response_type: null,
        response_options: { Accept: { type: 'positive' }, Reject: { type: 'negative' } },
      },
    ],
  },
  children: [
    {
      id: 11,
      type: 'port_call_decision_response',
      message: 'Accept for Pilot at Ship is arriving',
      created_at: '2026-11-22 08:30:00+00',
      parent_notification_id: 10,
      sender: { email: 'second@port.test' },
      ...aboutVessel(1234567, 'Unikieship'),
    },
  ],
});

const LIST = [port, ship, bare, decision];

function answer(list: unknown = LIST) {
  return stubApi((call) => {
    if (call.method === 'GET' && call.path === 'notifications/100') return list;
    if (call.method === 'GET' && call.path === 'ongoing-port-calls') {
      return { portcalls: [{ ship: { imo: 9074729, vessel_name: 'Baltic Star' } }, { ship: null }, null] };
    }
    if (call.method === 'GET' && call.path === 'decisions') {
      return pageOf([decision.decision]);
    }
    if (call.method !== 'GET') return { result: 'OK' };
    return undefined;
  });
}

describe('the notification list', () => {
  it('shows each notification with its time, sender line, decision and replies, guarding missing fields', async () => {
    answer();
    renderView(<NotificationsView />, { path: '/notifications' });
    await screen.findByText('Port closes at noon');
    expect(screen.getByText('Sent by harbour@port.test (Port)')).toBeTruthy();
    expect(screen.getByText('Sent by agent@port.test (Baltic Star)')).toBeTruthy();
    expect(screen.getByText('Sent by unknown sender (IMO 1234567)')).toBeTruthy();
    // The time in the browser's zone, from PostgreSQL's text form.
    const times = document.querySelectorAll('time');
    expect(times[0]?.textContent).toMatch(/2026 \d\d:\d\d$/);
    // The decision's items, its answer and who gave it (from the reply), and the reply itself.
    const card = screen.getByRole('article', { name: 'Ship is arriving' });
    expect(within(card).getByText('Pilot')).toBeTruthy();
    expect(within(card).getByText('by second@port.test')).toBeTruthy();
    expect(within(card).getByText('Accept for Pilot at Ship is arriving')).toBeTruthy();
    expect(within(card).getByText('Replies (1)')).toBeTruthy();
  });

  it('filters by tab: Ship shows vessels (decisions too), Port only the port', async () => {
    answer();
    renderView(<NotificationsView />);
    await screen.findByText('Port closes at noon');
    expect(screen.getByRole('tab', { name: 'Ship (3)' })).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Port (1)' }));
    await screen.findByText('Port closes at noon');
    expect(screen.queryByText('Pilot boards at 14')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Ship (3)' }));
    await screen.findByText('Pilot boards at 14');
    expect(screen.queryByText('Port closes at noon')).toBeNull();
    expect(screen.getByText('Ship is arriving')).toBeTruthy();
  });

  it('shows the empty state, and survives a body that is not a list', async () => {
    answer({ unexpected: true });
    renderView(<NotificationsView />);
    expect(await screen.findByText('No notifications')).toBeTruthy();
  });

  it('shows the API error in words', async () => {
    stubApi(() => apiError('Invalid access', 403));
    renderView(<NotificationsView />);
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid access');
  });

  it('hides sending, answering and deleting from a user without the permissions', async () => {
    answer();
    renderView(<NotificationsView />, { user: { ...ADMIN, permissions: ['basic_user_action'] } });
    await screen.findByText('Port closes at noon');
    expect(screen.queryByRole('button', { name: 'Send port notification' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Accept: Tugs' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete notification' })).toBeNull();
  });
});

describe('sending', () => {
  it('posts a port notification with the message and an empty IMO', async () => {
    const calls = answer();
    renderView(<NotificationsView />);
    const dialog = await openDialog('Send port notification');
    await userEvent.type(within(dialog).getByLabelText(/Message/), 'Fog in the fairway');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    const post = await firstCall(calls, 'POST');
    expect(post).toMatchObject({
      path: 'notifications',
      body: { type: 'port', message: 'Fog in the fairway', ship_imo: '' },
    });
    // The list is read again after sending.
    await waitFor(() =>
      expect(calls.filter((call) => call.path === 'notifications/100').length).toBeGreaterThanOrEqual(2),
    );
  });

  it('posts a ship notification with the IMO picked among the ongoing port calls', async () => {
    const calls = answer();
    renderView(<NotificationsView />);
    const dialog = await openDialog('Send ship notification');
    const vessel = within(dialog).getByLabelText(/Vessel \(IMO\)/);
    await waitFor(() => expect(calls.some((call) => call.path === 'ongoing-port-calls')).toBe(true));
    await userEvent.type(vessel, '9074');
    await userEvent.click(await screen.findByRole('option', { name: '9074729 · Baltic Star', hidden: true }));
    expect((vessel as HTMLInputElement).value).toBe('9074729 · Baltic Star');
    await userEvent.type(within(dialog).getByLabelText(/Message/), 'Ready for pilot');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await firstCall(calls, 'POST')).body).toEqual({
      type: 'ship',
      message: 'Ready for pilot',
      ship_imo: '9074729',
    });
  });

  it('refuses a ship notification without an IMO, sending nothing', async () => {
    const calls = answer();
    renderView(<NotificationsView />);
    const dialog = await openDialog('Send ship notification');
    await userEvent.type(within(dialog).getByLabelText(/Message/), 'Which ship?');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Send' }).closest('form')!);
    expect(await within(dialog).findByText('Pick a vessel or type its IMO number')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('shows the API refusal in words', async () => {
    stubApi((call) => {
      if (call.method === 'GET') return [];
      return apiError("Message can't be empty");
    });
    renderView(<NotificationsView />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send port notification' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Message/), 'x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText("Message can't be empty")).toBeTruthy();
  });

  it('replies to a decision as a ship notification under it', async () => {
    const calls = answer();
    renderView(<NotificationsView />);
    const card = await screen.findByRole('article', { name: 'Ship is arriving' });
    await userEvent.click(within(card).getByRole('button', { name: 'Reply' }));
    await userEvent.type(within(card).getByRole('textbox', { name: /Reply/ }), 'Tugs ordered');
    await userEvent.click(within(card).getByRole('button', { name: 'Send reply' }));
    expect((await firstCall(calls, 'POST')).body).toEqual({
      type: 'ship',
      message: 'Tugs ordered',
      ship_imo: '1234567',
      parent_id: 10,
    });
  });
});

describe('decisions and deleting', () => {
  it('answers a decision item', async () => {
    const calls = answer();
    renderView(<NotificationsView />);
    const card = await screen.findByRole('article', { name: 'Ship is arriving' });
    expect(within(card).getByRole('button', { name: 'Accept: Pilot' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(within(card).getByRole('button', { name: 'Reject: Tugs' }));
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'decision-item-response',
      body: { id: 72, response: 'Reject' },
    });
  });

  it('deletes a notification after asking', async () => {
    const calls = answer();
    renderView(<NotificationsView />, {
      user: { ...ADMIN, permissions: [...ADMIN.permissions, 'delete_push_notification'] },
    });
    const card = await screen.findByRole('article', { name: 'Port closes at noon' });
    await userEvent.click(within(card).getByRole('button', { name: 'Delete notification' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this notification?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await firstCall(calls, 'DELETE')).path).toBe('notifications/3');
  });

  it('lists open decisions from the server and answers one there', async () => {
    const calls = answer();
    renderView(<NotificationsView />);
    await userEvent.click(await screen.findByRole('tab', { name: 'Decisions' }));
    const table = await screen.findByRole('table');
    await within(table).findByText('decision1');
    const listCall = calls.find((call) => call.path === 'decisions');
    expect(listCall?.query.get('status')).toBe('open');
    expect(listCall?.query.get('sort')).toBe('id DESC');
    expect(within(table).getByText('1 of 2')).toBeTruthy();
    await userEvent.click(within(table).getByRole('button', { name: 'Accept: Tugs' }));
    expect((await firstCall(calls, 'POST')).body).toEqual({ id: 72, response: 'Accept' });
  });
});

describe('the model', () => {
  it('reads IMOs, tabs, vessels and answerers defensively', () => {
    expect(imoFrom('9074729 · Baltic Star')).toBe('9074729');
    expect(imoFrom('IMO 1234567')).toBe('1234567');
    expect(imoFrom('Baltic Star')).toBeNull();
    expect(inTab({ type: 'port' }, 'ship')).toBe(false);
    expect(inTab({ type: 'port_call_decision', ship_imo: 1 }, 'ship')).toBe(true);
    expect(vesselOf({ type: 'port' })).toBeNull();
    expect(vesselOf({ type: 'ship', ship: { vessel_name: '  ' }, ship_imo: 5 })).toBe('IMO 5');
    expect(answeredBy({ id: 1, label: 'Pilot', response_name: 'Accept' }, { children: [null as never] })).toBeNull();
  });
});
