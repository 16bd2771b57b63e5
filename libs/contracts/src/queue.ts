// ---- cmd.queue-scheduler: the just-in-time arrival queue (berths, nominations, berth reservations, slot
// requests, live ETA). Streams, events and commands of the queue-scheduler service. ----

export const QUEUE_SCHEDULER = 'queue-scheduler';
