import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, firstCall, openDialog, pageOf, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import FixedVesselsView, { bodyOf, numberProblem } from './fixed-vessels.tsx';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

const MANAGER = { ...ADMIN, permissions: [...ADMIN.permissions, 'manage_sea_chart_vessel'] };
const TYPES = [
  { id: 1, name: 'Unknown Vessel Type', sea_chart_marker_type_id: 1 },
  { id: 37, name: 'Tug', sea_chart_marker_type_id: 3 },
  { id: 41, name: 'Pilot Boat', sea_chart_marker_type_id: 3 },
];
const HECTOR = {
  id: 5,
  vessel_name: 'Hector',
  imo: null,
  mmsi: 230999000,
  vessel_type: 37,
  readable_type_name: 'Tug',
  created_by: 1,
};

function fixedVesselsApi(answer: (call: StubbedCall) => unknown = () => ({ result: 'OK' })) {
  return stubApi((call) => {
    if (call.method === 'GET' && call.path === 'vessel-types') return TYPES;
    if (call.method === 'GET' && call.path === 'sea-chart/fixed-vessels') {
      return pageOf([HECTOR]);
    }
    return answer(call);
  });
}

const renderFixedVessels = (user = MANAGER, module: 'enabled' | 'disabled' = 'enabled') =>
  renderView(<FixedVesselsView />, { path: '/admin/fixed-vessels', user, modules: { map_module: module } });

/** Types in the searchable type list and takes the first match by keyboard (jsdom runs no layout: hidden). */
async function chooseType(dialog: HTMLElement, typed: string, name: string) {
  const select = within(dialog).getByRole('combobox', { name: /Vessel type/ });
  await userEvent.type(select, typed);
  expect(await screen.findByRole('option', { name, hidden: true })).toBeTruthy();
  await userEvent.keyboard('{ArrowDown}{Enter}');
  expect((select as HTMLInputElement).value).toBe(name);
}

describe('fixed vessels admin', () => {
  it('lists the fixed vessels paged and sorted by name on the server, with their type in words', async () => {
    const calls = fixedVesselsApi();
    renderFixedVessels();
    const row = (await screen.findByText('Hector')).closest('tr')!;
    expect(row.textContent).toContain('Tug');
    expect(row.textContent).toContain('230999000');
    const list = calls.find((call) => call.path === 'sea-chart/fixed-vessels')!;
    expect(Object.fromEntries(list.query)).toEqual({ limit: '25', offset: '0', sort: 'vessel_name' });
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'hec' } });
    await waitFor(() =>
      expect(calls.some((call) => call.path === 'sea-chart/fixed-vessels' && call.query.get('search') === 'hec')).toBe(
        true,
      ),
    );
  });

  it('adds a fixed vessel with its type chosen from the list; an unknown number is left out', async () => {
    const calls = fixedVesselsApi();
    renderFixedVessels();
    await screen.findByText('Hector');
    const dialog = await openDialog('Add fixed vessel');
    const add = within(dialog).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Vessel name/ }), { target: { value: 'Pilot 7' } });
    await chooseType(dialog, 'pilot', 'Pilot Boat');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /MMSI/ }), { target: { value: '230777000' } });
    await userEvent.click(add);
    const post = await firstCall(calls, 'POST');
    expect(post.path).toBe('sea-chart/fixed-vessel');
    expect(post.body).toEqual({ vesselName: 'Pilot 7', vesselType: 41, mmsi: 230777000 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list (and the chart) asked again.
    await waitFor(() => expect(calls.filter((call) => call.path === 'sea-chart/fixed-vessels').length).toBe(2));
  });

  it("shows the API's business error in the dialog, which stays open", async () => {
    fixedVesselsApi((call) =>
      call.method === 'PUT' ? { result: 'ERROR', message: 'MMSI belongs to another vessel' } : undefined,
    );
    renderFixedVessels();
    await screen.findByText('Hector');
    const dialog = await openDialog('Edit Hector', 'Edit fixed vessel Hector');
    expect((within(dialog).getByRole('textbox', { name: /MMSI/ }) as HTMLInputElement).value).toBe('230999000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('MMSI belongs to another vessel');
    expect(screen.getByRole('dialog', { name: 'Edit fixed vessel Hector' })).toBeTruthy();
  });

  it('sends every key on an edit, null for an unknown number', async () => {
    const calls = fixedVesselsApi();
    renderFixedVessels();
    await screen.findByText('Hector');
    const dialog = await openDialog('Edit Hector', 'Edit fixed vessel Hector');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Vessel name/ }), { target: { value: 'Hector II' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await firstCall(calls, 'PUT')).body).toEqual({
      id: 5,
      vesselName: 'Hector II',
      vesselType: 37,
      imo: null,
      mmsi: 230999000,
    });
  });

  it('deletes after asking', async () => {
    const calls = fixedVesselsApi();
    renderFixedVessels();
    await screen.findByText('Hector');
    const dialog = await openDialog('Delete Hector', 'Delete fixed vessel Hector?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const removed = await firstCall(calls, 'DELETE');
    expect([removed.path, removed.body]).toEqual(['sea-chart/fixed-vessel', { id: 5 }]);
  });

  it('is not offered without the permission or the map module, and asks nothing', async () => {
    const calls = fixedVesselsApi();
    const { unmount } = renderFixedVessels(ADMIN);
    expect(screen.getByText('Your role does not allow managing fixed vessels')).toBeTruthy();
    unmount();
    renderFixedVessels(MANAGER, 'disabled');
    expect(screen.getByText('The sea chart is switched off')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
  });

  it('checks typed numbers before asking the API', () => {
    expect(numberProblem('', 7)).toBeNull();
    expect(numberProblem(' 9876543 ', 7)).toBeNull();
    expect(numberProblem('98x', 7)).toBe('Digits only');
    expect(numberProblem('12345678', 7)).toBe('At most 7 digits');
    expect(bodyOf({ vesselName: ' A ', vesselType: '1', imo: '', mmsi: '' })).toEqual({
      vesselName: 'A',
      vesselType: 1,
    });
  });
});
