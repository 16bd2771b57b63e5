// Settings the gateway seeds (shared/reference/original-app.md §12.1). Ids keep the original's listing order,
// since GET /settings returns `[{id, <name>: value}]` and the UI shows them in that order.

export interface SettingDef {
  id: number;
  name: string;
  value: string;
}

export const DEFAULT_SETTINGS: readonly SettingDef[] = [
  { id: 1, name: 'activity_module', value: 'enabled' },
  { id: 2, name: 'logistics_module', value: 'enabled' },
  { id: 3, name: 'queue_module', value: 'enabled' },
  { id: 4, name: 'map_module', value: 'enabled' },
  { id: 5, name: 'codeless_registration_module', value: 'disabled' },
  { id: 6, name: 'queue_travel_duration_to_berth', value: 'PT30M' },
  { id: 7, name: 'queue_rta_window_duration', value: 'PT30M' },
  { id: 8, name: 'queue_laytime_buffer_duration', value: 'PT30M' },
  { id: 9, name: 'queue_live_eta_alert_buffer_duration', value: 'PT1H' },
  { id: 10, name: 'queue_live_eta_alert_delay_duration', value: 'PT2H' },
  { id: 11, name: 'port_operator_emails', value: '' },
];
