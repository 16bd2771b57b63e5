// GET /sea-chart/vessels' bodies (docs/domain.md#sea-chart): the Features are ingest's query
// (`@pcas/ingest/queries`, ingest.sea_chart_positions), kept when fixed or when the vessel has an ongoing port call
// by the projector's rule (`@pcas/portcall-projector/queries`); this adapter keeps the gateway's reuse of bodies.

import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createSeaChartFeatures } from '@pcas/ingest/queries';
import { hasOngoingPortCall } from '@pcas/portcall-projector/queries';
import type { Queryable } from '@pcas/sql';

const gzip = promisify(zlib.gzip);

/** GET /sea-chart/vessels' body: the JSON bytes, gzipped once (off the event loop) when first asked for. */
export class SeaChartVesselsBody {
  #gzip: Promise<Buffer> | undefined;
  constructor(readonly json: Buffer) {}
  gzipped(): Promise<Buffer> {
    // The fastest level: rebuilt as positions arrive, on cores the writers share. In the thread pool: some 700 kB
    // compressed on the event loop stalled every request of the process meanwhile.
    this.#gzip ??= gzip(this.json, { level: 1 });
    return this.#gzip;
  }
}

/**
 * GET /sea-chart/vessels' answers: `read` the body; `changed` when the next answer must show a change (a fixed
 * vessel changed through this process, ingest has answered); `fresh` resolves once the body served is one whose
 * query started after the call, readers meanwhile served the one before.
 */
export interface SeaChartVessels {
  read(): Promise<SeaChartVesselsBody>;
  changed(): void;
  fresh(): Promise<void>;
}

/**
 * GET /sea-chart/vessels. A body is served while its query started at most `reuseMs` (1 s) before the call and
 * after the last `changed`; a body older than half that is made again in the background, so readers seldom wait.
 * This process passes `sea-chart-vessels-changed` (at most once a second) to its sockets only once `fresh` has
 * resolved (entry-points/service.ts), so a map that reloads on the message gets the change without any reader
 * waiting for it; anything else (positions posted but not announced yet, the age limit) shows within `reuseMs`.
 * Not every position batch: AIS agents post several a second, and a fresh query for each kept the map's readers
 * waiting. Calls that must wait share one query, so 16 map views reading cost a query or two a second, not one per
 * view. (The original cached the answer for 60 s.)
 */
export function createSeaChartVessels(
  db: Queryable,
  maxAgeMinutes: number,
  options: { reuseMs?: number; now?: () => number } = {},
): SeaChartVessels {
  const reuseMs = options.reuseMs ?? 1000;
  const now = options.now ?? Date.now;
  const features = createSeaChartFeatures(db, maxAgeMinutes, { condition: hasOngoingPortCall });
  let changedAt = Number.NEGATIVE_INFINITY;
  let current: { body: SeaChartVesselsBody; startedAt: number } | undefined;
  let running: { done: Promise<SeaChartVesselsBody>; startedAt: number } | undefined;

  const query = async (): Promise<SeaChartVesselsBody> => {
    const json = Buffer.from(`[${(await features()).join(',')}]`);
    // The same answer keeps its gzip. A new one is served once its gzip is made (browsers all ask for it): until
    // then the body before it is.
    if (current && json.equals(current.body.json)) return current.body;
    const body = new SeaChartVesselsBody(json);
    await body.gzipped();
    return body;
  };
  /** The query on its way, else a new one. */
  const refresh = () => {
    if (running) return running;
    const startedAt = now();
    const done = query().then(
      (body) => {
        if (!current || startedAt >= current.startedAt) current = { body, startedAt };
        running = undefined;
        return body;
      },
      (error) => {
        running = undefined;
        throw error;
      },
    );
    running = { done, startedAt };
    return running;
  };

  /** A body whose query started at or after `floor`: the current one, else the next query's. */
  const answer = async (floor: number): Promise<SeaChartVesselsBody> => {
    if (current && current.startedAt >= floor) {
      // A failure here shows to the next caller that waits for a query.
      if (now() - current.startedAt >= reuseMs / 2) refresh().done.catch(() => {});
      return current.body;
    }
    // At most two queries: one started before the floor is followed by one started after it.
    for (;;) {
      const pending = refresh();
      const body = await pending.done;
      if (pending.startedAt >= floor) return body;
    }
  };
  let readAt = Number.NEGATIVE_INFINITY;

  return {
    read() {
      readAt = now();
      return answer(Math.max(readAt - reuseMs, changedAt));
    },
    changed() {
      changedAt = now();
      // Someone is reading: start the next body now, so the next reader waits less (or not at all).
      if (readAt >= changedAt - reuseMs) answer(changedAt).catch(() => {});
    },
    async fresh() {
      await answer(now());
    },
  };
}
