// ---- cmd.vis-bridge: VIS/STM messaging (VIS vessels, text messages, voyage plans, notifications, RTA, inbound
// vessels, ports and whitelists). Streams, events and commands of the vis-bridge service. ----
// docs/domain.md#vis-and-other-ports. Every message in or out is an event; the streams:
// - `visvessel-<service id>`: a ship's (or port's) VIS service as found (VisVesselRecorded);
// - `vismessage-<message id>`: one STM message, in or out, and what happened to it (received, sent, acknowledged);
// - `visport-<service id>`: another port's service: its name, locodes and the two whitelists;
// - `visinbound-<imo>`: a vessel another port announced as heading here (upserted by IMO);
// - `visportcall-<port call id>`: what this port sent because of one of its port calls (the voyage-plan request,
//   the departures to the next port).

export const VIS_BRIDGE = 'vis-bridge';

export const visVesselStream = (serviceId: string): string => `visvessel-${serviceId}`;
export const visMessageStream = (messageId: string): string => `vismessage-${messageId}`;
export const visPortStream = (serviceId: string): string => `visport-${serviceId}`;
export const visInboundStream = (imo: number): string => `visinbound-${imo}`;
export const visPortCallStream = (portCallId: number): string => `visportcall-${portCallId}`;

/** The six RTZ states, by id (the original's vis_rtz_state). */
export const RTZ_STATES = [
  'CALCULATED_SCHEDULE_NOT_FOUND',
  'SYNC_WITH_ETA_FOUND',
  'SYNC_WITHOUT_ETA_FOUND',
  'SYNC_NOT_FOUND_CAN_BE_ADDED',
  'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED',
  'RTA_SENT',
] as const;
export type RtzState = (typeof RTZ_STATES)[number];

// ---- events ----

export interface VisVesselRecorded {
  imo: number;
  vessel_name: string;
  service_id: string;
  service_url: string;
}

/** A TXT message received (the agent's post or a peer's upload); `payload` as received (a JSON text). */
export interface VisTextMessageReceived {
  time: string;
  from_service_id: string;
  to_service_id: string;
  message_id: string;
  message_type: 'TXT';
  payload: string;
  /** An ACKNOWLEDGEMENT_RECEIVED for this id came first. */
  ack: boolean;
  /** Read from the textMessage XML when it was received (absent when the payload carried none). */
  author?: string;
  subject?: string;
  body?: string;
}

/** What a text message this port sends says: its author, subject and body, and what it refers to. */
export interface VisText {
  author: string;
  subject: string;
  body: string;
  information_object_reference_id?: string;
  information_object_reference_type?: string;
  area?: string;
}

/** A TXT message this port sent; `payload` is `{"stmMessage":{"message": <textMessage XML>}}` as a JSON text. */
export interface VisTextMessageSent extends VisText {
  time: string;
  from_service_id: string;
  to_service_id: string;
  to_url: string;
  message_id: string;
  payload: string;
  /** Why it was sent: by a user, the automatic "Route inconsistent" reply, the voyage-plan request. */
  reason: 'user' | 'route_inconsistent' | 'voyage_plan_request';
  /** Agent mode: the agent posts what it sent back as a received message; direct mode lists it itself. */
  transport: 'agent' | 'direct';
}

export interface VisVoyagePlanReceived {
  time: string;
  from_service_id: string;
  to_service_id: string;
  message_id: string;
  message_type: 'RTZ';
  rtz_state: RtzState;
  rtz_parse_results: string;
  payload: string;
  ack: boolean;
}

/** An RTA sent to a ship for its newest voyage plan. */
export interface VisRtaSent {
  message_id: string;
  time: string;
  to_service_id: string;
  to_url: string;
  /** The voyage plan answered (its message id). */
  voyage_plan_message_id: string;
  rta: string;
  eta_min: string;
  eta_max: string;
  port_call_id: number | null;
  transport: 'agent' | 'direct';
  /** Direct mode: the plan as sent (state RTA_SENT), listed with the voyage plans; agent mode: the agent posts it. */
  plan?: VisVoyagePlanReceived;
}

export interface VisNotificationReceived {
  time: string;
  from_service_id: string;
  message_id: string;
  message_type: string;
  notification_type: string;
  subject: string;
  payload: string;
}

