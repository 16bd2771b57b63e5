import { ApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  acknowledges,
  decideVisVessel,
  needsImoByName,
  parseResultsOf,
  readNotification,
  readTextMessage,
  readVoyagePlan,
  resolveVisVesselImo,
  textMessageEventId,
  voyagePlanEventId,
} from './messages.ts';

const message = (over: Record<string, string> = {}) => ({
  time: '2026-11-27T10:00:00+02:00',
  from_service_id: 'urn:mrn:stm:service:instance:ship-1',
  to_service_id: 'urn:mrn:stm:service:instance:port',
  message_id: 'urn:mrn:stm:txt:ship:1',
  message_type: 'TXT',
  payload: '{"stmMessage":{"message":"<textMessage/>"}}',
  ...over,
});
const plan = (over: Record<string, string> = {}) => ({
  ...message({ message_type: 'RTZ', message_id: 'urn:mrn:stm:voyage:id:1' }),
  rtz_state: 'SYNC_WITH_ETA_FOUND',
  rtz_parse_results: '{"route_name":"Route A","eta":"2026-11-28T08:00:00+00:00"}',
  ...over,
});

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return `${(error as ApiError).status}:${(error as Error).message}`;
  }
  return 'accepted';
};

describe('incoming VIS messages', () => {
  it('takes a TXT message with its time in UTC, and refuses another type or a payload that is not JSON', () => {
    const m = readTextMessage(message(), false);
    expect(m).toMatchObject({ time: '2026-11-27T08:00:00+00:00', message_type: 'TXT', ack: false });
    expect(refusal(() => readTextMessage(message({ message_type: 'RTZ' }), false))).toBe(
      '400:Message type is not valid: RTZ. Should be: TXT',
    );
    expect(refusal(() => readTextMessage(message({ payload: '<xml/>' }), false))).toBe('400:Invalid payload: not JSON');
    expect(refusal(() => readTextMessage(message({ time: 'yesterday' }), false))).toMatch(/^400:Invalid date format/);
  });

  it('gives the same message the same event id, another message another', () => {
    expect(textMessageEventId(readTextMessage(message(), false))).toBe(
      textMessageEventId(readTextMessage(message(), true)),
    );
    expect(textMessageEventId(readTextMessage(message(), false))).not.toBe(
      textMessageEventId(readTextMessage(message({ message_id: 'urn:mrn:stm:txt:ship:2' }), false)),
    );
  });

  it("checks a voyage plan's RTZ state with the original's message, and its acknowledgement only when RTA_SENT", () => {
    expect(refusal(() => readVoyagePlan(plan({ rtz_state: 'FOUND' }), false))).toBe(
      '400:RTZ state is not valid: FOUND. Should be one of: CALCULATED_SCHEDULE_NOT_FOUND, SYNC_WITH_ETA_FOUND, ' +
        'SYNC_WITHOUT_ETA_FOUND, SYNC_NOT_FOUND_CAN_BE_ADDED, SYNC_NOT_FOUND_CAN_NOT_BE_ADDED, RTA_SENT',
    );
    expect(refusal(() => readVoyagePlan(plan({ rtz_parse_results: 'x' }), false))).toBe(
      '400:Invalid rtz_parse_results: not JSON',
    );
    expect(readVoyagePlan(plan(), true).ack).toBe(false);
    expect(readVoyagePlan(plan({ rtz_state: 'RTA_SENT' }), true).ack).toBe(true);
    expect(voyagePlanEventId(readVoyagePlan(plan(), false))).not.toBe(
      voyagePlanEventId(readVoyagePlan(plan({ rtz_state: 'RTA_SENT' }), false)),
    );
  });

  it('reads the route name and ETA of the parse results, null when absent', () => {
    expect(parseResultsOf(plan().rtz_parse_results)).toEqual({
      route_name: 'Route A',
      eta: '2026-11-28T08:00:00+00:00',
    });
    expect(parseResultsOf('{}')).toEqual({ route_name: null, eta: null });
  });

  it('treats ACKNOWLEDGEMENT_RECEIVED of a TXT or RTZ message as its acknowledgement, nothing else', () => {
    const n = (type: string, notification = 'ACKNOWLEDGEMENT_RECEIVED') =>
      readNotification({
        time: '2026-11-27T10:00:00Z',
        from_service_id: 's',
        message_id: 'm',
        message_type: type,
        notification_type: notification,
        subject: 'Ack',
        payload: '{}',
      });
    expect(acknowledges(n('TXT'))).toBe('TXT');
    expect(acknowledges(n('RTZ'))).toBe('RTZ');
    expect(acknowledges(n('S124'))).toBeUndefined();
    expect(acknowledges(n('TXT', 'MESSAGE_WAITING'))).toBeUndefined();
  });

  it('records a VIS vessel again only when something about it changed', () => {
    const v = { imo: 9074729, vessel_name: 'Ship', service_id: 's', service_url: 'https://ship' };
    expect(decideVisVessel(v, undefined)).toHaveLength(1);
    expect(decideVisVessel(v, { ...v })).toEqual([]);
    expect(decideVisVessel(v, { ...v, service_url: 'https://old' })).toHaveLength(1);
  });
});

describe('the IMO of a VIS vessel (IMO 0 resolved as the original did)', () => {
  const vessel = { imo: 0, vessel_name: 'Aurora', service_id: 'urn:mrn:stm:service:instance:aurora', service_url: 'u' };

  it('keeps a given IMO, whatever is known', () => {
    const given = { ...vessel, imo: 9074729 };
    expect(resolveVisVesselImo(given, { current: { ...vessel, imo: 9000001 }, namedImo: 9000002 })).toEqual(given);
    expect(needsImoByName(given)).toBe(false);
  });

  it('takes the IMO already recorded for the service id first, then the named vessel’s', () => {
    expect(resolveVisVesselImo(vessel, { current: { ...vessel, imo: 9074729 }, namedImo: 9000002 }).imo).toBe(9074729);
    expect(resolveVisVesselImo(vessel, { current: vessel, namedImo: 9000002 }).imo).toBe(9000002);
    expect(resolveVisVesselImo(vessel, { namedImo: 100000007 }).imo).toBe(100000007);
  });

  it('stays 0 when neither knows it, and looks a name up only for IMO 0 with a name', () => {
    expect(resolveVisVesselImo(vessel, { current: vessel })).toEqual(vessel);
    expect(needsImoByName(vessel)).toBe(true);
    expect(needsImoByName({ ...vessel, vessel_name: '' })).toBe(false);
  });

  it('records a resolved IMO as a change of the stored record, and the same again as none', () => {
    const current = { ...vessel };
    const resolved = resolveVisVesselImo(vessel, { current, namedImo: 9074729 });
    expect(decideVisVessel(resolved, current).map((e) => e.data.imo)).toEqual([9074729]);
    expect(decideVisVessel(resolved, resolved)).toEqual([]);
  });
});
