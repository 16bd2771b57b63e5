import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN, apiError, firstCall, openDialog, renderView, stubApi } from '../../test/render.tsx';
import { cleanLocodes, defaultWindow, findQuery, locodeProblem, rtaProblem, rtzStateWords } from './model.ts';
import { type RtaShip, SendRta } from './SendRta.tsx';

const SENDER = { ...ADMIN, permissions: [...ADMIN.permissions, 'send_vis_rta'] };
const SHIP: RtaShip = { id: 42, imo: 9074729, vessel_name: 'Aurora', is_vis: true, vis_service_id: 'urn:ship:aurora' };

const renderRta = (ship: RtaShip, user = SENDER, vis: 'enabled' | 'disabled' = 'enabled') =>
  renderView(<SendRta ship={ship} />, { path: '/port-calls/42', user, modules: { vis_module: vis } });

/** The dialog's datetime-local fields, by label. */
const field = (dialog: HTMLElement, label: RegExp) => within(dialog).getByLabelText(label) as HTMLInputElement;

describe('send RTA from a port call', () => {
  it('sends the RTA with a window of 30 minutes either side, to the port call’s VIS service', async () => {
    const calls = stubApi(() => ({ result: 'OK' }));
    renderRta(SHIP);
    const dialog = await openDialog('Send RTA', 'Send RTA to Aurora');
    expect((within(dialog).getByRole('textbox', { name: 'VIS service' }) as HTMLInputElement).value).toBe(
      'urn:ship:aurora',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send RTA' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Give the recommended time of arrival');
    fireEvent.change(field(dialog, /^RTA/), { target: { value: '2026-11-28T10:00' } });
    const rta = `${new Date('2026-11-28T10:00').toISOString().slice(0, 19)}+00:00`;
    const window = defaultWindow(rta)!;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send RTA' }));
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'vis-send-rta',
      body: { vis_service_id: 'urn:ship:aurora', rta, ...window, port_call_id: 42 },
    });
  });

  it('finds the VIS service by IMO when the port call names none, and shows a refusal in the dialog', async () => {
    const calls = stubApi((call) => {
      if (call.path === 'vis-vessels') {
        return { data: [{ id: 1, imo: 9074729, service_id: 'urn:ship:by-imo' }], pagination: { total: 1 } };
      }
      return apiError('Port call is not at arriving status');
    });
    renderRta({ ...SHIP, vis_service_id: null });
    const dialog = await openDialog('Send RTA', 'Send RTA to Aurora');
    await waitFor(() =>
      expect((within(dialog).getByRole('textbox', { name: 'VIS service' }) as HTMLInputElement).value).toBe(
        'urn:ship:by-imo',
      ),
    );
    expect(Object.fromEntries(calls[0].query)).toEqual({ imo: '9074729', limit: '1', offset: '0' });
    fireEvent.change(field(dialog, /^RTA/), { target: { value: '2026-11-28T10:00' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send RTA' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Port call is not at arriving status');
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ vis_service_id: 'urn:ship:by-imo' });
  });

  it('is not offered for a vessel without STM, without the permission, or with the VIS module off', () => {
    const calls = stubApi(() => undefined);
    for (const [ship, user, vis] of [
      [{ ...SHIP, is_vis: false }, SENDER, 'enabled'],
      [SHIP, ADMIN, 'enabled'],
      [SHIP, SENDER, 'disabled'],
    ] as const) {
      const { unmount } = renderRta(ship, user, vis);
      expect(screen.queryByRole('button', { name: 'Send RTA' })).toBeNull();
      unmount();
    }
    expect(calls).toEqual([]);
  });
});

describe('VIS model', () => {
  it.each([
    ['SYNC_WITH_ETA_FOUND', 'Waypoint near the port with an ETA'],
    ['RTA_SENT', 'RTA sent'],
    ['SOMETHING_NEW', 'something new'],
    [null, ''],
  ])('says the RTZ state %j in words: %j', (state, words) => {
    expect(rtzStateWords(state)).toBe(words);
  });

  it('checks an RTA window and UN/LOCODEs, and reads a find query', () => {
    expect(defaultWindow('2026-11-28T10:00:00+00:00')).toEqual({
      eta_min: '2026-11-28T09:30:00+00:00',
      eta_max: '2026-11-28T10:30:00+00:00',
    });
    expect(defaultWindow('')).toBeNull();
    expect(rtaProblem('2026-11-28T10:00:00+00:00', '2026-11-28T10:30:00+00:00', '2026-11-28T11:00:00+00:00')).toBe(
      'The RTA must lie between the earliest and the latest time',
    );
    expect(
      rtaProblem('2026-11-28T10:00:00+00:00', '2026-11-28T09:30:00+00:00', '2026-11-28T10:30:00+00:00'),
    ).toBeNull();
    expect(cleanLocodes([' firau', 'FIRAU', 'se gvx', ''])).toEqual(['FIRAU', 'SEGVX']);
    expect(locodeProblem('FIRAU')).toBeNull();
    expect(locodeProblem('FI-RA')).not.toBeNull();
    expect(locodeProblem('FIRA1')).not.toBeNull();
    expect(findQuery('9074729')).toEqual({ imo: 9074729 });
    expect(findQuery(' urn:mrn:x ')).toEqual({ service_id: 'urn:mrn:x' });
    expect(findQuery('  ')).toBeNull();
  });
});
