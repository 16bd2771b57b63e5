export * from './amqp-bus.ts';
export * from './gathered-rpc.ts';
export * from './in-process-bus.ts';
export { DEFAULT_PARTITIONS } from './partitions.ts';
export * from './projection.ts';
export * from './relay.ts';
export * from './routing.ts';
export { BusClosedError, type RpcReply } from './rpc-reply.ts';
export * from './types.ts';
