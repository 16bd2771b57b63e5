import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, renderView, SignedOut, stubApi } from '../account/test-support.tsx';
import JitEtaForm, { type SlotRequestView } from './jit-eta-form.tsx';
import RtaForm from './rta-form.tsx';

const offered: SlotRequestView = {
  id: 12,
  email: 'master@victor.example',
  imo: 9520027,
  vessel_name: 'Victor',
  slot_reservation_status: 'offered',
  readable_slot_reservation_status: 'Offered',
  rta_window_start: '2026-11-29 03:31:00+00',
  rta_window_end: '2026-11-29 04:01:00+00',
  jit_eta: null,
  laytime: '02:00',
  max_laytime: null,
  link_expires: '2026-12-27T07:00:00.000Z',
};

const refusal = (error: string) => apiError(error, 403);

function show(ui: React.ReactNode, path: string) {
  renderView(<SignedOut>{ui}</SignedOut>, { path });
}

describe('the JIT ETA form', () => {
  it('shows the offer and sends the JIT ETA within the RTA window with the link’s token', async () => {
    let current = offered;
    const calls = stubApi((call) => {
      if (call.method === 'PUT') {
        current = { ...offered, slot_reservation_status: 'accepted', readable_slot_reservation_status: 'Accepted' };
        return { result: 'OK' };
      }
      return current;
    });
    show(<JitEtaForm />, '/agent/eta-form/?token=the.link.token');
    expect(await screen.findByText('Offered')).toBeTruthy();
    expect(calls[0].query.get('token')).toBe('the.link.token');
    expect(screen.getByText('Victor (IMO 9520027)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send JIT ETA' }));
    expect(await screen.findByText('Accepted')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      token: 'the.link.token',
      laytime: '2:00',
      // The RTA window's start, proposed until the vessel picks another time.
      jit_eta: '2026-11-29T03:31:00+00:00',
    });
    expect(screen.getByRole('button', { name: 'Update JIT ETA' })).toBeTruthy();
  });

  it('refuses a JIT ETA outside the RTA window before sending', async () => {
    const calls = stubApi(() => offered);
    show(<JitEtaForm />, '/agent/eta-form/?token=t');
    const field = (await screen.findByLabelText(/JIT ETA to the outer port area/)) as HTMLInputElement;
    fireEvent.change(field, { target: { value: '2026-12-30T10:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send JIT ETA' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The JIT ETA must be within the RTA window.');
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('cancels after asking', async () => {
    const calls = stubApi((call) => (call.method === 'DELETE' ? { result: 'OK' } : offered));
    show(<JitEtaForm />, '/agent/eta-form/?token=t');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel slot request' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the slot request' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ token: 't' }));
  });

  it('says clearly when the link is forged or expired, and when it has no token', async () => {
    stubApi(() => refusal('This link is not valid'));
    show(<JitEtaForm />, '/agent/eta-form/?token=forged');
    expect((await screen.findByRole('alert')).textContent).toContain('This link is not valid');
    expect(screen.queryByRole('button', { name: 'Send JIT ETA' })).toBeNull();
  });

  it('an expired link', async () => {
    stubApi(() => refusal('This link has expired'));
    show(<JitEtaForm />, '/agent/eta-form/?token=old');
    expect((await screen.findByRole('alert')).textContent).toContain('This link has expired');
  });

  it('a link that no longer allows changes shows the request, the reason and no form', async () => {
    const reason = 'This link has been replaced by a newer one; use the link in the latest e-mail';
    const calls = stubApi(() => ({ ...offered, link_read_only: reason }));
    show(<JitEtaForm />, '/agent/eta-form/?token=older');
    expect((await screen.findByTestId('link-read-only')).textContent).toBe(reason);
    expect(screen.getByText('Victor (IMO 9520027)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send JIT ETA' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel slot request' })).toBeNull();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('no token', async () => {
    const calls = stubApi(() => offered);
    show(<JitEtaForm />, '/agent/eta-form/');
    expect((await screen.findByRole('alert')).textContent).toContain('This link is incomplete');
    expect(calls).toEqual([]);
  });
});

describe('the RTA form', () => {
  it('shows the port’s RTA from the link', async () => {
    stubApi(() => ({
      port: 'Gävle',
      rta: '2026-11-29T12:00:00+00:00',
      eta_min: '2026-11-29T11:30:00+00:00',
      eta_max: '2026-11-29T12:30:00+00:00',
      email: 'master@victor.example',
      imo: 9520027,
      vessel_name: 'Victor',
      vessel_loa: 120,
      vessel_beam: 20,
      vessel_draft: 7.5,
      berth: 'B1',
      expires: '2026-11-27T13:00:00.000Z',
    }));
    show(<RtaForm />, '/agent/eta-form/rta/?token=t');
    expect(await screen.findByText('Gävle')).toBeTruthy();
    expect(screen.getByText('Victor (IMO 9520027)')).toBeTruthy();
    expect(screen.getByText('120 / 20 / 7.5')).toBeTruthy();
  });

  it('a forged link', async () => {
    stubApi(() => refusal('This link is not valid'));
    show(<RtaForm />, '/agent/eta-form/rta/?token=x');
    expect((await screen.findByRole('alert')).textContent).toContain('This link is not valid');
  });
});
