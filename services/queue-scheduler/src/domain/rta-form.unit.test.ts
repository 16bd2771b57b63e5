// POST /rta-web-form's checks: the arriving port call, the first value it lacks, the times.

import { describe, expect, it } from 'vitest';
import { checkRtaForm, type RtaFormPortCall } from './rta-form.ts';

const ready: RtaFormPortCall = {
  id: 10,
  imo: 9074729,
  status: 'arriving',
  eta_form_email: 'master@ship.example',
  vessel_name: 'Ship One',
  loa: 120,
  beam: 20,
  draft: 7.5,
  berth: 'B1',
};
const input = {
  port: 'Gävle',
  imo: 9074729,
  rta: '2024-06-11T12:00:00.000Z',
  eta_min: '2024-06-11T11:30:00Z',
  eta_max: '2024-06-11T12:30:00+00:00',
};

describe('checkRtaForm', () => {
  it('takes the named arriving port call, times in UTC', () => {
    const other = { ...ready, id: 11 };
    expect(checkRtaForm({ ...input, port_call_id: 11 }, [ready, other])).toEqual({
      portCall: other,
      rta: '2024-06-11T12:00:00+00:00',
      eta_min: '2024-06-11T11:30:00+00:00',
      eta_max: '2024-06-11T12:30:00+00:00',
    });
    expect(checkRtaForm(input, [{ ...ready, id: 9, status: 'at berth' }, ready]).portCall.id).toBe(10);
  });

  it('names the first missing value, as the original', () => {
    for (const field of ['eta_form_email', 'vessel_name', 'loa', 'beam', 'draft', 'berth'] as const) {
      expect(() => checkRtaForm(input, [{ ...ready, [field]: null }])).toThrow(
        `Arriving status port call for given IMO 9074729 does not have required value ${field}`,
      );
    }
    expect(() => checkRtaForm(input, [{ ...ready, status: 'departed' }])).toThrow(
      'Cannot find arriving status port call for given IMO 9074729',
    );
    expect(() => checkRtaForm({ ...input, rta: 'tomorrow' }, [ready])).toThrow('Invalid RTA: tomorrow');
  });
});
