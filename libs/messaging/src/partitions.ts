// Partitions of a consumer (docs/architecture.md#scaling-out): the relay stamps every event with the partition of its
// stream, so one consumer's events can be spread over several queues, each with one active process, while each
// stream's events stay in order (they all land in the same partition). Pure rules; the RabbitMQ side is
// amqp-partitions.ts, the lag per partition is projection.ts.

import { createHash } from 'node:crypto';

/** The message header the relay writes a stream's partition into, and partition queues are bound on. */
export const PARTITION_HEADER = 'partition';

/** How many partitions a partitioned consumer has unless told (EVENT_PARTITIONS). */
export const DEFAULT_PARTITIONS = 16;

/**
 * The partition of a stream: the first 32 bits of the MD5 of its id, modulo the count. MD5 because PostgreSQL has
 * it too: `partitionOfSql` computes the same number for the lag of a partition. Not a security use.
 */
export function streamPartition(streamId: string, partitions: number): number {
  if (partitions <= 1) return 0;
  const digest = createHash('md5').update(streamId, 'utf8').digest();
  return digest.readUInt32BE(0) % partitions;
}

/** `streamPartition` in SQL, over a text expression and a count expression. */
export function partitionOfSql(streamIdSql: string, partitionsSql: string): string {
  return `((('x' || substr(md5(${streamIdSql}), 1, 8))::bit(32)::bigint) % ${partitionsSql})`;
}

/** The header value of a partition, and the suffix of its queue: `p00` … `p15`. */
export function partitionLabel(index: number): string {
  return `p${String(index).padStart(2, '0')}`;
}

/** The partition a label names, or undefined for anything else (an unpartitioned message). */
export function partitionOfLabel(label: unknown): number | undefined {
  if (typeof label !== 'string' || !/^p\d+$/.test(label)) return undefined;
  return Number(label.slice(1));
}

/** The queue of one partition of a consumer's queue. */
export const partitionQueue = (queue: string, index: number): string => `${queue}.${partitionLabel(index)}`;

/** How many partitions each process should hold: every partition held, none holding much more than another. */
export function fairShare(partitions: number, members: number): number {
  return Math.ceil(partitions / Math.max(1, members));
}

export interface RebalanceInput {
  partitions: number;
  /** Processes consuming this queue now, this one included. */
  members: number;
  /** The partitions this process holds. */
  held: readonly number[];
  /** The partitions no process holds (as last seen). */
  free: readonly number[];
  /** Where this process starts looking among the free ones, so that processes starting together try different ones. */
  offset: number;
}

export interface RebalancePlan {
  release: number[];
  claim: number[];
}

/**
 * What one process does in a round: give back what it holds beyond its fair share (its highest partitions), or
 * claim free ones up to it. Every process doing this converges on all partitions held and shares within one of
 * each other, with nobody deciding for the others: a process that joins takes from the free ones the others gave
 * back, and the partitions of one that died come free when its connection goes.
 */
export function planRebalance(input: RebalanceInput): RebalancePlan {
  const share = fairShare(input.partitions, input.members);
  const held = [...input.held].sort((a, b) => a - b);
  if (held.length > share) return { release: held.slice(share), claim: [] };
  const want = share - held.length;
  const free = [...input.free].sort((a, b) => a - b);
  const start = free.findIndex((p) => p >= input.offset % Math.max(1, input.partitions));
  const rotated = start < 0 ? free : [...free.slice(start), ...free.slice(0, start)];
  return { release: [], claim: rotated.slice(0, want) };
}
