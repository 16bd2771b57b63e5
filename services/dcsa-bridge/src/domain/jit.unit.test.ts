// The standard's conditions on what a partner sends, and who may touch what: a repeated request decides nothing,
// an unknown object is a 404, an omitted or cancelled one a 409.

import { describe, expect, it } from 'vitest';
import { PC, portCallServiceBody, S, T, TC, timestampBody } from '../testing/jit-bodies.ts';
import {
  decideCancelService,
  decideOmitPortCall,
  decidePutPortCall,
  decidePutService,
  decidePutTerminalCall,
  decidePutTimestamp,
  type PortCallRow,
  type ServiceRow,
  type TerminalCallRow,
} from './jit.ts';

const portCallBody = { portCallID: PC, UNLocationCode: 'NLAMS', vessel: { vesselIMONumber: '9704611' } };
const portCall: PortCallRow = { port_call_id: PC, partner_id: 1, body: portCallBody, omitted: false, version: 1 };
const terminalCall: TerminalCallRow = {
  terminal_call_id: TC,
  port_call_id: PC,
  partner_id: 1,
  body: {},
  omitted: false,
  version: 1,
};
const serviceBody = portCallServiceBody('TOWAGE', 'STRT');
const service: ServiceRow = {
  service_id: S,
  terminal_call_id: TC,
  port_call_id: PC,
  partner_id: 1,
  body: serviceBody,
  cancelled: false,
  declined: false,
  version: 1,
};
const ts = timestampBody('EST', '2026-11-29T10:00:00Z');

describe('port calls', () => {
  it('a new one is an event; the same again (isFYI aside) is nothing', () => {
    expect(decidePutPortCall(1, PC, portCallBody, undefined).events).toHaveLength(1);
    const again = decidePutPortCall(1, PC, { ...portCallBody, isFYI: true }, portCall);
    expect(again).toEqual({ outcome: { status: 204 }, events: [] });
  });

  it('the body’s id must be the path’s; a vessel needs an IMO or MMSI number', () => {
    expect(decidePutPortCall(1, TC, portCallBody, undefined).outcome).toMatchObject({
      status: 400,
      errors: [{ property: 'portCallID' }],
    });
    expect(decidePutPortCall(1, PC, { ...portCallBody, vessel: { name: 'X' } }, undefined).outcome).toMatchObject({
      status: 400,
      errors: [{ property: 'vesselIMONumber' }],
    });
  });

  it('omitted: no more changes (409); omitting again is nothing; another partner’s is unknown (404)', () => {
    const omitted = { ...portCall, omitted: true };
    expect(decidePutPortCall(1, PC, { ...portCallBody, portVisitReference: 'X' }, omitted).outcome.status).toBe(409);
    expect(decideOmitPortCall(1, PC, {}, omitted).events).toEqual([]);
    expect(decideOmitPortCall(2, PC, {}, portCall).outcome.status).toBe(404);
    expect(decideOmitPortCall(1, PC, { reason: 'Engine' }, portCall).events[0].type).toBe('DcsaPortCallOmitted');
  });
});

describe('terminal calls and services', () => {
  it('need their parent (404), and not omitted (409)', () => {
    const body = { terminalCallID: TC, portCallID: PC, carrierServiceName: 'A', carrierServiceCode: 'B' };
    expect(decidePutTerminalCall(1, TC, body, undefined, undefined).outcome.status).toBe(404);
    expect(decidePutTerminalCall(1, TC, body, undefined, { ...portCall, omitted: true }).outcome.status).toBe(409);
    expect(decidePutTerminalCall(1, TC, body, undefined, portCall).events).toHaveLength(1);
    expect(decidePutService(1, S, serviceBody, undefined, undefined, undefined).outcome.status).toBe(404);
    expect(
      decidePutService(1, S, serviceBody, undefined, { ...terminalCall, omitted: true }, portCall).outcome.status,
    ).toBe(409);
  });

  it('an event type the service type does not take, or moves on another type, is a 400 naming it', () => {
    const wrong = { ...serviceBody, portCallServiceEventTypeCode: 'ARRI' };
    expect(decidePutService(1, S, wrong, undefined, terminalCall, portCall).outcome).toMatchObject({
      status: 400,
      errors: [{ property: 'portCallServiceEventTypeCode' }],
    });
    const moves = { ...serviceBody, moves: [{ totalUnits: 1 }] };
    expect(decidePutService(1, S, moves, undefined, terminalCall, portCall).outcome).toMatchObject({
      errors: [{ property: 'moves' }],
    });
  });

  it('cancelled: no more changes, no timestamps (409); cancelling again is nothing', () => {
    const cancelled = { ...service, cancelled: true };
    expect(decideCancelService(1, S, {}, service, portCall).events[0].type).toBe('DcsaPortCallServiceCancelled');
    expect(decideCancelService(1, S, {}, cancelled, portCall).events).toEqual([]);
    expect(decidePutService(1, S, serviceBody, cancelled, terminalCall, portCall).outcome.status).toBe(409);
    expect(decidePutTimestamp(1, T, ts, undefined, cancelled, portCall, undefined).outcome.status).toBe(409);
  });
});

describe('timestamps', () => {
  it('EST on a negotiable service is an event; the same again nothing', () => {
    const first = decidePutTimestamp(1, T, ts, undefined, service, portCall, undefined);
    expect(first.events[0]).toMatchObject({ type: 'DcsaTimestampReceived', data: { timestamp_id: T } });
    const stored = { timestamp_id: T, service_id: S, partner_id: 1, body: ts, version: 1 };
    expect(decidePutTimestamp(1, T, { ...ts, isFYI: false }, stored, service, portCall, undefined).events).toEqual([]);
  });

  it('E-R-P on an actual-only service, or a location on anything but a REQ, is a 400 naming it', () => {
    const allFast = { ...service, body: { ...serviceBody, portCallServiceType: 'ALL_FAST' } };
    expect(decidePutTimestamp(1, T, ts, undefined, allFast, portCall, undefined).outcome).toMatchObject({
      status: 400,
      errors: [{ property: 'classifierCode' }],
    });
    expect(
      decidePutTimestamp(1, T, { ...ts, classifierCode: 'ACT' }, undefined, allFast, portCall, undefined).events,
    ).toHaveLength(1);
    const located = { ...ts, portCallServiceLocation: { UNLocationCode: 'NLAMS' } };
    expect(decidePutTimestamp(1, T, located, undefined, service, portCall, undefined).outcome).toMatchObject({
      errors: [{ property: 'portCallServiceLocation' }],
    });
  });

  it('a reply names a timestamp of the same service', () => {
    const other = { timestamp_id: 'x', service_id: 'another', partner_id: 1, body: {}, version: 1 };
    const reply = { ...ts, replyToTimestampID: '2a3aea90-42f8-4c0e-98d7-f0f6892f4563' };
    expect(decidePutTimestamp(1, T, reply, undefined, service, portCall, other).outcome).toMatchObject({
      errors: [{ property: 'replyToTimestampID' }],
    });
  });

  it('another partner’s service is unknown to it', () => {
    expect(decidePutTimestamp(2, T, ts, undefined, service, portCall, undefined).outcome.status).toBe(404);
  });
});
