// The clock rules without traffic (docs/domain.md#timers): departed → done 180 minutes after ATD, force-depart 30 days
// after the last known time. The projection records each vessel's next due time (portcall.vessels.next_timer_at)
// and arms one delayed job per vessel and due time; when it fires, `PortCallTimersElapsed` is appended to the
// vessel's stream and the projection applies the rules at that event's time. As an event, the tick sits at a fixed
// place in the stream, so a rebuild applies it exactly where the live projection did.

import { createHash } from 'node:crypto';
import { type PortCallTimersElapsed, vesselStream } from '@pcas/contracts';
import { type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { DelayedJobs } from '@pcas/jobs';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { dueTimers, nextTimerAt } from '../domain/port-calls.ts';
import { currentVessel, type ProjectorRules, type TimerChange } from './projection.ts';

export interface TimerJob {
  imo: number;
  /** The due time it was armed for (epoch ms). */
  due: number;
}

/** One job per vessel and due time: arming it again changes nothing. */
export const timerJobId = (imo: number, dueIso: string): string => `portcall-timer-${imo}-${Date.parse(dueIso)}`;

/** A UUID from a name (sha1, as UUIDv5 does): the same tick of the same state is appended once. */
export function nameUuid(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  const variant = ((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * How far ahead a timer's previous due time must lie for its job to be trusted as still waiting: the job that has
 * just fired (and appended the tick that moved the timer) lies behind it.
 */
export const ARMED_AHEAD_MS = 60_000;

/**
 * Whether a moved timer needs its jobs touched. A timer moved later while its previous due time is still ahead
 * does not: a job at or before that time is waiting, and when it fires early fireTimer arms the vessel's next due
 * time then. Every timestamp moves the force-depart rule (30 days after the last known time) later, so this
 * spares two Redis scripts and a worker wake-up per projected batch and vessel.
 */
export function needsArming(change: TimerChange, nowMs: number): boolean {
  if (change.previous === null || change.next === null) return true;
  const previous = Date.parse(change.previous);
  return Date.parse(change.next) < previous || previous <= nowMs + ARMED_AHEAD_MS;
}

/**
 * Arms the jobs of moved timers (after the transaction that moved them committed). A job whose arming fails is
 * fired by the sweep (due times are recorded) or re-armed at the next start.
 */
export async function armTimers(jobs: DelayedJobs, changes: readonly TimerChange[], log: Logger): Promise<void> {
  const now = Date.now();
  for (const change of changes) {
    if (!needsArming(change, now)) continue;
    try {
      if (change.previous !== null) await jobs.cancel(timerJobId(change.imo, change.previous));
      if (change.next !== null) {
        const job: TimerJob = { imo: change.imo, due: Date.parse(change.next) };
        await jobs.schedule(timerJobId(change.imo, change.next), new Date(change.next), job);
      }
    } catch (error) {
      // The sweep fires it once due (the due time is recorded), or the next start re-arms it; nothing is lost.
      log.warn({ err: error, imo: change.imo }, 'could not arm the port-call timer');
    }
  }
}

/** Arms every recorded timer (at start: in-process timers do not survive a restart, and a crash may miss one). */
export async function armAllTimers(db: Db, jobs: DelayedJobs, log: Logger): Promise<number> {
  const { rows } = await db.query<{ imo: number; next_timer_at: Date }>(
    'SELECT imo, next_timer_at FROM portcall.vessels WHERE next_timer_at IS NOT NULL ORDER BY next_timer_at',
  );
  await armTimers(
    jobs,
    rows.map((r) => ({ imo: Number(r.imo), previous: null, next: r.next_timer_at.toISOString() })),
    log,
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
}

/**
 * The job: if a clock rule of the vessel is due by the database's clock (which stamps the event's `created`, the
 * fold's "now"), append PortCallTimersElapsed; if the next one is still ahead, arm it again.
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
        const event = { id: nameUuid(`portcall-timer:${imo}:${state.version}`), type: 'PortCallTimersElapsed' };
        const data: PortCallTimersElapsed = { imo };
        await store.append(vesselStream(imo), [{ ...event, data }], { tx, expectedVersion: streamVersion });
        return { appended: true as const };
      });
      if ('appended' in outcome) return 'appended';
      if (outcome.next === null) return 'nothing';
      // Fired a little before the database's clock reached it: this job runs again (its retry), as the same id
      // cannot be armed while it runs.
      if (armedFor !== undefined && outcome.next.getTime() <= armedFor) throw new TimerNotDueError(imo);
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
