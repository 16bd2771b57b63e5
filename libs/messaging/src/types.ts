// The messaging port: RabbitMQ (amqplib) in the fleet, an in-process adapter in the embedded mode.
// Same interface, same guarantees towards consumers (at-least-once, idempotent handlers, bounded retries).

export interface BusMessage {
  /** The event id (or a message id) — consumers deduplicate on it. */
  id: string;
  routingKey: string;
  body: unknown;
  headers: Record<string, unknown>;
  redelivered: boolean;
  /** The partition whose queue delivered it (a partitioned consumer's); unset for one queue. */
  partition?: number;
}

export interface PublishOptions {
  messageId: string;
  headers?: Record<string, unknown>;
  /**
   * The key a partitioned consumer spreads messages by (an event's stream id): the message carries its partition
   * (partitions.ts), so all messages of one key reach the same partition, in order.
   */
  partitionKey?: string;
}

export interface ConsumeOptions {
  /** Routing-key patterns bound to the durable queue on the `events` topic exchange, e.g. `vessel.*`. */
  bindings: string[];
  prefetch?: number;
  /** Up to this many already-delivered messages are handed over together (one transaction). */
  maxBatch?: number;
  /** Attempts before a message goes to the dead-letter queue. */
  maxAttempts?: number;
  /**
   * Spread over the bus's partitions (docs/architecture.md#scaling-out): one queue per partition, each consumed by
   * one process at a time, the partitions shared out among the processes consuming this queue. Only for handlers
   * that need each stream's order, not the order across streams. One process (the in-process bus) holds them all.
   * A batch handed to the handler may hold several partitions' messages (each partition's in its order).
   */
  partitioned?: boolean;
  /**
   * Routing-key patterns (also in `bindings`) whose messages every partition receives, each in its place among the
   * partition's own: for events that change how the others are handled (the projector's priorities), so that no
   * partition handles an event of its own streams that came after one of them before it.
   */
  everyPartition?: string[];
}

export interface Consumer {
  stop(): Promise<void>;
  /** The partitions this process consumes now (a partitioned consumer); undefined for one queue. */
  heldPartitions?(): number[];
}

export interface RpcOptions {
  timeoutMs?: number;
  headers?: Record<string, unknown>;
}

/** A broadcast as received: the key it was sent with and its body (a JSON copy). */
export type BroadcastHandler = (key: string, body: unknown) => void;

/**
 * The header a served request carries its id in: the same for every delivery of one request (a redelivery after a
 * crash included), different for every call.
 */
export const RPC_ID_HEADER = 'rpc_id';

export type RpcHandler = (command: string, payload: unknown, headers: Record<string, unknown>) => Promise<unknown>;

export interface Bus {
  /** Partitions of a partitioned consumer (docs/architecture.md#scaling-out); 1 where one process holds them all. */
  readonly partitions: number;
  /** Publishes to the `events` topic exchange; resolves when the broker confirmed it. */
  publish(routingKey: string, body: unknown, options: PublishOptions): Promise<void>;
  /**
   * Consumes a durable queue. The handler gets messages in delivery order and must be idempotent; messages are
   * acked only after it resolves (i.e. after its transaction committed).
   */
  consume(
    queue: string,
    handler: (messages: BusMessage[]) => Promise<void>,
    options: ConsumeOptions,
  ): Promise<Consumer>;
  /** Serves `cmd.<service>`: the handler's result or ApiError goes back to the caller. */
  serveRpc(service: string, handler: RpcHandler): Promise<Consumer>;
  /** Request/reply to `cmd.<service>`; ApiError from the service is rethrown; timeout → ApiError 503. */
  rpc<T = unknown>(service: string, command: string, payload: unknown, options?: RpcOptions): Promise<T>;
  /**
   * Sends to every process that receives broadcasts (the `realtime` fanout exchange), each getting it once. Not
   * stored: a process not listening at that moment misses it. For live signals whose worth is being on time (the
   * real-time channels; see docs/architecture.md#real-time).
   */
  broadcast(key: string, body: unknown): Promise<void>;
  /** Receives every broadcast from now on, on a queue of this process's own (exclusive, gone with the process). */
  receiveBroadcasts(handler: BroadcastHandler): Promise<Consumer>;
  /** Resolves true when the broker connection is up. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
