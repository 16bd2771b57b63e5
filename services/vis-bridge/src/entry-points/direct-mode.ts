// Direct mode's composition (docs/architecture.md#vis-direct-mode), the default when VIS_AGENT_API_URL is unset:
// the delivery jobs (BullMQ in the fleet, in-process embedded), the deliverer and its sweep, the transport the
// API sends through, and the peer commands served on cmd.vis-bridge.

import type { CommandFunction } from '@pcas/commands';
import type { ServiceDeps } from '@pcas/contracts';
import { createJobs, type DelayedJobs, type JobHandler } from '@pcas/jobs';
import { createDeliverer, type Deliverer, type DeliveryJob } from '../adapters/delivery-worker.ts';
import { createDirectTransport, type DirectTransport } from '../adapters/direct-transport.ts';
import { httpPostBatch, type PostBatch } from '../adapters/peer-client.ts';
import type { VisInbox } from '../adapters/transport.ts';
import { MAX_SERVICE_ID_LENGTH } from '../domain/signature.ts';
import { type PeerSide, peerCommands } from './peer-commands.ts';

export interface DirectMode {
  transport: DirectTransport;
  deliverer: Deliverer;
  commands: Record<string, CommandFunction>;
  stop(): Promise<void>;
}

export interface DirectModeOptions {
  /** How often the sweep looks for messages a lost job or a restart left waiting (default 2 s). */
  sweepIntervalMs?: number;
  post?: PostBatch;
}

export async function startDirectMode(
  deps: ServiceDeps,
  inbox: VisInbox,
  options: DirectModeOptions = {},
): Promise<DirectMode> {
  const { config, db, log } = deps;
  const vis = config.vis;
  const jobsLog = log.child({ component: 'vis-delivery' });
  let jobs: DelayedJobs | undefined;
  let peers: PeerSide | undefined;
  const deliverer = createDeliverer({
    db,
    log: jobsLog,
    post: options.post ?? httpPostBatch(vis.serviceInstanceUrn, vis.peerTimeoutMs),
    jobs: () => jobs!,
    // The peer side exists before any job runs (it is made below, before this function returns).
    takeAcknowledgements: (peer, answer) => peers!.takeAnsweredAcknowledgements(peer, answer),
  });
  const handler: JobHandler = async (job) => deliverer.deliver((job.data as DeliveryJob).peer);
  // The deliverer retries on its own schedule; a job that throws (the database away) is run again a few times.
  jobs = await createJobs(config, { queue: 'vis-delivery', handler, log: jobsLog, concurrency: 8 });

  const transport = createDirectTransport({
    db,
    log,
    inbox,
    deliverer,
    serviceId: vis.serviceInstanceUrn,
    portName: vis.portName,
  });
  peers = peerCommands(deps, {
    inbox,
    deliverer,
    serviceId: vis.serviceInstanceUrn,
    portName: vis.portName,
    syncPoint: { lat: vis.syncPointLat, lon: vis.syncPointLon, radiusMeters: vis.syncPointRadius },
  });

  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      await deliverer.sweep();
    } catch (error) {
      jobsLog.warn({ err: error }, 'VIS delivery sweep failed');
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.sweepIntervalMs ?? 2_000);
  timer.unref?.();
  void sweep();
  if (!vis.serviceInstanceUrn) log.warn('VIS_SERVICE_INSTANCE_URN is not set: peers cannot tell who sends');
  if (vis.serviceInstanceUrn.length > MAX_SERVICE_ID_LENGTH) {
    log.warn(`VIS_SERVICE_INSTANCE_URN is longer than ${MAX_SERVICE_ID_LENGTH} characters: peers cannot link it`);
  }
  log.info('vis-bridge in direct mode (no VIS agent): peers reach /vis/*, the outbox delivers to them');

  return {
    transport,
    deliverer,
    commands: peers.commands,
    async stop() {
      clearInterval(timer);
      await jobs?.close();
    },
  };
}
