import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, firstCall, openDialog, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import { MAX_PRIORITY_KEYS, PriorityEditor } from './PriorityEditor.tsx';
import PrioritiesView from './priorities.tsx';

const KEYS = [
  { id: 1, name: 'Pilots', is_active: true },
  { id: 2, name: 'Port system', is_active: true },
  { id: 3, name: 'Old feed', is_active: false },
  { id: 4, name: 'Agent A', is_active: true },
  { id: 5, name: 'Agent B', is_active: true },
  { id: 6, name: 'Agent C', is_active: true },
];

const TIMESTAMPS = {
  api_keys: KEYS,
  timestamps: [
    {
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      api_keys: [{ api_key_id: 2, api_key_name: 'Port system', weight: 1 }],
    },
    { time_type: 'Actual', state: 'Arrival_Vessel_Berth', api_keys: [] },
    // Unexpected data must not break the view.
    null,
    { time_type: 'Planned', state: 'Departure_Vessel_Berth', api_keys: null },
  ],
};

const PAYLOAD_KEYS = {
  api_keys: KEYS,
  payload_keys: [{ key: 'berth_name', api_keys: [{ api_key_id: 1, api_key_name: 'Pilots', weight: 1 }] }],
};

function answer(call: StubbedCall) {
  if (call.method === 'GET' && call.path === 'timestamp-api-key-weights') return TIMESTAMPS;
  if (call.method === 'GET' && call.path === 'payload-key-api-key-weights') return PAYLOAD_KEYS;
  if (call.method === 'POST') return { result: 'OK' };
  return undefined;
}

/** The editor alone, over KEYS, starting from `initial`; gives what it saves with. */
function editor(initial: number[], onSave = vi.fn()) {
  const fixed = { apiKeys: KEYS, emptyMeaning: 'Nobody may post', saving: false, onCancel: () => {} };
  renderView(<PriorityEditor {...fixed} initial={initial} onSave={onSave} />);
  return onSave;
}

const placesShown = () =>
  within(screen.getByRole('list', { name: 'Priority order' }))
    .getAllByRole('listitem')
    .map((item) =>
      item.textContent
        ?.replace(/^\d+Place \d+: /, '')
        .replace(/[↑↓×]/g, '')
        .replace(/Disabled$/, ''),
    );

describe('the priority editor', () => {
  it('adds keys in order, moves them with buttons and keeps the focus on the moved key', async () => {
    const user = userEvent.setup();
    const onSave = editor([2]);
    await user.selectOptions(screen.getByLabelText('Add an API key'), '1');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(placesShown()).toEqual(['Port system', 'Pilots']);

    const up = screen.getByRole('button', { name: 'Move Pilots up' });
    await user.click(up);
    expect(placesShown()).toEqual(['Pilots', 'Port system']);
    // At the top "up" no longer applies: the focus goes to the same key's "down".
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Pilots down' })));
    expect(screen.getByText('Pilots moved to place 1')).toBeTruthy();
    // The keyboard alone: Enter on the focused button moves the key back down.
    await user.keyboard('{Enter}');
    expect(placesShown()).toEqual(['Port system', 'Pilots']);

    await user.click(screen.getByRole('button', { name: 'Remove Port system' }));
    expect(placesShown()).toEqual(['Pilots']);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith([1]);
  });

  it('holds at most five keys', async () => {
    const user = userEvent.setup();
    const onSave = editor([1, 2, 3, 4]);
    const picker = screen.getByLabelText('Add an API key') as HTMLSelectElement;
    // A disabled key is offered too, marked as such.
    expect([...picker.options].map((o) => o.text)).toEqual(['Choose a key…', 'Agent B', 'Agent C']);
    await user.selectOptions(picker, '6');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(placesShown()).toHaveLength(MAX_PRIORITY_KEYS);
    expect(picker.disabled).toBe(true);
    expect(screen.getByText('The list is full: remove a key first.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith([1, 2, 3, 4, 6]);
  });

  it('never starts with more than five keys, and says what an empty list means', () => {
    editor([1, 2, 3, 4, 5, 6]);
    expect(placesShown()).toHaveLength(5);
    for (const remove of screen.getAllByRole('button', { name: /^Remove/ })) fireEvent.click(remove);
    expect(screen.queryByRole('list', { name: 'Priority order' })).toBeNull();
    expect(screen.getByText('Nobody may post')).toBeTruthy();
  });
});

describe('the priorities view', () => {
  it('lists the timestamps by their S-211 names and saves a new order with POST timestamp-api-key-weights', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<PrioritiesView />);
    const edit = await screen.findByRole('button', { name: 'Edit the priority of Estimated Arrival Vessel Port Area' });
    expect(screen.getAllByText('No source may post it')).toHaveLength(2);
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Priority of Estimated Arrival Vessel Port Area' });
    await user.selectOptions(within(dialog).getByLabelText('Add an API key'), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move Pilots up' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'timestamp-api-key-weights',
      body: { timestamp_time_type: 'Estimated', timestamp_state: 'Arrival_Vessel_PortArea', api_key_ids: [1, 2] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sets a payload key’s order with POST payload-key-api-key-weights', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<PrioritiesView />);
    await user.click(await screen.findByRole('tab', { name: 'Payload keys' }));
    expect(await screen.findByText('berth_name')).toBeTruthy();

    await user.type(screen.getByRole('combobox', { name: /^Payload key/ }), 'vessel_draft');
    const dialog = await openDialog('Set a priority', 'Priority of vessel_draft');
    await user.selectOptions(within(dialog).getByLabelText('Add an API key'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'payload-key-api-key-weights',
      body: { payload_key: 'vessel_draft', api_key_ids: [2] },
    });
  });

  it('keeps the dialog open and says why when the API refuses', async () => {
    stubApi((call) => (call.method === 'POST' ? apiError('Invalid api key ID: 9') : answer(call)));
    const user = userEvent.setup();
    renderView(<PrioritiesView />);
    await user.click(await screen.findByRole('button', { name: 'Edit the priority of Actual Arrival Vessel Berth' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Invalid api key ID: 9')).toBeTruthy();
  });
});
