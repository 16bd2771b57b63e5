// Test support: one port call as a partner sends it under DCSA JIT 2.0.0 (docs/dcsa.md#receiving): its ids, and
// the bodies of its Port Call Service and Timestamp, for the unit and int tests alike.

export const PC = '0342254a-5927-4856-b9c9-aa12e7c00563';
export const TC = 'c73cb5a7-de9a-439e-adb1-c72bdc2d3e0c';
export const S = '7992f6cb-3a5f-45c9-bf43-36e4f05e0bd4';
export const T = '05986866-1d62-4f84-bc10-3e1b0ddf6990';

/** The Port Call Service S on terminal call TC, at Amsterdam. */
export const portCallServiceBody = (portCallServiceType: string, portCallServiceEventTypeCode: string) => ({
  terminalCallID: TC,
  portCallServiceID: S,
  portCallServiceType,
  portCallServiceEventTypeCode,
  portCallServiceLocation: { UNLocationCode: 'NLAMS' },
});

/** The Timestamp T of service S. */
export const timestampBody = (classifierCode: string, dateTime: string) => ({
  timestampID: T,
  portCallServiceID: S,
  classifierCode,
  dateTime,
});
