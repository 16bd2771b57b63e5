// The VIS transport port (docs/domain.md#vis-and-other-ports): what the vis-bridge needs from whatever carries its
// messages to ships and other ports, and how messages from them come in. Two implementations: agent mode
// (agent-transport.ts, the original's VIS agent at VIS_AGENT_API_URL) and direct mode (the bridge itself as a VIS
// service endpoint reaching its peers over HTTP). The service picks one at start (entry-points/transport.ts).

import type {
  ReceiveVisMessageCommand,
  ReceiveVisNotificationCommand,
  ReceiveVisVoyagePlanCommand,
  RecordInboundVesselCommand,
  RecordVisVesselCommand,
  VisText,
} from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';

/** An inter-port service found by UN/LOCODE: the agent's `[{name, service_id}]`. */
export interface InterPortService {
  name: string;
  service_id: string;
}

/**
 * A text message going out. `message_id` is the bridge's own id of the message (its event's key); agent mode does
 * not pass it on (the agent makes its own), direct mode sends it as the STM message id.
 */
export interface OutgoingTextMessage extends VisText {
  message_id: string;
  to_service_id: string;
  to_url: string;
  /**
   * The textMessage XML of these fields as the sender recorded it (sent as is when there is no area; direct mode
   * builds its own otherwise).
   */
  xml?: string;
}

/** A recommended time of arrival sent back with the voyage plan it answers. */
export interface OutgoingRta {
  message_id: string;
  to_service_id: string;
  to_url: string;
  /** As received with the plan (a JSON string: `eta`, `route_name`, …). */
  rtz_parse_results: string;
  /** The plan's RTZ XML. */
  rtz: string;
  rta: string;
  eta_min: string;
  eta_max: string;
}

/** A vessel's departure from this port towards another port's service (the ETD). */
export interface OutgoingDeparture {
  message_id: string;
  to_service_id: string;
  to_url: string;
  from_locode: string;
  to_locode: string;
  /** 0 when the vessel's IMO is not a 7-digit one (fake IMOs are not shown to others). */
  vessel_imo: number;
  vessel_name: string;
  to_lat: number;
  to_lon: number;
  /** The ETD, ISO 8601. */
  time: string;
}

/**
 * Everything outgoing. A call that fails throws (agent mode: the agent answered non-200, which the API turns into
 * 400); a transport that queues (direct mode's outbox) returns once the message is durably queued.
 */
/**
 * Where an outgoing message is recorded. Direct mode queues it in the transaction of the event that records the
 * send, so both commit or neither does; agent mode calls the agent over HTTP and takes no transaction (a network
 * call never runs inside one): its caller records the send once the agent has taken it.
 */
export interface SendOptions {
  tx?: Queryable;
  /** Several sends in `tx` together (VisTransport.batch): what they queue is written at once by its flush. */
  batch?: SendBatch;
}

/** Sends recorded in one transaction: `flush` before the commit writes what they queued, `committed` after it. */
export interface SendBatch {
  flush(): Promise<void>;
  committed(): void;
}

export interface VisTransport {
  readonly mode: 'agent' | 'direct';
  /** Looks up VIS services by IMO and/or service id; results come back through VisInbox.recordVisVessel. */
  findServices(query: { imo?: number; service_id?: string }): Promise<void>;
  /** Other ports' services for a UN/LOCODE. */
  findInterPortServicesByLocode(locode: string): Promise<InterPortService[]>;
  uploadTextMessage(message: OutgoingTextMessage, options?: SendOptions): Promise<void>;
  sendRta(rta: OutgoingRta, options?: SendOptions): Promise<void>;
  sendDeparture(departure: OutgoingDeparture, options?: SendOptions): Promise<void>;
  /** A batch for several sends in the transaction `tx` (a transport that queues; agent mode has none). */
  batch?(tx: Queryable): SendBatch;
  /** GET /vis-service-poll: asks for what is waiting (agent `poll-save`). */
  poll(): Promise<void>;
  /** GET /vis-configuration: how VIS is configured, as JSON. */
  configuration(): Promise<unknown>;
  stop?(): Promise<void>;
}

// ---- incoming: what both transports deliver to the service ----
// Agent mode: the agent posts to the gateway's /agent/rest/vis-* and /agent/rest/inbound-vessels routes, which
// send the VisBridgeCommands of libs/contracts/src/vis.ts over cmd.vis-bridge. Direct mode calls the same
// functions in process (VisInbox), with the same inputs, so a message is checked and stored the same way
// whichever way it came. Each is idempotent: a message id seen before stores nothing again.

export interface VisInbox {
  recordVisVessel(input: RecordVisVesselCommand): Promise<void>;
  receiveTextMessage(input: ReceiveVisMessageCommand): Promise<void>;
  receiveNotification(input: ReceiveVisNotificationCommand): Promise<void>;
  /**
   * Text messages and notifications that came together (a peer's batch), checked one by one as the single
   * functions do, and stored in one transaction, in which `alsoInTx` then runs (told which were accepted). Answers
   * each item's refusal (undefined: stored, or stored before). Throws when the transaction failed: nothing stored.
   */
  receiveMany(
    items: readonly InboxItem[],
    alsoInTx?: (tx: Queryable, accepted: readonly boolean[]) => Promise<void>,
  ): Promise<(unknown | undefined)[]>;
  receiveVoyagePlan(input: ReceiveVisVoyagePlanCommand): Promise<void>;
  recordInboundVessel(input: RecordInboundVesselCommand): Promise<void>;
}

export type InboxItem =
  | { kind: 'text'; input: ReceiveVisMessageCommand }
  | { kind: 'notification'; input: ReceiveVisNotificationCommand };