/** An ACKNOWLEDGEMENT_RECEIVED notification marked the message with this id as acknowledged. */
export interface VisMessageAcknowledged {
  message_id: string;
  message_type: string;
}

export interface VisPortRecorded {
  name: string;
  service_id: string;
  /** The locodes after the merge. */
  locodes: string[];
}

export interface VisPortWhitelistSet {
  service_id: string;
  /** `in`: the port may push inbound vessels to us; `out`: we send our departures to it. */
  direction: 'in' | 'out';
  whitelist: boolean;
}

export interface InboundVesselRecorded {
  time: string;
  imo: number;
  vessel_name: string;
  from_service_id: string;
  from_service_name: string;
}

/** The automatic "Share voyage plan request" for a port call was decided (sent or not): it happens once. */
export interface VoyagePlanRequested {
  port_call_id: number;
  imo: number;
  /** The VIS service asked, or null when the vessel had none (nothing was sent). */
  service_id: string | null;
  message_id: string | null;
}

/** A port call's ETD was sent to a next port's service (one event per port reached). */
export interface VisDepartureSent {
  port_call_id: number;
  imo: number;
  etd: string;
  to_locode: string;
  to_service_ids: string[];
}

export interface VisEvents {
  VisVesselRecorded: VisVesselRecorded;
  VisTextMessageReceived: VisTextMessageReceived;
  VisTextMessageSent: VisTextMessageSent;
  VisVoyagePlanReceived: VisVoyagePlanReceived;
  VisRtaSent: VisRtaSent;
  VisNotificationReceived: VisNotificationReceived;
  VisMessageAcknowledged: VisMessageAcknowledged;
  VisPortRecorded: VisPortRecorded;
  VisPortWhitelistSet: VisPortWhitelistSet;
  InboundVesselRecorded: InboundVesselRecorded;
  VoyagePlanRequested: VoyagePlanRequested;
  VisDepartureSent: VisDepartureSent;
}

// ---- commands (cmd.vis-bridge) ----
// Inputs as the gateway checked them (types only); the rules and the original's messages are the service's. The
// five "receive" commands are transport-neutral: the agent's posts and direct mode's peers both end up there.

export interface RecordVisVesselCommand {
  imo: number;
  vessel_name: string;
  service_id: string;
  service_url: string;
}

export interface ReceiveVisMessageCommand {
  time: string;
  from_service_id: string;
  to_service_id: string;
  message_id: string;
  message_type: string;
  payload: string;
}

/** A notification as delivered: the fields of the event it becomes, before the service checks and trims them. */
export type ReceiveVisNotificationCommand = VisNotificationReceived;

export interface ReceiveVisVoyagePlanCommand extends ReceiveVisMessageCommand {
  rtz_state: string;
  rtz_parse_results: string;
}

export interface RecordInboundVesselCommand {
  time: string;
  imo: number;
  vessel_name: string;
  from_service_id: string;
}

export interface SendVisTextMessageCommand {
  vis_service_id: string;
  author: string;
  subject: string;
  body: string;
  informationObjectReferenceId?: string;
  informationObjectReferenceType?: string;
  area?: string;
}

/** `author` is the caller's "<first> <last>", filled by the gateway. */
export interface SendVisTextMessageWithImoCommand {
  imo: number;
  subject: string;
  body: string;
  author: string;
}

export interface SendVisRtaCommand {
  vis_service_id: string;
  rta: string;
  eta_min: string;
  eta_max: string;
  port_call_id?: number;
}

export interface FindVisServicesCommand {
  imo?: number;
  service_id?: string;
}

export interface SavePortCommand {
  name: string;
  service_id: string;
  locodes: unknown;
}

export interface SetPortWhitelistCommand {
  service_id: string;
  direction: 'in' | 'out';
  whitelist: unknown;
}

export const VisBridgeCommands = {
  recordVisVessel: 'recordVisVessel',
  receiveTextMessage: 'receiveTextMessage',
  receiveNotification: 'receiveNotification',
  receiveVoyagePlan: 'receiveVoyagePlan',
  recordInboundVessel: 'recordInboundVessel',
  sendTextMessage: 'sendTextMessage',
  sendTextMessageWithImo: 'sendTextMessageWithImo',
  sendRta: 'sendRta',
  findServices: 'findServices',
  poll: 'poll',
  configuration: 'configuration',
  savePort: 'savePort',
  setPortWhitelist: 'setPortWhitelist',
} as const;
