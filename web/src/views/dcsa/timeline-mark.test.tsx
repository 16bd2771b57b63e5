// The activity timeline marks a timestamp that came through the DCSA bridge (payload `source: "dcsa"`,
// docs/dcsa.md#the-web-ui) with a "DCSA" badge whose title names the partner; other timestamps carry no mark.

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test/render.tsx';
import { ongoingPortCallsOf } from '../activity/model.ts';
import { PortCallCard } from '../activity/PortCallCard.tsx';

const NOW = Date.parse('2026-11-29T10:00:00Z');

const card = ongoingPortCallsOf({
  portcalls: [
    {
      ship: { id: 7, imo: 9704611, vessel_name: 'YM Wholesome', badges: [{ type: 'success', value: 'arriving' }] },
      portcalls: [
        {
          events: [
            {
              id: 1,
              location: 'sea',
              timestamps: [
                {
                  time_type: 'Estimated',
                  state: 'Arrival_Vessel_Berth',
                  time: '2026-11-29T14:00:00+00:00',
                  created_at: '2026-11-29T09:00:00+00:00',
                  source: 'Carrier key',
                  payload: { source: 'dcsa', dcsa_partner: 'Carrier', dcsa_classifier: 'EST' },
                },
                {
                  time_type: 'Estimated',
                  state: 'Arrival_Vessel_PortArea',
                  time: '2026-11-29T12:00:00+00:00',
                  created_at: '2026-11-29T09:00:00+00:00',
                  source: 'Port Agent',
                  payload: { source: 'agent' },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
}).cards[0];

describe('the DCSA mark on the activity timeline', () => {
  it('marks only the DCSA-sourced timestamp, with a title naming the partner', () => {
    const readOnly = {
      canAddTimestamp: false,
      canOpenPortCall: false,
      onTogglePin: () => {},
      onAddTimestamp: () => {},
    };
    renderView(<PortCallCard card={card} pinned={false} now={NOW} newSince={NOW} {...readOnly} />);
    const rows = within(screen.getByRole('article', { name: 'YM Wholesome' })).getAllByRole('listitem');
    const berth = rows.find((row) => row.textContent?.includes('Arrival Vessel Berth'))!;
    const portArea = rows.find((row) => row.textContent?.includes('Arrival Vessel Port Area'))!;
    const mark = within(berth).getByText('DCSA');
    expect(mark.getAttribute('title')).toBe('Exchanged through DCSA Just-in-Time Port Call with Carrier');
    expect(portArea.textContent).not.toContain('DCSA');
    expect(portArea.querySelector('[data-dcsa]')).toBeNull();
  });
});
