import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useApiQuery } from '../../api/queries.ts';
import { useChannels } from '../../realtime/socket.ts';
import { ADMIN, renderView, stubApi } from '../../test/render.tsx';
import NotificationPopups, { popupOf } from './popups.tsx';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

/** The handler the popups gave useChannels, and the channels it asked for. */
function subscribed() {
  const mocked = vi.mocked(useChannels);
  const [channels, handler] = mocked.mock.calls.at(-1)!;
  return { channels, send: (data: unknown, channel = 'notifications-changed') => act(() => handler(data, channel)) };
}

/** A page that shows the list, so that a refresh can be seen as a second GET. */
function ListReader() {
  useApiQuery('notifications/100');
  return null;
}

describe('notification popups', () => {
  it('listen on the shared channel and the user’s own', () => {
    stubApi(() => []);
    renderView(<NotificationPopups />);
    expect(subscribed().channels).toEqual(['notifications-changed', `notifications-changed-${ADMIN.id}`]);
  });

  it('pop up "<sender>: <message>" with the vessel, and refresh the list', async () => {
    const calls = stubApi(() => []);
    renderView(
      <>
        <NotificationPopups />
        <ListReader />
      </>,
    );
    await waitFor(() => expect(calls.filter((call) => call.path === 'notifications/100')).toHaveLength(1));
    subscribed().send({
      type: 'ship',
      message: 'Pilot boards at 14',
      sender: { email: 'agent@port.test' },
      ship: { vessel_name: 'Baltic Star' },
      ship_imo: 9074729,
    });
    expect(await screen.findByText('agent@port.test: Pilot boards at 14')).toBeTruthy();
    expect(screen.getByText('Baltic Star')).toBeTruthy();
    await waitFor(() => expect(calls.filter((call) => call.path === 'notifications/100')).toHaveLength(2));
  });

  it('do not pop up the user’s own notification', async () => {
    stubApi(() => []);
    renderView(<NotificationPopups />);
    subscribed().send({ type: 'port', message: 'Mine', sender: { email: ADMIN.email } });
    subscribed().send({ type: 'port', message: 'Theirs', sender: { email: 'other@port.test' } });
    await screen.findByText('other@port.test: Theirs');
    expect(screen.queryByText(/Mine/)).toBeNull();
  });

  it('survive payloads without a sender or without anything', async () => {
    stubApi(() => []);
    renderView(<NotificationPopups />);
    const { send } = subscribed();
    send(null);
    send([]);
    send('text');
    send({ sender: null, ship: null });
    send({ message: 'No sender at all', ship: null }, `notifications-changed-${ADMIN.id}`);
    expect(await screen.findByText('No sender at all')).toBeTruthy();
    expect(popupOf({ message: 42, sender: { email: 7 } }, ADMIN.email)).toEqual({ message: '42' });
    expect(popupOf({ message: 'x', sender: { email: 'ADMIN@port.local' } }, ADMIN.email)).toBeNull();
  });
});
