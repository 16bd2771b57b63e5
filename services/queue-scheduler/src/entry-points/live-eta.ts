// The live ETA against the JIT ETA (docs/domain.md#queue-e-mails-and-live-eta), wired. A data source's live ETA is
// the portcall-projector's `vessel.PortCallLiveEtaSet`; this projection (queue `projection.queue-live-eta`, whose
// inbox makes a redelivery change nothing) evaluates the slot request's alert when one arrives, and a delayed job
// evaluates it again when the delay passes without one. The alert mail is recorded with the change that turns the
// state red, in one transaction, so it goes once per red transition.

import {
  PORTCALL_PROJECTOR,
  PortcallQueries,
  type ServiceDeps,
  type VesselPortCall,
  type VesselPortCallsQuery,
} from '@pcas/contracts';
import type { RecordedEvent } from '@pcas/eventstore';
import { createJobs, type DelayedJobs, type JobHandler } from '@pcas/jobs';
import { type Bus, startProjection } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';
import { NO_NAMESPACE, nameUuid } from '@pcas/values/name-uuid';
import { type AlertRow, lockAlertSlot, pendingAlerts, recordAlert } from '../adapters/live-eta.ts';
import { loadSettingValues } from '../adapters/port-settings.ts';
import { decideLiveEtaAlert } from '../domain/live-eta.ts';
import { liveEtaAlertMail } from '../domain/mails.ts';
import { queueSettings } from '../domain/queue-rules.ts';
import type { QueueMails } from './mails.ts';

export interface LiveEtaOptions {
  createJobs?: (handler: JobHandler) => DelayedJobs | Promise<DelayedJobs>;
  jobsPrefix?: string;
  /** The clock of the delayed evaluations (tests). */
  now?: () => number;
}

type AlertJob = { slot_request_id: number; at: number };

const jobId = (slotRequestId: number, at: number) => `liveeta-${slotRequestId}-${at}`;

export async function startLiveEta(deps: ServiceDeps, mails: QueueMails, options: LiveEtaOptions = {}) {
  const { config, db, bus, store, log } = deps;
  const now = options.now ?? Date.now;

  /** One evaluation under the slot request's lock: the event, the alert mail; returns mails to deliver. */
  async function evaluate(
    tx: Queryable,
    slot: AlertRow,
    liveEta: number | null,
    at: number,
    eventId: string,
  ): Promise<{ mails: string[]; reevaluateAt: number | null }> {
    const settings = queueSettings(await loadSettingValues(tx));
    const decision = decideLiveEtaAlert(slot, liveEta, at, settings);
    const out: string[] = [];
    if (decision.event && (await recordAlert(tx, store, decision.event, eventId, {}))) {
      if (decision.sendAlert && slot.jit_eta !== null) {
        const to = [
          ...new Set([...(await mails.operators(tx)), ...(slot.nomination_email ? [slot.nomination_email] : [])]),
        ];
        const mail = liveEtaAlertMail(
          {
            to,
            vessel_name: slot.vessel_name,
            imo: slot.imo,
            jit_eta: slot.jit_eta,
            live_eta: liveEta ?? (await lastLiveEta(bus, log, slot.imo)),
          },
          await mails.texts(tx),
          mails.timeZone,
        );
        const id = `liveetaalert-${eventId}`;
        if (await mails.record(tx, id, mail)) out.push(id);
      }
    }
    return { mails: out, reevaluateAt: decision.reevaluateAt };
  }

  let jobs: DelayedJobs;
  const handler: JobHandler = async (job) => {
    const { slot_request_id: id, at } = job.data as AlertJob;
    let next: number | null = null;
    const toDeliver = await db.transaction(async (tx) => {
      const slot = await lockAlertSlot(tx, id, null);
      if (!slot) return [];
      // A UUID from the name (version 5, no namespace): the same evaluation is appended once, however often it runs.
      const outcome = await evaluate(
        tx,
        slot,
        null,
        Math.max(at, now()),
        nameUuid(NO_NAMESPACE, `liveeta-job:${id}:${at}`),
      );
      next = outcome.reevaluateAt;
      return outcome.mails;
    });
    await mails.deliver(toDeliver);
    if (next !== null) await jobs.schedule(jobId(id, next), new Date(next), { slot_request_id: id, at: next });
  };
  const jobsLog = log.child({ component: 'live-eta-jobs' });
  jobs = options.createJobs
    ? await options.createJobs(handler)
    : await createJobs(config, { queue: 'queue-live-eta', handler, log: jobsLog, prefix: options.jobsPrefix });

  let toDeliver: string[] = [];
  let toArm: AlertJob[] = [];
  const projection = await startProjection({
    bus,
    db,
    name: 'queue-live-eta',
    bindings: ['vessel.PortCallLiveEtaSet'],
    log: log.child({ projection: 'queue-live-eta' }),
    async apply(tx, events: RecordedEvent[]) {
      for (const event of events) {
        const data = event.data as { live_eta: string; slot_reservation_id: number | null };
        const imo = Number(event.streamId.slice('vessel-'.length));
        const slot = await lockAlertSlot(tx, data.slot_reservation_id ?? null, Number.isFinite(imo) ? imo : null);
        if (!slot) continue;
        const outcome = await evaluate(tx, slot, Date.parse(data.live_eta), event.created.getTime(), event.id);
        toDeliver.push(...outcome.mails);
        if (outcome.reevaluateAt !== null) toArm.push({ slot_request_id: slot.id, at: outcome.reevaluateAt });
      }
    },
    async afterCommit() {
      const ids = toDeliver;
      const arm = toArm;
      toDeliver = [];
      toArm = [];
      await mails.deliver(ids);
      for (const job of arm) await jobs.schedule(jobId(job.slot_request_id, job.at), new Date(job.at), job);
    },
  });

  // In-process timers do not survive a restart: every request late but not yet red is armed again.
  const settings = queueSettings(await loadSettingValues(db));
  for (const pending of await pendingAlerts(db)) {
    const at = pending.discrepancy + settings.liveEtaAlertDelayMs + 1;
    await jobs.schedule(jobId(pending.id, at), new Date(at), { slot_request_id: pending.id, at });
  }

  return {
    async stop() {
      await projection.stop();
      await jobs.close();
    },
  };
}

/** The live ETA the port call holds now (its first one not done with one, by current ETA), for the alert raised by
 * time passing; asked of the portcall-projector, which owns it. Unknown (none in the mail) when it cannot answer. */
async function lastLiveEta(bus: Bus, log: Logger, imo: number): Promise<number | null> {
  const query: VesselPortCallsQuery = { imo };
  try {
    const portCalls = await bus.rpc<VesselPortCall[]>(PORTCALL_PROJECTOR, PortcallQueries.vesselPortCalls, {
      actor: { user_id: null, api_key_id: null },
      input: query,
    });
    const value = portCalls.find((pc) => pc.status !== 'done' && pc.live_eta)?.live_eta;
    return value ? Date.parse(value) : null;
  } catch (err) {
    log.warn({ err, imo }, 'the live ETA of the port call could not be read');
    return null;
  }
}
