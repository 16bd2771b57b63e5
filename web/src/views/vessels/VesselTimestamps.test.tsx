import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import { TimestampDetail } from './TimestampDetail.tsx';
import { VesselTimestamps } from './VesselTimestamps.tsx';

const page = (data: unknown[]) => ({ data, pagination: { start: 0, limit: 50, total: data.length } });

const ROWS = [
  {
    id: 39,
    port_call_id: 45,
    imo: 9074729,
    vessel_name: 'Aurora',
    time_type: 'Estimated',
    state: 'Arrival_Vessel_PortArea',
    time: '2026-11-25 17:21:31+00',
    payload: '{"source": "e2e", "external_id": "x-1"}',
    is_trash: 'f',
    created_by: 34,
    created_at: '2026-11-25 16:21:31.747+00',
  },
  {
    id: 40,
    port_call_id: null,
    imo: 9074729,
    vessel_name: 'Aurora',
    time_type: 'Actual',
    state: 'Arrival_Vessel_Berth',
    time: '2026-11-25 18:00:00+00',
    payload: 'not json {',
    is_trash: 't',
    created_by: null,
    created_at: null,
  },
  // What the view must survive: an unknown state, no payload, fields missing.
  { id: 41, port_call_id: 45, time_type: 'Estimated', state: 'No_Such_State', payload: null, is_trash: 'f' },
];

function answer(call: StubbedCall) {
  if (call.method === 'GET' && call.path === 'vessels') return page([{ imo: 9074729, vessel_name: 'Aurora' }]);
  if (call.method === 'GET' && call.path === 'timestamps') {
    const id = call.query.get('id');
    return page(id ? ROWS.filter((row) => String(row.id) === id) : ROWS);
  }
  if (call.path === 'timestamps' || call.path === 'restore-timestamp') return true;
  return undefined;
}

function renderTimestamps(path = '/vessels/9074729/timestamps') {
  return renderView(
    <Routes>
      <Route path="/vessels/:imo/timestamps" element={<VesselTimestamps />} />
      <Route path="/vessels/timestamps/:id" element={<TimestampDetail />} />
    </Routes>,
    { path },
  );
}

const rowOf = (id: number) => screen.getByRole('link', { name: `Show timestamp ${id}` }).closest('tr')!;

describe("a vessel's timestamps", () => {
  it('reads 50 a page of the vessel, newest first, and names the vessel', async () => {
    const calls = stubApi(answer);
    renderTimestamps();
    expect(await screen.findByRole('heading', { name: 'Timestamps of Aurora (IMO 9074729)' })).toBeTruthy();
    const list = calls.find((call) => call.path === 'timestamps')!;
    expect(Object.fromEntries(list.query)).toEqual({ imo: '9074729', limit: '50', offset: '0', sort: 'time DESC' });
  });

  it('shows human-readable names, the payload decoded, and Restore instead of Delete on deleted rows', async () => {
    stubApi(answer);
    renderTimestamps();
    await screen.findByRole('link', { name: 'Show timestamp 39' });

    const live = rowOf(39);
    expect(within(live).getByRole('link', { name: 'Port call 45' }).getAttribute('href')).toBe('/port-calls/45');
    expect(within(live).getByText('Estimated Arrival Vessel Port Area')).toBeTruthy();
    expect(within(live).getByText('source: e2e · external_id: x-1')).toBeTruthy();
    expect(within(live).getByText('User 34')).toBeTruthy();
    expect(within(live).getByText('Source: e2e')).toBeTruthy();
    expect(within(live).getByText('No')).toBeTruthy();
    expect(within(live).getByRole('button', { name: /^Delete timestamp 39/ })).toBeTruthy();
    expect(within(live).queryByRole('button', { name: /Restore/ })).toBeNull();

    const trashed = rowOf(40);
    expect(within(trashed).getByText('Yes')).toBeTruthy();
    expect(within(trashed).getByText('None')).toBeTruthy();
    // Text that is not JSON is shown as it is, not a crash.
    expect(within(trashed).getByText('not json {')).toBeTruthy();
    expect(within(trashed).getByRole('button', { name: /^Restore timestamp 40/ })).toBeTruthy();
    expect(within(trashed).queryByRole('button', { name: /Delete/ })).toBeNull();

    expect(within(rowOf(41)).getByText('Estimated No Such State')).toBeTruthy();
  });

  it('deletes a timestamp by id after asking, and restores a deleted one', async () => {
    const calls = stubApi(answer);
    renderTimestamps();
    await userEvent.click(await screen.findByRole('button', { name: /^Delete timestamp 39/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete timestamp 39?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => [call.path, call.body])).toEqual([
      ['timestamps', { id: 39 }],
    ]);
    expect(await screen.findByText('The timestamp was deleted')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: /^Restore timestamp 40/ }));
    await waitFor(() => expect(calls.some((call) => call.path === 'restore-timestamp')).toBe(true));
    const restore = calls.find((call) => call.path === 'restore-timestamp')!;
    expect([restore.method, restore.body]).toEqual(['POST', { id: 40 }]);
  });

  it('does not ask the API about a path that is not an IMO', async () => {
    const calls = stubApi(answer);
    renderTimestamps('/vessels/abc/timestamps');
    expect(await screen.findByText('This is not an IMO number')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows one timestamp as stored, its payload as JSON', async () => {
    const calls = stubApi(answer);
    renderTimestamps('/vessels/timestamps/39');
    expect(await screen.findByRole('heading', { name: 'Timestamp 39' })).toBeTruthy();
    expect(calls.find((call) => call.path === 'timestamps')!.query.get('id')).toBe('39');
    const json = await screen.findByText(/"external_id": "x-1"/);
    expect(json.textContent).toContain('"payload": {\n    "source": "e2e"');
    expect(screen.getByRole('link', { name: 'Port call 45' }).getAttribute('href')).toBe('/port-calls/45');
    expect(screen.getByRole('link', { name: 'Timestamps of this vessel' }).getAttribute('href')).toBe(
      '/vessels/9074729/timestamps',
    );
  });

  it('says so when the timestamp does not exist', async () => {
    stubApi(answer);
    renderTimestamps('/vessels/timestamps/7');
    expect(await screen.findByText('There is no such timestamp')).toBeTruthy();
  });
});
