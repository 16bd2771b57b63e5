// The per-peer outbox of direct mode (docs/architecture.md#vis-direct-mode): what one port sends another, in the
// order it was sent, and the rules of what may go out and what may come in. Pure.

/** The VIS operations two ports exchange directly (the STM VIS interface's uploads, and our departure notice). */
export const PEER_OPERATIONS = ['textMessage', 'voyagePlan', 'departure', 'acknowledgement'] as const;
export type PeerOperation = (typeof PEER_OPERATIONS)[number];

export const isPeerOperation = (value: unknown): value is PeerOperation =>
  typeof value === 'string' && (PEER_OPERATIONS as readonly string[]).includes(value);

/** One message as it travels: its id (the receiver stores each id once), what it is, and its fields. */
export interface PeerMessage {
  message_id: string;
  operation: PeerOperation;
  body: Record<string, unknown>;
}

/** A queued message: its place in the peer's queue and its size on the wire. */
export interface QueuedMessage extends PeerMessage {
  seq: number;
  bytes: number;
}

export interface BatchLimits {
  maxMessages: number;
  maxBytes: number;
}

/** Well under the edge's 1 MB body limit, and few enough that one answer comes back in good time. */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxMessages: 200, maxBytes: 512 * 1024 };

/**
 * The next batch: the oldest messages in queue order, as many as the limits allow, and always at least one (a
 * message larger than the byte limit goes alone), so one peer's messages arrive in the order they were sent.
 */
export function nextBatch<M extends QueuedMessage>(queued: readonly M[], limits: BatchLimits): M[] {
  const ordered = [...queued].sort((a, b) => a.seq - b.seq);
  const batch: M[] = [];
  let bytes = 0;
  for (const message of ordered) {
    if (batch.length >= limits.maxMessages) break;
    if (batch.length > 0 && bytes + message.bytes > limits.maxBytes) break;
    batch.push(message);
    bytes += message.bytes;
  }
  return batch;
}

/** What this port knows of another port's service (the `ports` row), if anything. */
export interface PortWhitelists {
  whitelist_in: boolean;
  whitelist_out: boolean;
}

/**
 * May this message go to the peer? Acknowledgements always may (they answer what the peer sent us); anything
 * else only to a port whose `whitelist_out` is on (or one not listed among the ports: a ship's service).
 */
export function outgoingRefusal(operation: PeerOperation, port: PortWhitelists | undefined, serviceId: string) {
  if (operation === 'acknowledgement' || !port || port.whitelist_out) return undefined;
  return `Service ID is not whitelisted to receive data: ${serviceId}`;
}

/**
 * May this message from the peer be taken? Acknowledgements always (they answer what we sent); anything else
 * only from a port whose `whitelist_in` is on (or a service not listed among the ports). The departure keeps
 * the original's message for inbound vessel data.
 */
export function incomingRefusal(
  operation: PeerOperation,
  port: PortWhitelists | undefined,
  serviceId: string,
): { status: number; error: string } | undefined {
  if (operation === 'acknowledgement' || !port || port.whitelist_in) return undefined;
  if (operation === 'departure') {
    return { status: 400, error: `Service ID is not whitelisted to post inbound vessel data: ${serviceId}` };
  }
  return { status: 403, error: `Service ID is not whitelisted to send data: ${serviceId}` };
}

/** The STM delivery acknowledgement's fields (the VIS `deliveryAck` object). */
export interface DeliveryAck {
  id: string;
  referenceId: string;
  timeOfDelivery: string;
  fromId: string;
  fromName: string;
  toId: string;
  toName: string;
  ackResult: string;
}

/**
 * The acknowledgement of a delivered message, sent back to its sender. Its id derives from the message's, so a
 * redelivered message is acknowledged with the same id and the sender records one acknowledgement.
 */
export function acknowledgementOf(
  received: { message_id: string; from_service_id: string; from_name: string },
  us: { service_id: string; name: string },
  deliveredAt: Date,
): PeerMessage {
  const ack: DeliveryAck = {
    id: `ack:${received.message_id}`,
    referenceId: received.message_id,
    timeOfDelivery: deliveredAt.toISOString(),
    fromId: received.from_service_id,
    fromName: received.from_name,
    toId: us.service_id,
    toName: us.name,
    ackResult: 'OK',
  };
  return { message_id: ack.id, operation: 'acknowledgement', body: { ...ack } };
}

/** The STM message type a sent operation is stored as (what an acknowledgement marks). */
export function messageTypeOf(operation: PeerOperation): 'TXT' | 'RTZ' | 'DEP' | 'ACK' {
  switch (operation) {
    case 'textMessage':
      return 'TXT';
    case 'voyagePlan':
      return 'RTZ';
    case 'departure':
      return 'DEP';
    case 'acknowledgement':
      return 'ACK';
  }
}

/**
 * A batch split into lanes that may be stored side by side: what must keep its order shares a lane (a vessel's
 * departures, the same id twice), everything else is a lane of its own. Lanes keep the batch's order inside, and
 * come in the order of their first message. Each stored message keeps its time of sending, so lists still show the
 * peer's messages in the order sent.
 */
export function lanesOf<M extends PeerMessage>(messages: readonly M[]): M[][] {
  const lanes = new Map<string, M[]>();
  for (const message of messages) {
    const imo = message.body.vessel_imo;
    const key =
      message.operation === 'departure' && (typeof imo === 'number' || typeof imo === 'string')
        ? `departure:${imo}`
        : `id:${message.message_id}`;
    const lane = lanes.get(key);
    if (lane) lane.push(message);
    else lanes.set(key, [message]);
  }
  return [...lanes.values()];
}
