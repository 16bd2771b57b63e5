import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderView, stubApi } from '../../test/render.tsx';
import DcsaView from './index.tsx';
import { isDcsaSourced, parseImos } from './model.ts';

const PARTNER = {
  id: 1,
  name: 'Carrier',
  api_key_id: 4,
  base_url: 'https://carrier.example/jit',
  vessel_imos: [9704611],
  active: true,
  has_credentials: true,
  pending: 1,
  refused: 2,
  delivered: 3,
};
const REFUSED = {
  id: 9,
  partner_id: 1,
  partner_name: 'Carrier',
  method: 'PUT',
  path: '/v2/timestamps/abc',
  status: 'refused',
  attempts: 1,
  last_error: '400 bad',
  created_at: '2026-11-29T10:00:00Z',
  delivered_at: null,
};
const REQ = {
  timestamp_id: 'req-1',
  direction: 'in',
  classifier: 'REQ',
  date_time: '2026-11-29T12:00:00Z',
  imo: 9704611,
  vessel_name: 'YM WHOLESOME',
  time_type: 'Required',
  state: 'Arrival_Vessel_Berth',
  s211_status: 'posted',
  s211_error: null,
  service_type: 'BERTH',
  event_type: 'ARRI',
  cancelled: false,
  partner_name: 'Carrier',
};

describe('the DCSA view', () => {
  it('shows the partners, the outbox and the timestamps; answers a REQ with a PLN', async () => {
    const calls = stubApi((call) => {
      if (call.path === 'dcsa-partners') return { data: [PARTNER] };
      if (call.path === 'dcsa-outbox') return { data: [REFUSED] };
      if (call.path === 'dcsa-timestamps') return { data: [REQ] };
      if (call.path === 'dcsa-timestamps/req-1/plan') return { timestamp_id: 'pln-1' };
      return undefined;
    });
    renderView(<DcsaView />, { path: '/dcsa' });
    expect(await screen.findByText('https://carrier.example/jit')).toBeTruthy();
    expect(screen.getByText('1 pending, 2 refused, 3 delivered')).toBeTruthy();
    expect(await screen.findByText('PUT /v2/timestamps/abc')).toBeTruthy();
    expect(await screen.findByText('Required Arrival_Vessel_Berth')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Answer with PLN' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'dcsa-timestamps/req-1/plan')).toBe(true));
    const sent = calls.find((c) => c.path === 'dcsa-timestamps/req-1/plan')!;
    expect(sent.method).toBe('POST');
    expect(typeof (sent.body as { date_time: string }).date_time).toBe('string');
  });
});

describe('what the view reads', () => {
  it('tells a DCSA-sourced timeline timestamp by its payload', () => {
    expect(isDcsaSourced({ source: 'dcsa' })).toBe(true);
    expect(isDcsaSourced('{"source":"dcsa"}')).toBe(true);
    expect(isDcsaSourced({ source: 'agent' })).toBe(false);
    expect(isDcsaSourced('not json')).toBe(false);
  });

  it('reads IMO numbers typed with commas or blanks', () => {
    expect(parseImos('9704611, 9619907 9074729')).toEqual({ imos: [9704611, 9619907, 9074729] });
    expect(parseImos('97046')).toEqual({ problem: '97046' });
  });
});
