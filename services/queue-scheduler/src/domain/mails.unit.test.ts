// The queue's e-mails: subjects and headings per status, the port's texts over the English ones, times in the
// port's zone, HTML that cannot be broken by what a vessel typed.

import { isoInZone } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  atomInZone,
  berthBlockShiftedMail,
  liveEtaAlertMail,
  MAIL_TRANSLATION_KEYS,
  operatorEmails,
  rtaFormMail,
  slotRequestMail,
} from './mails.ts';

const none = () => undefined;
const base = {
  slot_request_id: 12,
  email: 'master@ship.example',
  link: 'http://port.example/agent/eta-form/?token=abc',
  linkExpires: Date.UTC(2024, 5, 11, 10, 30),
};

describe('the slot request mail', () => {
  it('has the original subject and heading per status, the link and its validity', () => {
    const cases = {
      offered: ['offer', 'Please send your JIT ETA to outer port area based on RTA window given by port.'],
      accepted: ['confirmation', 'Your JIT ETA to outer port area has been accepted.'],
      no_nomination: ['nomination not found', 'Port is unable to find nomination for your slot request.'],
      no_free_slot: ['free slot not available', 'Port is unable to find free slot for your request.'],
      updated: ['updated by port', 'Port has updated your JIT ETA.'],
      cancelled_by_vessel: ['cancellation confirmation', 'Your slot request has been cancelled by your request.'],
      cancelled_by_port: ['cancelled by port', 'Your slot request has been cancelled by port.'],
    } as const;
    for (const [status, [suffix, heading]] of Object.entries(cases)) {
      const mail = slotRequestMail({ ...base, status: status as keyof typeof cases }, none)!;
      expect(mail.subject).toBe(`Slot request #12 ${suffix}`);
      expect(mail.to).toEqual(['master@ship.example']);
      expect(mail.text).toContain(heading);
      expect(mail.text).toContain('To view and update your slot request please use the link below.');
      expect(mail.text).toContain(base.link);
      expect(mail.text).toContain('This link is valid until: 2024-06-11T10:30:00+00:00');
      expect(mail.html).toContain(`<a href="${base.link}">`);
    }
  });

  it('is not sent for requested and completed', () => {
    expect(slotRequestMail({ ...base, status: 'completed' }, none)).toBeNull();
    expect(slotRequestMail({ ...base, status: 'requested' }, none)).toBeNull();
  });

  it('uses the port’s texts where stored, with the validity in the port’s time zone', () => {
    const texts = new Map([
      ['[EMAIL SLOT REQUEST] Slot request', 'Slottipyyntö'],
      ['[EMAIL SLOT REQUEST] offer', 'tarjous'],
    ]);
    const mail = slotRequestMail({ ...base, status: 'offered' }, (k) => texts.get(k), 'Europe/Helsinki')!;
    expect(mail.subject).toBe('Slottipyyntö #12 tarjous');
    expect(mail.text).toContain('This link is valid until: 2024-06-11T13:30:00+03:00');
    expect(MAIL_TRANSLATION_KEYS).toContain('[EMAIL SLOT REQUEST] offer');
  });
});

describe('the port operators’ mails', () => {
  it('live ETA alert: vessel, IMO, JIT ETA and live ETA (or unknown) in the port’s zone', () => {
    const mail = liveEtaAlertMail(
      {
        to: ['ops@port.example'],
        vessel_name: 'Ship <One>',
        imo: 9074729,
        jit_eta: Date.UTC(2024, 0, 2, 10),
        live_eta: null,
      },
      none,
      'Europe/Stockholm',
    );
    expect(mail.subject).toBe('Live ETA alert for Ship <One>');
    expect(mail.text).toContain('Ship Ship <One> (IMO: 9074729) JIT ETA differs from Live ETA');
    expect(mail.text).toContain('JIT ETA: 2024-01-02T11:00:00+01:00');
    expect(mail.text).toContain('Live ETA: unknown');
    expect(mail.html).toContain('Ship &lt;One&gt;');
    expect(mail.html).not.toContain('<One>');
  });

  it('berth block shifted: code in the subject, name in the heading, the new times', () => {
    const mail = berthBlockShiftedMail(
      {
        to: ['ops@port.example'],
        berth_code: 'B1',
        berth_name: 'Berth One',
        berth_reservation_id: 7,
        start: Date.UTC(2024, 0, 2, 10),
        end: Date.UTC(2024, 0, 2, 12),
      },
      none,
    );
    expect(mail.subject).toBe('Berth B1 block #7 shifted');
    expect(mail.text).toContain('Berth Berth One block #7 has been shifted due to laytime change');
    expect(mail.text).toContain('New berth block time');
    expect(mail.text).toContain('2024-01-02T10:00:00+00:00 - 2024-01-02T12:00:00+00:00');
  });

  it('RTA form link: the original subject', () => {
    const mail = rtaFormMail(
      { email: 'a@b.example', link: 'http://x/agent/eta-form/rta/?token=t', linkExpires: 0 },
      none,
    );
    expect(mail.subject).toBe('Port Activity App / Link to RTA form');
    expect(mail.text).toContain('http://x/agent/eta-form/rta/?token=t');
  });

  it('port_operator_emails: space or comma separated, `empty` is none', () => {
    expect(operatorEmails('a@x.example, b@x.example c@x.example')).toEqual([
      'a@x.example',
      'b@x.example',
      'c@x.example',
    ]);
    expect(operatorEmails('empty')).toEqual([]);
    expect(operatorEmails(null)).toEqual([]);
  });
});

describe('atomInZone', () => {
  it('writes the offset of the zone at that instant, UTC for an unknown zone', () => {
    expect(atomInZone(Date.UTC(2024, 0, 15, 12), 'Europe/Helsinki')).toBe('2024-01-15T14:00:00+02:00');
    expect(atomInZone(Date.UTC(2024, 6, 15, 12), 'Europe/Helsinki')).toBe('2024-07-15T15:00:00+03:00');
    expect(atomInZone(Date.UTC(2024, 6, 15, 12), 'America/St_Johns')).toBe('2024-07-15T09:30:00-02:30');
    expect(atomInZone(Date.UTC(2024, 6, 15, 12), 'Nowhere/Else')).toBe('2024-07-15T12:00:00+00:00');
  });

  it('writes UTC (the default) as the zone rules write it', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const times = [
      Date.UTC(1000, 0, 1) - 1,
      Date.UTC(1000, 0, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59, 500),
      -1,
      0,
      Date.UTC(2026, 10, 27, 10, 0, 0, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1),
    ];
    for (let i = 0; i < 2_000; i++) times.push(Math.floor((random() - 0.3) * 2 ** 42));
    for (const ms of times) {
      expect(atomInZone(ms), String(ms)).toBe(isoInZone(ms, 'UTC'));
      expect(atomInZone(ms, 'UTC'), String(ms)).toBe(isoInZone(ms, 'UTC'));
    }
  });
});
