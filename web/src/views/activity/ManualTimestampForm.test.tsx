import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, openDialog, posts, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import ActivityView from './index.tsx';
import { ManualTimestampForm } from './ManualTimestampForm.tsx';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

const DEFINITIONS = [
  { id: 2, name: 'Actual Arrival Vessel TrafficArea', time_type: 'Actual', state: 'Arrival_Vessel_TrafficArea' },
  { id: 6, name: 'Actual Pilotage Commenced', time_type: 'Actual', state: 'Pilotage_Commenced' },
  { id: 12, name: 'Actual Arrival Vessel Berth', time_type: 'Actual', state: 'Arrival_Vessel_Berth' },
];

/** What the API takes for a `datetime-local` value, in whatever zone the test runs. */
const utcOf = (local: string) => `${new Date(local).toISOString().slice(0, 19)}+00:00`;

function stub(post: (call: StubbedCall) => unknown = () => ({ result: 'OK' })): StubbedCall[] {
  return stubApi((call) => {
    if (call.path === 'timestamp-definitions') return DEFINITIONS;
    if (call.method === 'POST' && call.path === 'timestamps') return post(call);
    if (call.path === 'ongoing-port-calls') {
      return {
        portcalls: [
          {
            ship: { id: 11, imo: 9074729, vessel_name: 'Alpha', badges: [] },
            portcalls: [{ events: [{ id: 1, location: 'sea', timestamps: [] }] }],
          },
        ],
        pinned_vessels: [],
      };
    }
    return undefined;
  });
}

describe('adding a timestamp by hand', () => {
  it('offers the definitions by their S-211 names and posts the chosen one with the time in UTC', async () => {
    const calls = stub();
    const onDone = vi.fn();
    renderView(<ManualTimestampForm vessel={{ imo: 9074729, vessel_name: 'Alpha' }} onDone={onDone} />);
    const select = await screen.findByLabelText(/Timestamp/);
    const options = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual([
      'Choose…',
      'Actual Arrival Vessel Berth',
      'Actual Arrival Vessel Traffic Area',
      'Actual Pilotage Commenced',
    ]);
    fireEvent.change(select, { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText(/^Time(?!stamp)/), { target: { value: '2026-11-25T14:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add timestamp' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({
      path: 'timestamps',
      body: {
        imo: 9074729,
        vessel_name: 'Alpha',
        time_type: 'Actual',
        state: 'Arrival_Vessel_TrafficArea',
        time: utcOf('2026-11-25T14:30'),
        payload: {},
      },
    });
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(await screen.findByText('Timestamp added')).toBeTruthy();
  });

  it('asks for the direction of pilotage, which the timeline needs to place it', async () => {
    const calls = stub();
    renderView(<ManualTimestampForm vessel={{ imo: 9074729, vessel_name: 'Alpha' }} onDone={() => {}} />);
    fireEvent.change(await screen.findByLabelText(/Timestamp/), { target: { value: '6' } });
    fireEvent.click(screen.getByLabelText('Outbound'));
    fireEvent.click(screen.getByRole('button', { name: 'Add timestamp' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toMatchObject({
      time_type: 'Actual',
      state: 'Pilotage_Commenced',
      payload: { direction: 'outbound' },
    });
  });

  it('posts nothing until a timestamp and a time are given', async () => {
    const calls = stub();
    renderView(<ManualTimestampForm vessel={{ imo: 9074729, vessel_name: 'Alpha' }} onDone={() => {}} />);
    await screen.findByLabelText(/Timestamp/);
    fireEvent.change(screen.getByLabelText(/^Time(?!stamp)/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add timestamp' }));
    expect(await screen.findByText('Choose the timestamp')).toBeTruthy();
    expect(screen.getByText('Give the time')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('shows the API refusal in words and stays open', async () => {
    stub(() => apiError('Invalid time: too far in the future'));
    const onDone = vi.fn();
    renderView(<ManualTimestampForm vessel={{ imo: 9074729, vessel_name: 'Alpha' }} onDone={onDone} />);
    fireEvent.change(await screen.findByLabelText(/Timestamp/), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add timestamp' }));
    expect(await screen.findByText('Invalid time: too far in the future')).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('opens from a card for that vessel and closes when added', async () => {
    const calls = stub();
    renderView(<ActivityView />);
    const dialog = await openDialog('Add timestamp for Alpha', 'Add a timestamp for Alpha');
    fireEvent.change(await within(dialog).findByLabelText(/Timestamp/), { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add timestamp' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toMatchObject({ imo: 9074729, vessel_name: 'Alpha', state: 'Arrival_Vessel_Berth' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
