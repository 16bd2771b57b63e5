import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_AUTHOR,
  ROUTE_INCONSISTENT_SUBJECT,
  routeInconsistentBody,
  syncPointArea,
  VOYAGE_PLAN_REQUEST_SUBJECT,
  voyagePlanRequestBody,
} from './messages.ts';
import { RTZ_STATE_NAMES } from './sync-point.ts';
import { buildTextMessage, parseTextMessage } from './text-message.ts';

describe('automatic messages', () => {
  it('words the two "Route inconsistent" replies as the original', () => {
    expect(AUTOMATIC_AUTHOR).toBe('Port Activity Application');
    expect(ROUTE_INCONSISTENT_SUBJECT).toBe('Route inconsistent');
    expect(routeInconsistentBody('CALCULATED_SCHEDULE_NOT_FOUND', 'SEGVX-FIRAU 42', 'Rauma PBG')).toBe(
      'The voyage plan (SEGVX-FIRAU 42) does not have a valid schedule. ' +
        'Please send an updated voyage plan with a valid ETA for waypoint near Rauma PBG.',
    );
    expect(routeInconsistentBody('SYNC_NOT_FOUND_CAN_NOT_BE_ADDED', 'FIPOR-FIRAU', 'Rauma PBG')).toBe(
      'The voyage plan (FIPOR-FIRAU) does not have waypoint near Rauma PBG. ' +
        'Please send an updated voyage plan with a valid ETA for waypoint near Rauma PBG.',
    );
  });

  it('names an unnamed route UNKNOWN and sends no reply for the other states', () => {
    expect(routeInconsistentBody('CALCULATED_SCHEDULE_NOT_FOUND', '', 'X')).toContain('(UNKNOWN)');
    expect(routeInconsistentBody('SYNC_NOT_FOUND_CAN_NOT_BE_ADDED', undefined, 'X')).toContain('(UNKNOWN)');
    const replied = RTZ_STATE_NAMES.filter((s) => routeInconsistentBody(s, 'r', 'X') !== undefined);
    expect(replied).toEqual(['CALCULATED_SCHEDULE_NOT_FOUND', 'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED']);
  });

  it('words the voyage-plan request as the original', () => {
    expect(VOYAGE_PLAN_REQUEST_SUBJECT).toBe('Share voyage plan request');
    expect(voyagePlanRequestBody('Port of Rauma', 'FIRAU', 'Rauma PBG')).toBe(
      'Share your voyage plan with Port of Rauma (FIRAU). ' +
        'Voyage plan should have calculated schedule and waypoint near Rauma PBG.',
    );
  });

  it('draws the reply area around the sync point with the radius in nautical miles', () => {
    const area = syncPointArea({ lat: 61.11806, lon: 21.16778, radiusMeters: 1852 });
    expect(area).toEqual({ circle: { position: { lat: 61.11806, lon: 21.16778 }, radiusNm: 1 } });
    const reply = {
      id: 'urn:mrn:stm:txt:rauma:1',
      informationObjectReferenceId: 'urn:mrn:stm:voyage:id:test:gvx-rau-42',
      informationObjectReferenceType: 'RTZ',
      author: AUTOMATIC_AUTHOR,
      from: 'urn:mrn:stm:service:instance:rauma:vis',
      createdAt: '2026-11-27T07:10:00Z',
      subject: ROUTE_INCONSISTENT_SUBJECT,
      body: routeInconsistentBody('CALCULATED_SCHEDULE_NOT_FOUND', 'r', 'Rauma PBG')!,
      area,
    };
    const xml = buildTextMessage(reply);
    expect(xml).toContain('<area><Circle><position lat="61.11806" lon="21.16778"/><radius>1</radius></Circle></area>');
    expect(parseTextMessage(xml)).toEqual(reply);
  });
});
