// Event types shared between services, one file per area (events-*.ts, re-exported here). An event's `type` is
// the name of its data interface; the routing key on the bus is `<stream category>.<type>` (e.g.
// `vessel.TimestampReceived`). Data is plain JSON, snake_case like the API.

/** Who caused a change: the acting user, and the API key when a data source posted it. */
export interface Actor {
  user_id: number | null;
  api_key_id: number | null;
}

// The events by area, one file each (each section there names its streams and their owner):
export * from './events-gateway.ts';
export * from './events-logistics.ts';
export * from './events-notifier.ts';
export * from './events-vessel.ts';
