import { visInboundStream, visMessageStream, visPortStream, visVesselStream } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { COALESCE_WINDOW_MS, COALESCED_CHANNELS, FEED_BINDINGS, feedItems, VIS_BINDINGS } from './channels.ts';

describe('events to channel messages (the original web UI and mobile app channels)', () => {
  it('a port call change: portcalls-changed and queue-portcalls-changed, data []', () => {
    expect(feedItems('portcall.PortCallChanged', { imo: 9201827, port_call_id: 3, deleted: false })).toEqual([
      { channel: 'portcalls-changed', data: [] },
      { channel: 'queue-portcalls-changed', data: [] },
    ]);
  });

  it("a user's pins: portcalls-changed-<userId>, data []", () => {
    expect(feedItems('pins.PinnedVesselsSet', { user_id: 42, imos: [9201827] })).toEqual([
      { channel: 'portcalls-changed-42', data: [] },
    ]);
  });

  it('a notification created (also the reply of a decision answer): notifications-changed with that notification', () => {
    const created = { id: 7, type: 'port', message: 'Hello', ship_imo: null, parent_notification_id: null };
    expect(feedItems('notification.NotificationCreated', created)).toEqual([
      { channel: 'notifications-changed', notificationId: 7 },
    ]);
  });

  it('a notification deleted, a decision closed or deleted: notifications-changed with null (refetch, no toast)', () => {
    for (const key of ['notification.NotificationDeleted', 'decision.DecisionClosed', 'decision.DecisionDeleted'])
      expect(feedItems(key, { id: 3 })).toEqual([{ channel: 'notifications-changed', data: null }]);
  });

  it('a gate passage recorded: logistics-changed, data []', () => {
    const passage = { time: '2026-11-25T10:00:00+00:00', checkpoint: 'Gate 1', direction: 'In', external_id: 1 };
    expect(feedItems('logistics.GatePassageRecorded', passage)).toEqual([{ channel: 'logistics-changed', data: [] }]);
  });

  it('a batch of positions: sea-chart-vessels-changed and sea-chart-markers-changed; a fixed vessel change: vessels', () => {
    expect(feedItems('seachart.VesselPositionsRecorded', { count: 500 })).toEqual([
      { channel: 'sea-chart-vessels-changed', data: [] },
      { channel: 'sea-chart-markers-changed', data: [] },
    ]);
    for (const key of ['FixedVesselAdded', 'FixedVesselChanged', 'FixedVesselRemoved'])
      expect(feedItems(`fixedvessel.${key}`, { id: 1 })).toEqual([{ channel: 'sea-chart-vessels-changed', data: [] }]);
    // One position alone is no signal: the batch's is.
    expect(feedItems('position.VesselPositionRecorded', {})).toEqual([]);
  });

  it('any decision on a slot request: queue-portcalls-changed, data [] (the JIT dashboard refetches)', () => {
    for (const type of ['SlotRequestReceived', 'SlotRequestUpdated', 'SlotRequestCancelled', 'SlotRequestCompleted'])
      expect(feedItems(`slotrequest.${type}`, { id: 7 })).toEqual([{ channel: 'queue-portcalls-changed', data: [] }]);
    expect(feedItems('berth.BerthCreated', { id: 1 })).toEqual([]);
  });

  it('a VIS list changed (vessels, messages, plans, notifications, ports, inbound vessels): vis-changed, data []', () => {
    const changes: [string, unknown][] = [
      ['visvessel.VisVesselRecorded', { imo: 9074729, service_id: 'urn:mrn:stm:service:instance:x' }],
      ['vismessage.VisTextMessageReceived', { message_id: 'urn:mrn:stm:txt:1', message_type: 'TXT' }],
      ['vismessage.VisTextMessageSent', { message_id: 'urn:mrn:stm:txt:2', transport: 'direct' }],
      ['vismessage.VisVoyagePlanReceived', { message_id: 'urn:mrn:stm:voyage:id:1', rtz_state: 'RTA_SENT' }],
      ['vismessage.VisRtaSent', { message_id: 'urn:mrn:stm:txt:3', transport: 'direct' }],
      ['vismessage.VisNotificationReceived', { message_id: 'urn:mrn:stm:txt:1', notification_type: 'X' }],
      ['vismessage.VisMessageAcknowledged', { message_id: 'urn:mrn:stm:txt:1', message_type: 'TXT' }],
      ['visport.VisPortRecorded', { service_id: 'urn:mrn:stm:service:instance:port-b', locodes: ['FIRAU'] }],
      ['visport.VisPortWhitelistSet', { service_id: 'urn:mrn:stm:service:instance:port-b', direction: 'in' }],
      ['visinbound.InboundVesselRecorded', { imo: 9074731, vessel_name: 'Borealis' }],
    ];
    for (const [key, data] of changes)
      expect(feedItems(key, data), key).toEqual([{ channel: 'vis-changed', data: [] }]);
    // Exactly these have their own queue (vis-changes.ts), which reads no data: the message is the same without it.
    expect([...VIS_BINDINGS].sort()).toEqual(changes.map(([key]) => key).sort());
    for (const key of VIS_BINDINGS) expect(feedItems(key, null), key).toEqual([{ channel: 'vis-changed', data: [] }]);
    // The routing keys are the contract's stream categories.
    expect(
      [visVesselStream('s'), visMessageStream('m'), visPortStream('p'), visInboundStream(1)].map(
        (id) => id.split('-')[0],
      ),
    ).toEqual(['visvessel', 'vismessage', 'visport', 'visinbound']);
    // A port call's VIS bookkeeping and a peer's link change no list; a type of another category is not VIS's.
    for (const key of [
      'visportcall.VoyagePlanRequested',
      'visportcall.VisDepartureSent',
      'vispeer.VisPeerLinked',
      'vessel.VisVesselRecorded',
      'visvessel.VisPortRecorded',
    ])
      expect(feedItems(key, {}), key).toEqual([]);
  });

  it('other events make no message', () => {
    for (const key of ['vessel.TimestampReceived', 'user.UserLoggedIn', 'decision.DecisionItemAnswered'])
      expect(feedItems(key, {})).toEqual([]);
  });

  it('binds exactly the events it maps; only the refetch-only channels are coalesced', () => {
    const samples: Record<string, unknown> = {
      'portcall.PortCallChanged': {},
      'pins.PinnedVesselsSet': { user_id: 1 },
      'notification.NotificationCreated': { id: 1 },
      'notification.NotificationDeleted': { id: 1 },
      'decision.DecisionClosed': { id: 1 },
      'decision.DecisionDeleted': { id: 1 },
      'logistics.GatePassageRecorded': {},
      'slotrequest.SlotRequestReceived': { id: 1 },
      'slotrequest.SlotRequestResolved': { id: 1 },
      'slotrequest.SlotRequestUpdated': { id: 1 },
      'slotrequest.SlotRequestPushedForward': { id: 1 },
      'slotrequest.SlotRequestCancelled': { id: 1 },
      'slotrequest.SlotRequestCompleted': { id: 1 },
      'seachart.VesselPositionsRecorded': { count: 1 },
      'fixedvessel.FixedVesselAdded': { id: 1 },
      'fixedvessel.FixedVesselChanged': { id: 1 },
      'fixedvessel.FixedVesselRemoved': { id: 1 },
      'visvessel.VisVesselRecorded': {},
      'vismessage.VisTextMessageReceived': {},
      'vismessage.VisTextMessageSent': {},
      'vismessage.VisVoyagePlanReceived': {},
      'vismessage.VisRtaSent': {},
      'vismessage.VisNotificationReceived': {},
      'vismessage.VisMessageAcknowledged': {},
      'visport.VisPortRecorded': {},
      'visport.VisPortWhitelistSet': {},
      'visinbound.InboundVesselRecorded': {},
    };
    expect(FEED_BINDINGS).toEqual(Object.keys(samples));
    for (const key of FEED_BINDINGS) expect(feedItems(key, samples[key]).length).toBeGreaterThan(0);
    expect([...COALESCED_CHANNELS]).toEqual([
      'portcalls-changed',
      'queue-portcalls-changed',
      'logistics-changed',
      'sea-chart-vessels-changed',
      'sea-chart-markers-changed',
      'vis-changed',
    ]);
    // The sea chart's at most one a second.
    expect(COALESCE_WINDOW_MS).toEqual({ 'sea-chart-vessels-changed': 1000, 'sea-chart-markers-changed': 1000 });
  });
});
