import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, apiError, openDialog, pageOf, renderView, stubApi } from '../../test/render.tsx';
import { VesselList } from './VesselList.tsx';

const VESSELS = [
  { id: 1, imo: 9074729, vessel_name: 'Aurora', visible: true, vessel_type: 4 },
  { id: 2, imo: 9321483, vessel_name: 'Borealis', visible: false, vessel_type: 999 },
];

/** An administrator as seeded: manage_vessel too. */
const VESSEL_ADMIN = { ...ADMIN, permissions: [...ADMIN.permissions, 'manage_vessel'] };

const TYPES = [
  { id: 1, name: 'Unknown Vessel Type', sea_chart_marker_type_id: 1 },
  { id: 4, name: 'Container Ship', sea_chart_marker_type_id: 5 },
  { id: 41, name: 'Pilot Boat', sea_chart_marker_type_id: 3 },
  { id: 42, name: 'Supply Vessel', sea_chart_marker_type_id: 3 },
];

function answer(call: { method: string; path: string }) {
  if (call.method === 'GET' && call.path === 'vessels') return pageOf(VESSELS);
  if (call.method === 'GET' && call.path === 'vessel-types') return TYPES;
  if (call.method === 'PUT' && call.path === 'vessel') return { result: 'OK' };
  if (call.path === 'vessel-visibility' || call.path === 'timestamps-to-port-calls') return { result: 'OK' };
  return undefined;
}

