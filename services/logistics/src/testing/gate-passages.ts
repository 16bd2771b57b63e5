// Test support: a truck's gate passage as a gate system posts it (POST /agent/rest/logistics-timestamps), the one
// the logistics tests use at every level (domain, command, HTTP, browser). `over` replaces or adds fields, values of
// the wrong type included, to make the passage a test needs.

export const gatePassage = (over: Record<string, unknown> = {}) => ({
  time: '2026-11-25T12:00:00+02:00',
  external_id: 501,
  checkpoint: 'Gate 1',
  direction: 'In',
  front_license_plates: [{ number: 'ABC123', nationality: 'FI' }],
  rear_license_plates: [{ number: 'TRL77', nationality: 'FI' }],
  containers: [{ identification: 'MSCU1234567' }],
  ...over,
});
