// A partitioned consumer on the RabbitMQ bus (docs/architecture.md#scaling-out), with RabbitMQ's own means:
// - routing: the relay stamps each event with its stream's partition (a header, partitions.ts); a headers exchange
//   `<queue>.partitions`, bound to `events` with the consumer's topic bindings, routes it to `<queue>.pNN`; the
//   events every partition must see in their place (ConsumeOptions.everyPartition) are bound to each queue as well;
// - claims: a process holds a partition by consuming its claim queue `<queue>.pNN.claim` exclusively, so the broker
//   itself refuses a second process, and gives the partition free the moment the holder's connection goes (a crash
//   included). The claim is a queue of its own because RabbitMQ refuses an exclusive consumer on a queue with a
//   single active consumer, and does not enforce one on a quorum queue; the partition queue keeps its single active
//   consumer, so even two processes that both believe they hold it (a reconnect race) never consume it at once;
// - membership: every process consuming the queue also consumes `<queue>.members`, a queue nothing is sent to,
//   whose consumer count is the number of processes sharing the partitions.
// Each round a process gives back what it holds beyond its fair share or claims free partitions up to it
// (planRebalance), so partitions spread over the processes and move on when one joins or dies, with no operator.
// A partition given back is cancelled first: what it had not acked goes back to its queue, in order, for the next
// holder.

import type { Channel, ChannelModel } from 'amqplib';
import { ChannelPart } from './amqp-channel.ts';
import type { AmqpBus } from './amqp-connection.ts';
import { assertConsumerQueue, QueueConsumer } from './amqp-consumers.ts';
import { joinBatches } from './batch-joiner.ts';
import { PARTITION_HEADER, partitionLabel, partitionQueue, planRebalance } from './partitions.ts';
import type { BusMessage, ConsumeOptions, Consumer } from './types.ts';

type Handler = (messages: BusMessage[]) => Promise<void>;

/** An exclusive consumer on a transient queue nothing is sent to: a lock the broker keeps while the holder lives. */
class BrokerLock extends ChannelPart<Channel> {
  constructor(
    bus: AmqpBus,
    private readonly queue: string,
  ) {
    super(bus, `lock ${queue}`);
  }

  protected create(model: ChannelModel) {
    return model.createChannel();
  }

  protected async setup(ch: Channel): Promise<void> {
    await ch.assertQueue(this.queue, { durable: false });
    await ch.consume(this.queue, () => {}, { noAck: true, exclusive: true });
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.detach();
    await this.closeChannel();
  }
}

/**
 * A partition this process holds: its lock, then a consumer of its queue. Without the lock (refused, or lost while
 * reconnecting) it is not ready, and the next rounds let it go.
 */
class Claim {
  private consumer: QueueConsumer | undefined;

  private constructor(private readonly lock: BrokerLock) {}

  /** The claim, or undefined when another process holds the lock. */
  static async take(
    bus: AmqpBus,
    model: ChannelModel,
    queue: string,
    handler: Handler,
    options: ConsumeOptions,
    partition?: number,
  ) {
    const lock = new BrokerLock(bus, `${queue}.claim`);
    bus.parts.add(lock);
    await lock.open(model);
    if (!lock.ready) {
      await lock.stop();
      return undefined;
    }
    const claim = new Claim(lock);
    claim.consumer = new QueueConsumer(bus, queue, handler, options, true, partition);
    bus.parts.add(claim.consumer);
    await claim.consumer.open(model);
    return claim;
  }

  get ready(): boolean {
    return this.lock.ready !== null && this.consumer?.ready != null;
  }

  /** The consumer first: what it had not acked goes back to the queue before another process can claim it. */
  async stop(): Promise<void> {
    await this.consumer?.stop();
    await this.lock.stop();
  }
}

export class PartitionedConsumer extends ChannelPart<Channel> implements Consumer {
  private readonly claims = new Map<number, Claim>();
  /** Claims seen without a working channel in the last round: dropped if still so in the next. */
  private readonly faltering = new Set<number>();
  private readonly members: string;
  private readonly exchangeName: string;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  /** The queue this consumer had before it was partitioned is drained and gone (see retireUnpartitioned). */
  private retired = false;
  private legacyClaim: Claim | undefined;
  private readonly offset = Math.floor(Math.random() * 1_000_000);
  /** The handler every held partition calls, one call at a time with what waited joined (batch-joiner.ts). */
  private readonly handler: Handler;

  constructor(
    bus: AmqpBus,
    private readonly queue: string,
    handler: Handler,
    private readonly options: ConsumeOptions,
  ) {
    super(bus, `partitioned consumer ${queue}`);
    this.handler = joinBatches(handler);
    this.members = `${queue}.members`;
    this.exchangeName = `${queue}.partitions`;
  }

  heldPartitions(): number[] {
    return [...this.claims.entries()]
      .filter(([, claim]) => claim.ready)
      .map(([p]) => p)
      .sort((a, b) => a - b);
  }

  protected create(model: ChannelModel) {
    return model.createChannel();
  }