describe('the vessel list', () => {
  // Notifications are one store for the whole file, shown at most a few at a time: each test starts with none.
  beforeEach(() => notifications.clean());

  it('asks the server for a page sorted by name and shows type names and visibility', async () => {
    const calls = stubApi(answer);
    renderView(<VesselList />);
    expect(await screen.findByText('Aurora')).toBeTruthy();
    const list = calls.find((call) => call.path === 'vessels')!;
    expect(list.query.get('sort')).toBe('lower(vessel_name)');
    expect(list.query.get('limit')).toBe('25');
    const aurora = screen.getByText('Aurora').closest('tr')!;
    expect(within(aurora).getByText('Container Ship')).toBeTruthy();
    expect(within(aurora).getByText('Shown')).toBeTruthy();
    const borealis = screen.getByText('Borealis').closest('tr')!;
    expect(within(borealis).getByText('Type 999')).toBeTruthy();
    expect(within(borealis).getByText('Hidden')).toBeTruthy();
  });

  it('hides a shown vessel and shows a hidden one with the IMO and the new visibility', async () => {
    const calls = stubApi(answer);
    renderView(<VesselList />);
    await userEvent.click(await screen.findByRole('button', { name: 'Hide Aurora from the timeline' }));
    await waitFor(() => expect(calls.some((call) => call.path === 'vessel-visibility')).toBe(true));
    expect(calls.filter((call) => call.path === 'vessel-visibility').map((call) => [call.method, call.body])).toEqual([
      ['POST', { imo: 9074729, visible: false }],
    ]);
    // The list is read again after the change.
    await waitFor(() => expect(calls.filter((call) => call.path === 'vessels').length).toBeGreaterThan(1));

    await userEvent.click(screen.getByRole('button', { name: 'Show Borealis on the timeline' }));
    await waitFor(() => expect(calls.filter((call) => call.path === 'vessel-visibility')).toHaveLength(2));
    expect(calls.filter((call) => call.path === 'vessel-visibility')[1].body).toEqual({ imo: 9321483, visible: true });
  });

  it('attaches orphan timestamps by IMO and links to the timestamps', async () => {
    const calls = stubApi(answer);
    renderView(<VesselList />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Attach orphans of Borealis to their port calls' }),
    );
    await waitFor(() => expect(calls.some((call) => call.path === 'timestamps-to-port-calls')).toBe(true));
    const attach = calls.find((call) => call.path === 'timestamps-to-port-calls')!;
    expect(attach.method).toBe('GET');
    expect(attach.query.get('imo')).toBe('9321483');
    expect(await screen.findByText('Orphan timestamps were attached where they fit')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Timestamps of Aurora' }).getAttribute('href')).toBe('/9074729/timestamps');
  });

  it('shows the API refusal in words', async () => {
    stubApi((call) => (call.path === 'vessel-visibility' ? apiError('Vessel not found') : answer(call)));
    renderView(<VesselList />);
    await userEvent.click(await screen.findByRole('button', { name: 'Hide Aurora from the timeline' }));
    expect(await screen.findByText('Vessel not found')).toBeTruthy();
  });

  it('changes a vessel type through a searchable list, by keyboard, as PUT vessel {id, vesselType}', async () => {
    const calls = stubApi(answer);
    renderView(<VesselList />, { user: VESSEL_ADMIN });
    const button = await screen.findByRole('button', { name: 'Change vessel type of Aurora' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Change vessel type of Aurora' });
    const select = within(dialog).getByLabelText('Vessel type');
    // The current type is chosen at first; typing filters the list (jsdom runs no layout: the dropdown counts as
    // hidden).
    expect((select as HTMLInputElement).value).toBe('Container Ship');
    await userEvent.clear(select);
    await userEvent.type(select, 'pilot');
    expect(await screen.findByRole('option', { name: 'Pilot Boat', hidden: true })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Supply Vessel', hidden: true })).toBeNull();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect((select as HTMLInputElement).value).toBe('Pilot Boat');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.path === 'vessel')).toBe(true));
    expect(calls.filter((call) => call.path === 'vessel').map((call) => [call.method, call.body])).toEqual([
      ['PUT', { id: 1, vesselType: 41 }],
    ]);
    expect(await screen.findByText('The vessel type was changed')).toBeTruthy();
    // The list is read again after the change.
    await waitFor(() => expect(calls.filter((call) => call.path === 'vessels').length).toBeGreaterThan(1));
  });

  it('shows the refusal of a type change in words and keeps the dialog open', async () => {
    const calls = stubApi((call) => (call.path === 'vessel' ? apiError('Invalid vessel type') : answer(call)));
    renderView(<VesselList />, { user: VESSEL_ADMIN });
    const dialog = await openDialog('Change vessel type of Borealis');
    // Its type (999) is none the list has: nothing is chosen, so nothing can be saved yet.
    expect(within(dialog).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Vessel type'), 'Supply');
    expect(await screen.findByRole('option', { name: 'Supply Vessel', hidden: true })).toBeTruthy();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === 'vessel').map((call) => call.body)).toEqual([
        { id: 2, vesselType: 42 },
      ]),
    );
    expect(await screen.findByText('Invalid vessel type')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Change vessel type of Borealis' })).toBeTruthy();
  });

  it('offers the type change to whoever manages vessels, and only to them', async () => {
    stubApi(answer);
    const typesOnly = renderView(<VesselList />, {
      user: { ...ADMIN, permissions: ['basic_user_action', 'manage_vessel'] },
    });
    expect(await screen.findByRole('button', { name: 'Change vessel type of Aurora' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Hide/ })).toBeNull();
    typesOnly.unmount();

    renderView(<VesselList />, { user: { ...ADMIN, permissions: ['basic_user_action', 'manage_port_call'] } });
    expect(await screen.findByRole('button', { name: 'Hide Aurora from the timeline' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Change vessel type/ })).toBeNull();
  });

  it('offers no actions to a user who does not manage port calls', async () => {
    stubApi(answer);
    renderView(<VesselList />, { user: { ...ADMIN, permissions: ['basic_user_action'] } });
    expect(await screen.findByText('Aurora')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Hide/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Change vessel type/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });

  it('shows an empty list and a failed one in words', async () => {
    stubApi((call) => (call.path === 'vessels' ? apiError('Database unavailable', 500) : undefined));
    const failed = renderView(<VesselList />);
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
    failed.unmount();
    vi.unstubAllGlobals();

    stubApi((call) => (call.path === 'vessels' ? pageOf([]) : undefined));
    renderView(<VesselList />);
    expect(await screen.findByText('No vessels match')).toBeTruthy();
  });
});
