// How a mapped DCSA time reaches the activity timeline: posted to ingest over cmd.ingest as a data source posts
// (the partner's API key as the actor, so its priorities apply), concurrent posts gathered into one RPC as the
// gateway does for the agent API (docs/dcsa.md#mapping).

import {
  type Actor,
  ApiError,
  type CommandBody,
  INGEST,
  IngestCommands,
  MAX_TIMESTAMP_BATCH,
  type PostTimestampCommand,
  type PostTimestampsCommand,
  type TimestampReceived,
} from '@pcas/contracts';
import type { Bus } from '@pcas/messaging';
import { gatheredRpc } from '@pcas/messaging';

/** A time for the timeline, as the vessel's TimestampReceived will hold it, but `time` any ISO 8601 instant. */
export type TimelinePost = Pick<
  TimestampReceived,
  'imo' | 'vessel_name' | 'time_type' | 'state' | 'time' | 'payload'
> & {
  manual: boolean;
};

/** What ingest said: stored (or already stored), or refused with its 4xx message. Anything else throws. */
export type TimelineAnswer = { status: 'posted' } | { status: 'refused'; error: string };

export type PostToTimeline = (actor: Actor, post: TimelinePost) => Promise<TimelineAnswer>;

/** `YYYY-MM-DDThh:mm:ss+00:00`, the agent API's time format. */
export const agentTimeOf = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19)}+00:00`;

export function timelineLink(bus: Bus): PostToTimeline {
  const post = gatheredRpc<PostTimestampsCommand['items'][number], unknown>(
    bus,
    INGEST,
    IngestCommands.postTimestamps,
    // The posts of a batch of requests come in one burst and leave as one (see createBatcher).
    { maxItems: MAX_TIMESTAMP_BATCH, sameTurn: true },
  );
  return async (actor, p) => {
    const input: PostTimestampCommand = {
      imo: p.imo,
      vessel_name: p.vessel_name,
      time_type: p.time_type,
      state: p.state,
      time: agentTimeOf(p.time),
      payload: p.payload,
      manual: p.manual,
    };
    const body: CommandBody<PostTimestampCommand> = { actor, input };
    try {
      await post({ body });
      return { status: 'posted' };
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        return { status: 'refused', error: `${error.status} ${error.message}` };
      }
      throw error;
    }
  };
}