  protected async setup(ch: Channel): Promise<void> {
    const { bus } = this;
    await ch.assertExchange(this.exchangeName, 'headers', { durable: true });
    for (const binding of this.options.bindings) await ch.bindExchange(this.exchangeName, bus.exchange, binding);
    // Every partition's queue exists before any event is routed to it, whoever holds it later.
    for (let p = 0; p < bus.partitions; p++) {
      const queue = partitionQueue(this.queue, p);
      await assertConsumerQueue(bus, ch, queue);
      await ch.bindQueue(queue, this.exchangeName, '', { 'x-match': 'all', [PARTITION_HEADER]: partitionLabel(p) });
      // Straight from `events` as well: one publish reaches each queue once, in the order published on the channel.
      for (const binding of this.options.everyPartition ?? []) await ch.bindQueue(queue, bus.exchange, binding);
      await ch.assertQueue(`${queue}.claim`, { durable: false });
    }
    await ch.assertQueue(this.members, { durable: false });
    await ch.consume(this.members, () => {}, { noAck: true });
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.round = this.round
        .then(() => this.rebalance())
        .catch((error) => this.bus.log.warn({ err: error, queue: this.queue }, 'partition rebalance failed'));
      void this.round.then(() => this.schedule(this.bus.rebalanceMs));
    }, ms);
  }

  private async rebalance(): Promise<void> {
    const ch = this.ready;
    const model = this.bus.model;
    if (!ch || !model || this.stopped) return;
    if (!this.retired && !(await this.retireUnpartitioned(model))) return;
    for (const [p, claim] of this.claims) {
      if (claim.ready) this.faltering.delete(p);
      else if (this.faltering.has(p)) await this.release(p);
      else this.faltering.add(p);
    }
    const { consumerCount: members } = await ch.checkQueue(this.members);
    const free: number[] = [];
    for (let p = 0; p < this.bus.partitions; p++) {
      if (this.claims.has(p)) continue;
      const { consumerCount } = await ch.checkQueue(`${partitionQueue(this.queue, p)}.claim`);
      if (consumerCount === 0) free.push(p);
    }
    const plan = planRebalance({
      partitions: this.bus.partitions,
      members,
      held: [...this.claims.keys()],
      free,
      offset: this.offset,
    });
    for (const p of plan.release) await this.release(p);
    for (const p of plan.claim) {
      if (this.stopped) return;
      const claim = await Claim.take(this.bus, model, partitionQueue(this.queue, p), this.handler, this.options, p);
      // Refused: another process claimed it between the look and the claim.
      if (claim) this.claims.set(p, claim);
    }
    if (plan.release.length + plan.claim.length > 0)
      this.bus.log.debug({ queue: this.queue, members, held: this.heldPartitions() }, 'partitions rebalanced');
  }

  private async release(p: number): Promise<void> {
    const claim = this.claims.get(p);
    this.claims.delete(p);
    this.faltering.delete(p);
    await claim?.stop();
  }

  /**
   * The queue this consumer had before it was partitioned (an upgrade): unbound, so nothing new enters it, then
   * drained by whichever process claims it, then deleted. Partitions are claimed only after that, so
   * a stream's older events are handled before its newer ones, which wait in the partition queues meanwhile.
   * True once it is gone (or never was).
   */
  private async retireUnpartitioned(model: ChannelModel): Promise<boolean> {
    const probe = await model.createChannel();
    probe.on('error', () => {});
    try {
      let ready: number;
      let consumers: number;
      try {
        ({ messageCount: ready, consumerCount: consumers } = await probe.checkQueue(this.queue));
      } catch {
        // 404: no such queue (the channel is closed by it).
        this.retired = true;
        return true;
      }
      for (const binding of this.options.bindings) await probe.unbindQueue(this.queue, this.bus.exchange, binding);
      if (!this.legacyClaim) {
        this.legacyClaim = await Claim.take(this.bus, model, this.queue, this.handler, this.options);
        if (!this.legacyClaim) return false;
        this.bus.log.info({ queue: this.queue, ready }, 'draining the queue from before partitions');
        return false;
      }
      // Ready ones still to come, or a process from before the upgrade still consuming it.
      if (ready > 0 || consumers > 1) return false;
      await this.legacyClaim.stop();
      this.legacyClaim = undefined;
      // Fails (and closes the probe) while messages the claim had not handled are back in it: the next round
      // claims it again.
      await probe.deleteQueue(this.queue, { ifEmpty: true });
      await probe.deleteQueue(`${this.queue}.claim`);
      this.retired = true;
      this.bus.log.info({ queue: this.queue }, 'queue from before partitions drained and deleted');
      return true;
    } finally {
      await probe.close().catch(() => {});
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.shutdown();
    clearTimeout(this.timer);
    await this.round;
    this.bus.parts.delete(this);
    await Promise.all([...this.claims.keys()].map((p) => this.release(p)));
    await this.legacyClaim?.stop();
    await this.closeChannel();
  }
}
