import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN, apiError, firstCall, openDialog, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import ApiKeysView from './api-keys.tsx';

const KEY = '1b395da3f7173926fbb8897da410e76217f34f3414075a98f2';

const PAGE = {
  data: [
    {
      id: 1,
      name: 'Pilot data',
      key: KEY,
      is_active: true,
      bound_user_id: 2,
      created_at: '2026-11-25 16:20:46+00',
      permissions: ['timestamp', 'export_api'],
    },
    // Unexpected data: no name, no key, no user.
    { id: 2, name: null, key: null, is_active: false, bound_user_id: null },
  ],
  pagination: { start: 0, limit: 25, total: 2 },
};

function answer(call: StubbedCall) {
  if (call.method === 'GET' && call.path === 'api-keys') return PAGE;
  if (call.method === 'POST' && call.path === 'api-keys') return { id: 3, name: 'Harbour master', key: 'f'.repeat(50) };
  if (call.method === 'PUT') return true;
  return undefined;
}

describe('the API keys view', () => {
  it('lists the keys sorted by name on the server, each key masked until shown', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<ApiKeysView />);
    await screen.findByText('Pilot data');
    const list = calls.find((call) => call.path === 'api-keys')!;
    expect(list.query.get('sort')).toBe('name');
    expect(list.query.get('limit')).toBe('25');
    expect(list.query.get('offset')).toBe('0');
    expect(screen.queryByText(KEY)).toBeNull();
    expect(screen.getByText(`••••••••${KEY.slice(-4)}`)).toBeTruthy();
    expect(screen.getByText('User 2')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Show the key of Pilot data' }));
    expect(screen.getByText(KEY)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide the key of Pilot data' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('switches a key off and on with PUT api-keys/disable and enable {id}', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<ApiKeysView />);
    await user.click(await screen.findByRole('switch', { name: 'Pilot data is active' }));
    expect(await firstCall(calls, 'PUT')).toMatchObject({ path: 'api-keys/disable', body: { id: 1 } });

    const second = screen.getAllByRole('switch').find((s) => !(s as HTMLInputElement).checked)!;
    await user.click(second);
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'PUT')[1]).toMatchObject({
      path: 'api-keys/enable',
      body: { id: 2 },
    });
  });

  it('adds a key by name and shows the new key to copy', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<ApiKeysView />);
    const dialog = await openDialog('Add API key');
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect((add as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByLabelText(/Name/), '  Harbour master ');
    await user.click(add);

    const shown = await screen.findByRole('dialog', { name: 'API key added' });
    expect(within(shown).getByText('f'.repeat(50))).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy the key' })).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post).toMatchObject({ path: 'api-keys', body: { name: 'Harbour master' } });
    // The list is read again, so the new key appears in it.
    await waitFor(() => expect(calls.filter((call) => call.method === 'GET').length).toBeGreaterThan(1));
  });

  it('gives a new key only the permissions chosen, and changes a key’s with PUT api-keys/permissions', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<ApiKeysView />);
    // A key of the original's kind (no list) may do everything; one with a list shows it in words.
    expect(await screen.findByText('Everything')).toBeTruthy();
    expect(
      screen.getByText('Post timestamps, live ETAs and slot requests; Export timestamps and port calls'),
    ).toBeTruthy();

    const dialog = await openDialog('Add API key');
    await user.type(within(dialog).getByLabelText(/Name/), 'Gate system');
    for (const label of [/Upload translations/, /Report stale push tokens/, /Export timestamps/, /vessel positions/]) {
      await user.click(within(dialog).getByLabelText(label));
    }
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByRole('dialog', { name: 'API key added' });
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      path: 'api-keys',
      body: { name: 'Gate system', permissions: ['timestamp'] },
    });
    await user.click(screen.getByRole('button', { name: 'Done' }));

    const change = await openDialog('Change what Pilot data may do', 'What Pilot data may do');
    await user.click(within(change).getByLabelText(/Post timestamps/));
    await user.click(within(change).getByLabelText(/Export timestamps/));
    // None chosen: nothing to save.
    expect((within(change).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(change).getByLabelText(/Upload translations/));
    await user.click(within(change).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.path === 'api-keys/permissions')).toBe(true));
    expect(calls.find((call) => call.path === 'api-keys/permissions')).toMatchObject({
      method: 'PUT',
      body: { id: 1, permissions: ['translation'] },
    });
  });

  it('shows the API’s refusal in words', async () => {
    stubApi((call) => (call.method === 'POST' ? apiError('Missing parameter: name') : answer(call)));
    const user = userEvent.setup();
    renderView(<ApiKeysView />);
    const dialog = await openDialog('Add API key');
    await user.type(within(dialog).getByLabelText(/Name/), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Missing parameter: name', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('tells a user without manage_api_key that the view is not theirs', () => {
    stubApi(answer);
    renderView(<ApiKeysView />, { user: { ...ADMIN, permissions: ['basic_user_action'] } });
    expect(screen.getByText('Managing API keys needs the permission manage_api_key.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add API key' })).toBeNull();
  });
});
