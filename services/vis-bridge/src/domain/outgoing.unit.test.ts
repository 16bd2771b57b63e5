import { ApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkInboundAllowed,
  departureDue,
  mergeLocodes,
  parseLocodeCoordinates,
  readLocodes,
  readWhitelist,
  routeInconsistentReply,
  sharedImo,
  voyagePlanRequest,
  voyagePlanRequestDue,
  type WatchedPortCall,
} from './outgoing.ts';

const settings = {
  portName: 'Gävle',
  portUnlocode: 'SEGVX',
  rtaPointLocationName: 'Gävle pilot station',
  syncPointLat: 60.7,
  syncPointLon: 17.6,
  syncPointRadius: 5000,
};

const pc = (over: Partial<WatchedPortCall> = {}): WatchedPortCall => ({
  id: 7,
  imo: 9074729,
  vessel_name: 'Ship',
  status: 'arriving',
  current_eta: '2026-11-28T08:00:00+00:00',
  current_etd: null,
  next_port: null,
  is_vis: false,
  ...over,
});

describe('what the port sends by itself', () => {
  it('replies "Route inconsistent" to a plan without schedule or without a sync waypoint, with the area', () => {
    const noSchedule = routeInconsistentReply('CALCULATED_SCHEDULE_NOT_FOUND', 'urn:x', 'Route A', settings);
    expect(noSchedule).toEqual({
      author: 'Port Activity Application',
      subject: 'Route inconsistent',
      body:
        'The voyage plan (Route A) does not have a valid schedule. Please send an updated voyage plan with a valid ' +
        'ETA for waypoint near Gävle pilot station.',
      information_object_reference_id: 'urn:x',
      information_object_reference_type: 'RTZ',
      area: '<Circle><position lat="60.7" lon="17.6"/><radius>5000</radius></Circle>',
    });
    expect(routeInconsistentReply('SYNC_NOT_FOUND_CAN_NOT_BE_ADDED', 'urn:x', null, settings)?.body).toBe(
      'The voyage plan (UNKNOWN) does not have waypoint near Gävle pilot station. Please send an updated voyage ' +
        'plan with a valid ETA for waypoint near Gävle pilot station.',
    );
    for (const state of ['SYNC_WITH_ETA_FOUND', 'SYNC_WITHOUT_ETA_FOUND', 'SYNC_NOT_FOUND_CAN_BE_ADDED', 'RTA_SENT']) {
      expect(routeInconsistentReply(state as never, 'urn:x', 'R', settings)).toBeUndefined();
    }
  });

  it('asks for the voyage plan once, at an ETA of a port call still ahead', () => {
    expect(voyagePlanRequest(settings).body).toBe(
      'Share your voyage plan with Gävle (SEGVX). Voyage plan should have calculated schedule and waypoint near ' +
        'Gävle pilot station.',
    );
    const fresh = { voyage_plan_requested: false, last_etd: null };
    expect(voyagePlanRequestDue(pc(), fresh)).toBe(true);
    expect(voyagePlanRequestDue(pc(), { ...fresh, voyage_plan_requested: true })).toBe(false);
    expect(voyagePlanRequestDue(pc({ current_eta: null }), fresh)).toBe(false);
    expect(voyagePlanRequestDue(pc({ status: 'done' }), fresh)).toBe(false);
  });

  it('sends the departure when the ETD changed and a next port is named', () => {
    const etd = '2026-11-29T08:00:00+00:00';
    expect(
      departureDue(pc({ current_etd: etd, next_port: 'FIRAU' }), { voyage_plan_requested: true, last_etd: null }),
    ).toBe(true);
    expect(
      departureDue(pc({ current_etd: etd, next_port: 'FIRAU' }), { voyage_plan_requested: true, last_etd: etd }),
    ).toBe(false);
    expect(departureDue(pc({ current_etd: etd, next_port: '' }), { voyage_plan_requested: true, last_etd: null })).toBe(
      false,
    );
    expect(departureDue(pc({ next_port: 'FIRAU' }), { voyage_plan_requested: true, last_etd: null })).toBe(false);
  });

  it('hides made-up IMOs from other ports and reads UN/LOCODE coordinates as the original', () => {
    expect(sharedImo(9074729)).toBe(9074729);
    expect(sharedImo(100000042)).toBe(0);
    expect(parseLocodeCoordinates('6108N 02130E')).toEqual({ lat: 61.1333, lon: 21.5 });
    expect(parseLocodeCoordinates('3351S 15112E')).toEqual({ lat: -33.85, lon: 151.2 });
    expect(parseLocodeCoordinates('4042N 07400W')).toEqual({ lat: 40.7, lon: -74 });
    expect(parseLocodeCoordinates('')).toBeUndefined();
  });
});

describe('ports and whitelists', () => {
  it('merges locodes without repeats, and refuses what is not a list of codes', () => {
    expect(mergeLocodes(['FIRAU'], readLocodes(['firau', 'FIPOR']))).toEqual(['FIRAU', 'FIPOR']);
    expect(() => readLocodes('FIRAU')).toThrow(ApiError);
    expect(() => readLocodes([1])).toThrow('Invalid locodes');
  });

  it('takes a whitelist as a JSON boolean only', () => {
    expect(readWhitelist(false)).toBe(false);
    expect(readWhitelist('false')).toBeUndefined();
    expect(readWhitelist(1)).toBeUndefined();
  });

  it('refuses inbound vessels from a port whose whitelist_in is off', () => {
    const port = { name: 'Rauma', service_id: 'urn:p', whitelist_in: false, whitelist_out: true, locodes: [] };
    expect(() => checkInboundAllowed(port)).toThrow('Service ID is not whitelisted to post inbound vessel data: urn:p');
    expect(() => checkInboundAllowed({ ...port, whitelist_in: true })).not.toThrow();
  });
});
