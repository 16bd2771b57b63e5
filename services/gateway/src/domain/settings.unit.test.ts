import { isApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, PUBLIC_SETTINGS, settingValueToStore } from './settings.ts';

/** The 400 message a value gets, or the stored value when accepted. */
function outcome(name: string, value: string): string {
  try {
    return `ok:${settingValueToStore(name, value)}`;
  } catch (error) {
    if (!isApiError(error)) throw error;
    return `${error.status}:${error.message}`;
  }
}

describe('settings', () => {
  it("seeds the original's eleven settings in its order with their defaults, then the port's own", () => {
    expect(DEFAULT_SETTINGS.map((s) => [s.id, s.name, s.value])).toEqual([
      [1, 'activity_module', 'enabled'],
      [2, 'logistics_module', 'enabled'],
      [3, 'queue_module', 'enabled'],
      [4, 'map_module', 'enabled'],
      [5, 'codeless_registration_module', 'disabled'],
      [6, 'queue_travel_duration_to_berth', 'PT30M'],
      [7, 'queue_rta_window_duration', 'PT30M'],
      [8, 'queue_laytime_buffer_duration', 'PT30M'],
      [9, 'queue_live_eta_alert_buffer_duration', 'PT1H'],
      [10, 'queue_live_eta_alert_delay_duration', 'PT2H'],
      [11, 'port_operator_emails', ''],
      [12, 'realtime_anonymous', 'signals'],
      [13, 'vis_module', 'enabled'],
      [14, 'queue_max_laytime_duration', 'PT72H'],
    ]);
    expect(PUBLIC_SETTINGS).toEqual(['codeless_registration_module']);
  });

  it('rejects an unknown name before looking at the value', () => {
    expect(outcome('dark_mode', 'enabled')).toBe('400:Invalid setting name: dark_mode');
    expect(outcome('Activity_module', 'enabled')).toBe('400:Invalid setting name: Activity_module');
  });

  it.each([
    ['activity_module', 'disabled', 'disabled'],
    ['map_module', 'enabled', 'enabled'],
    ['realtime_anonymous', 'off', 'off'],
    ['realtime_anonymous', 'signals', 'signals'],
    ['realtime_anonymous', 'legacy', 'legacy'],
    ['codeless_registration_module', 'enabled', 'enabled'],
    ['queue_rta_window_duration', 'PT1H30M', 'PT1H30M'],
    ['queue_laytime_buffer_duration', 'P1D', 'P1D'],
    ['queue_max_laytime_duration', 'PT48H', 'PT48H'],
    ['port_operator_emails', 'ops@port.fi,duty@port.fi', 'ops@port.fi,duty@port.fi'],
    ['port_operator_emails', 'ops@port.fi duty@port.fi', 'ops@port.fi duty@port.fi'],
    ['port_operator_emails', 'empty', ''],
  ])('accepts %s = %s, stored as %s', (name, value, stored) => {
    expect(outcome(name, value)).toBe(`ok:${stored}`);
  });

  it.each([
    ['realtime_anonymous', 'enabled'],
    ['queue_module', 'on'],
    ['logistics_module', 'Enabled'],
    ['logistics_module', 'empty'],
    ['codeless_registration_module', 'yes'],
    ['queue_max_laytime_duration', '72:00'],
    ['queue_live_eta_alert_delay_duration', '30'],
    ['queue_travel_duration_to_berth', 'empty'],
    ['port_operator_emails', 'ops@port.fi,nobody'],
    ['port_operator_emails', ','],
  ])('refuses %s = %s', (name, value) => {
    expect(outcome(name, value)).toBe(`400:Invalid value: ${value} for setting: ${name}`);
  });
});
