// The clock rules without traffic (docs/domain.md#timers): departed → done 180 minutes after ATD, force-depart 30 days
// after the last known time. The projection records each vessel's next due time (portcall.vessels.next_timer_at)
// and arms one delayed job per vessel and due time once it is near (the service's sweep arms the others as they come
// near); when it fires, `PortCallTimersElapsed` is appended to the
// vessel's stream and the projection applies the rules at that event's time. As an event, the tick sits at a fixed
// place in the stream, so a rebuild applies it exactly where the live projection did.

import { type PortCallTimersElapsed, vesselStream } from '@pcas/contracts';
import { type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { DelayedJobs } from '@pcas/jobs';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { NO_NAMESPACE, nameUuid } from '@pcas/values/name-uuid';
import { dueTimers, nextTimerAt } from '../domain/port-calls.ts';
import { currentVessel, type ProjectorRules, type TimerChange } from './projection.ts';

export interface TimerJob {
  imo: number;
  /** The due time it was armed for (epoch ms). */
  due: number;
}

/** One job per vessel and due time: arming it again changes nothing. */
export const timerJobId = (imo: number, dueIso: string): string => `portcall-timer-${imo}-${Date.parse(dueIso)}`;

/**
 * How close a due time must be for its job to be armed (default; at least twice the sweep's interval, see
 * armHorizonMs). Later ones are armed by the sweep as they come this close: every timestamp moves a vessel's
 * force-depart rule (30 days after its last known time), and arming each move cost two Redis scripts and a worker
 * wake-up per projected batch and vessel.
 */
export const ARM_AHEAD_MS = 10 * 60_000;

/** The arming horizon for a sweep every `sweepMs`: a due time is armed at least one sweep before it. */
export const armHorizonMs = (sweepMs: number): number => Math.max(ARM_AHEAD_MS, 2 * sweepMs);

/**
 * The job operations of a moved timer at `nowMs`: the previous due time's job goes when it can have been armed
 * (it was within the horizon), the next one is armed when it is within the horizon.
 */
export function timerJobs(
  change: TimerChange,
  nowMs: number,
  horizonMs = ARM_AHEAD_MS,
): { cancel: string | null; arm: string | null } {
  const near = (iso: string | null): iso is string => iso !== null && Date.parse(iso) <= nowMs + horizonMs;
  return { cancel: near(change.previous) ? change.previous : null, arm: near(change.next) ? change.next : null };
}

/**
 * Arms the jobs of moved timers (after the transaction that moved them committed). A job whose arming fails is
 * armed again by the sweep, or fired by it once due (due times are recorded); nothing is lost.
 */
export async function armTimers(
  jobs: DelayedJobs,
  changes: readonly TimerChange[],
  log: Logger,
  horizonMs = ARM_AHEAD_MS,
): Promise<void> {
  const now = Date.now();
  for (const change of changes) {
    const { cancel, arm } = timerJobs(change, now, horizonMs);
    try {
      if (cancel !== null) await jobs.cancel(timerJobId(change.imo, cancel));
      if (arm !== null) {
        const job: TimerJob = { imo: change.imo, due: Date.parse(arm) };
        await jobs.schedule(timerJobId(change.imo, arm), new Date(arm), job);
      }
    } catch (error) {
      log.warn({ err: error, imo: change.imo }, 'could not arm the port-call timer');
    }
  }
}

/**
 * Arms the recorded timers due within the horizon and not yet overdue (the sweep fires those): at start
 * (in-process timers do not survive a restart, and a crash may miss one) and by the sweep. Arming an id already
 * waiting changes nothing.
 */
export async function armNearTimers(db: Db, jobs: DelayedJobs, log: Logger, horizonMs = ARM_AHEAD_MS): Promise<number> {
  const { rows } = await db.query<{ imo: number; next_timer_at: Date }>(
    `SELECT imo, next_timer_at FROM portcall.vessels
      WHERE next_timer_at <= now() + $1 * interval '1 millisecond' AND next_timer_at > now() - interval '5 seconds'
      ORDER BY next_timer_at`,
    [horizonMs],
  );
  await armTimers(
    jobs,
    rows.map((r) => ({ imo: Number(r.imo), previous: null, next: r.next_timer_at.toISOString() })),
    log,
    horizonMs,
  );
  return rows.length;
}

export class TimerNotDueError extends Error {
  constructor(imo: number) {
    super(`port-call timer of ${imo} is not due yet by the database clock`);
    this.name = 'TimerNotDueError';
  }
}

export interface FireTimerDeps {
  db: Db;
  store: EventStore;
  rules: ProjectorRules;
  jobs: DelayedJobs;
  log: Logger;
  /** Arming horizon (default ARM_AHEAD_MS): a next due time beyond it is left to the sweep. */
  horizonMs?: number;
}

/**
 * The job: if a clock rule of the vessel is due by the database's clock (which stamps the event's `created`, the
 * fold's "now"), append PortCallTimersElapsed; if the next one is still ahead, arm it again when it is near.
 */
export async function fireTimer(
  deps: FireTimerDeps,
  imo: number,
  /** The due time the job was armed for (epoch ms), if known. */
  armedFor?: number,
): Promise<'appended' | 'rearmed' | 'nothing'> {
  const { db, store, rules, jobs } = deps;
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ now: Date }>('SELECT now() AS now');
        const now = rows[0].now;
        const { state, streamVersion } = await currentVessel(tx, store, rules, imo);
        if (dueTimers(state, now).length === 0) return { next: nextTimerAt(state) };
        // A UUID from the name (version 5, no namespace): the same tick of the same state is appended once.
        const event = {
          id: nameUuid(NO_NAMESPACE, `portcall-timer:${imo}:${state.version}`),
          type: 'PortCallTimersElapsed',
        };
        const data: PortCallTimersElapsed = { imo };
        await store.append(vesselStream(imo), [{ ...event, data }], { tx, expectedVersion: streamVersion });
        return { appended: true as const };
      });
      if ('appended' in outcome) return 'appended';
      if (outcome.next === null) return 'nothing';
      // Fired a little before the database's clock reached it: this job runs again (its retry), as the same id
      // cannot be armed while it runs.
      if (armedFor !== undefined && outcome.next.getTime() <= armedFor) throw new TimerNotDueError(imo);
      if (outcome.next.getTime() > Date.now() + (deps.horizonMs ?? ARM_AHEAD_MS)) return 'nothing';
      const job: TimerJob = { imo, due: outcome.next.getTime() };
      await jobs.schedule(timerJobId(imo, outcome.next.toISOString()), outcome.next, job);
      return 'rearmed';
    } catch (error) {
      // Someone appended meanwhile: decide again on the newer state.
      if (error instanceof WrongExpectedVersionError && attempt < 5) continue;
      throw error;
    }
  }
}
