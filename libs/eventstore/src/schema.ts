// The event store's schema (docs/architecture.md#the-event-store): commit order = (transaction_id,
// global_position).

/** The NOTIFY channel that wakes subscribers. */
export const WAKE_CHANNEL = 'eventstore_events';

/** SQLSTATE raised by eventstore.append on a version conflict; DETAIL carries the actual version. */
export const WRONG_EXPECTED_VERSION = 'ES409';

// One statement per entry: PGlite's query() runs exactly one statement.
const TABLES = [
  'CREATE SCHEMA IF NOT EXISTS eventstore',
  `CREATE TABLE IF NOT EXISTS eventstore.events (
    global_position bigint GENERATED ALWAYS AS IDENTITY,
    transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    stream_id text NOT NULL,
    stream_position bigint NOT NULL,
    event_id uuid NOT NULL,
    event_type text NOT NULL,
    data jsonb NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}',
    created timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_pkey PRIMARY KEY (stream_id, stream_position),
    CONSTRAINT events_stream_event_id UNIQUE (stream_id, event_id)
  )`,
  'CREATE UNIQUE INDEX IF NOT EXISTS events_global_position ON eventstore.events (global_position)',
  'CREATE INDEX IF NOT EXISTS events_commit_order ON eventstore.events (transaction_id, global_position)',
  // A stream's version is its highest position (a backward scan of the primary key); a separate version row
  // cost a second write per append (measured: about a third of the append rate at 16 writers).
  'DROP TABLE IF EXISTS eventstore.streams',
  `CREATE TABLE IF NOT EXISTS eventstore.checkpoints (
    consumer text PRIMARY KEY,
    transaction_id xid8 NOT NULL,
    global_position bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
];

/**
 * An event already stored under (stream, id), found by one probe of the (stream_id, event_id) key. These
 * functions run generic plans, which estimate a stream's size from the average one; with a skewed log (a
 * million-event signal stream among thousands of short vessel streams) a plain \`event_id = ANY (ids)\` filter
 * was planned as a scan of the whole stream (measured: 4 ms at 20,000 events, growing with the stream). The
 * LIMIT keeps the subquery from being flattened into a join the planner could turn into such a scan.
 */
const storedLookup = (stream: string, id: string, columns: string) =>
  `SELECT ${columns} FROM eventstore.events e WHERE e.stream_id = ${stream} AND e.event_id = ${id} LIMIT 1`;

// append's and append_one's check of the stream's version before the append (v_before) against p_expected (NULL
// any, -1 stream exists, 0 no stream, n exact version).
const CHECK_EXPECTED_VERSION = `IF p_expected IS NOT NULL AND ((p_expected = -1 AND v_before = 0) OR (p_expected >= 0 AND v_before <> p_expected)) THEN
    RAISE EXCEPTION USING
      ERRCODE = '${WRONG_EXPECTED_VERSION}',
      MESSAGE = format('wrong expected version for stream %s: expected %s, actual %s', p_stream_id, p_expected, v_before),
      DETAIL = v_before::text;
  END IF;`;

// One round trip per append. p_expected: NULL any, -1 stream exists, 0 no stream, n exact version.
// Generic plans: every statement here has the same shape on every call, so planning each time is waste
// (measured: about a quarter of the function's cost).
const APPEND_FUNCTION = `
CREATE OR REPLACE FUNCTION eventstore.append(
  p_stream_id text,
  p_expected bigint,
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[],
  p_notify boolean
) RETURNS TABLE (event_id uuid, stream_position bigint, global_position bigint, duplicate boolean, stream_version bigint)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  v_count integer := cardinality(p_ids);
  v_stored_ids uuid[];
  v_version bigint;
  v_before bigint;
BEGIN
  -- Appenders to one stream queue here BEFORE they take a transaction id (the first write below assigns it).
  -- Readers order by transaction id, so ids must follow stream order: a waiter that had taken its id before the
  -- holder did would sort ahead of it (seen: position 11 delivered before 10). The lock is held to the end of
  -- the transaction and released after its commit is visible, so everything below sees the previous holder's
  -- events. A caller appending inside its own transaction must therefore append before its other writes.
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream_id, 0));
  SELECT COALESCE(max(e.stream_position), 0) INTO v_before FROM eventstore.events e WHERE e.stream_id = p_stream_id;

  -- Ids already in the stream are a retry: reported with their stored positions, never stored twice.
  -- Checked under the lock, so a retry racing its original finds the original's events. One probe of the
  -- (stream_id, event_id) key per id (see STORED_LOOKUP).
  IF v_before > 0 THEN
    SELECT array_agg(s.event_id) INTO v_stored_ids
      FROM unnest(p_ids) AS i (id)
      CROSS JOIN LATERAL (${storedLookup('p_stream_id', 'i.id', 'e.event_id')}) s;
  END IF;
  v_version := v_before + v_count - COALESCE(cardinality(v_stored_ids), 0);

  -- A retry of a whole append succeeds whatever version the stream has reached since.
  IF cardinality(v_stored_ids) IS DISTINCT FROM v_count THEN
    ${CHECK_EXPECTED_VERSION}

    -- PostgreSQL serializes the commits of transactions that NOTIFY (one database-wide lock held through
    -- commit), so the caller asks for it only now and then (see wake.ts).
    IF p_notify THEN
      PERFORM pg_notify('${WAKE_CHANNEL}', '');
    END IF;

    IF v_stored_ids IS NULL THEN
      -- The common case: one plain statement.
      RETURN QUERY
        INSERT INTO eventstore.events AS e (stream_id, stream_position, event_id, event_type, data, metadata)
        SELECT p_stream_id, v_before + i.ord, i.id, i.type, i.data, i.metadata
          FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i (id, type, data, metadata, ord)
        RETURNING e.event_id, e.stream_position, e.global_position, false, v_version;
      RETURN;
    END IF;

    -- Part of a retried append: store the rest after the stream's end (ids are distinct: the caller dedupes).
    INSERT INTO eventstore.events (stream_id, stream_position, event_id, event_type, data, metadata)
    SELECT p_stream_id, v_before + row_number() OVER (ORDER BY i.ord), i.id, i.type, i.data, i.metadata
      FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i (id, type, data, metadata, ord)
     WHERE i.id <> ALL (v_stored_ids)
     ORDER BY i.ord;
  END IF;

  RETURN QUERY
    SELECT e.event_id, e.stream_position, e.global_position, e.event_id = ANY (v_stored_ids), v_version
      FROM unnest(p_ids) WITH ORDINALITY AS i (id, ord)
      CROSS JOIN LATERAL (${storedLookup('p_stream_id', 'i.id', 'e.event_id, e.stream_position, e.global_position')}) e
     ORDER BY i.ord;
END
$fn$;
`;

// The same for one event, the common case (a data source's timestamp): scalar parameters and one output row.
// Measured with pgbench at 16 writers: about 15% more appends/s than append with one-element arrays (no array
// building and unnesting, no set-returning call). No plan_cache_mode here: a SET clause on a function saves and
// restores the setting on every call, and these statements are planned generically after a few calls anyway.
const APPEND_ONE_FUNCTION = `
CREATE OR REPLACE FUNCTION eventstore.append_one(
  p_stream_id text,
  p_expected bigint,
  p_id uuid,
  p_type text,
  p_data jsonb,
  p_metadata jsonb,
  p_notify boolean,
  OUT event_id uuid,
  OUT stream_position bigint,
  OUT global_position bigint,
  OUT duplicate boolean,
  OUT stream_version bigint
)
LANGUAGE plpgsql
AS $fn$
#variable_conflict use_column
DECLARE
  v_before bigint;
BEGIN
  -- The stream's lock before the first write, as in append (the transaction id must follow stream order).
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream_id, 0));
  SELECT COALESCE(max(e.stream_position), 0) INTO v_before FROM eventstore.events e WHERE e.stream_id = p_stream_id;
  event_id := p_id;

  -- Stored already: a retry, which succeeds whatever version the stream has reached since.
  IF v_before > 0 THEN
    SELECT e.stream_position, e.global_position INTO stream_position, global_position
      FROM eventstore.events e WHERE e.stream_id = p_stream_id AND e.event_id = p_id;
    IF FOUND THEN
      duplicate := true;
      stream_version := v_before;
      RETURN;
    END IF;
  END IF;

  ${CHECK_EXPECTED_VERSION}

  IF p_notify THEN
    PERFORM pg_notify('${WAKE_CHANNEL}', '');
  END IF;

  INSERT INTO eventstore.events AS e (stream_id, stream_position, event_id, event_type, data, metadata)
    VALUES (p_stream_id, v_before + 1, p_id, p_type, p_data, p_metadata)
    RETURNING e.global_position INTO global_position;
  stream_position := v_before + 1;
  duplicate := false;
  stream_version := v_before + 1;
END
$fn$;
`;

// Many streams in one round trip and one transaction, expected version "any" (a data source's batch). Every
// stream lock is taken before the first write, in one global order (lock key ascending): the same ordering
// rule as append, and two batches never wait on each other in a cycle. Rows of p_stream_ids/p_ids/... are one
// per event; a stream's events are stored in input order; ids must be distinct per stream (the caller dedupes).
const APPEND_MANY_FUNCTION = `
CREATE OR REPLACE FUNCTION eventstore.append_many(
  p_stream_ids text[],
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[],
  p_notify boolean
) RETURNS TABLE (event_id uuid, stream_id text, stream_position bigint, global_position bigint, duplicate boolean,
  stream_version bigint)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  v_key bigint;
  v_stored uuid[];
BEGIN
  FOR v_key IN SELECT DISTINCT hashtextextended(s, 0) AS k FROM unnest(p_stream_ids) AS s ORDER BY k LOOP
    PERFORM pg_advisory_xact_lock(v_key);
  END LOOP;

  SELECT array_agg(s.event_id) INTO v_stored
    FROM unnest(p_stream_ids, p_ids) AS i (stream_id, id)
    CROSS JOIN LATERAL (${storedLookup('i.stream_id', 'i.id', 'e.event_id')}) s;

  IF p_notify THEN
    PERFORM pg_notify('${WAKE_CHANNEL}', '');
  END IF;

  -- The events not stored yet go at their streams' ends. When none was stored before (the common case) the
  -- inserted rows are the answer, a stream's version its highest position inserted; the statement's insert runs
  -- to its end either way (a data-modifying WITH always does).
  RETURN QUERY
    WITH inserted AS (
      INSERT INTO eventstore.events AS e (stream_id, stream_position, event_id, event_type, data, metadata)
      SELECT i.stream_id,
             v.version + row_number() OVER (PARTITION BY i.stream_id ORDER BY i.ord),
             i.id, i.type, i.data, i.metadata
        FROM unnest(p_stream_ids, p_ids, p_types, p_data, p_metadata) WITH ORDINALITY
               AS i (stream_id, id, type, data, metadata, ord)
        JOIN (SELECT s.stream_id,
                     COALESCE((SELECT max(e.stream_position) FROM eventstore.events e WHERE e.stream_id = s.stream_id), 0)
                       AS version
                FROM (SELECT DISTINCT x AS stream_id FROM unnest(p_stream_ids) AS x) s) v ON v.stream_id = i.stream_id
       WHERE v_stored IS NULL OR i.id <> ALL (v_stored)
       ORDER BY i.ord
      RETURNING e.event_id, e.stream_id, e.stream_position, e.global_position
    )
    SELECT n.event_id, n.stream_id, n.stream_position, n.global_position, false,
           max(n.stream_position) OVER (PARTITION BY n.stream_id)
      FROM inserted n
     WHERE v_stored IS NULL;
  IF v_stored IS NULL THEN
    RETURN;
  END IF;

  -- Some were stored before (a retry): every given event with its stored place.
  RETURN QUERY
    SELECT e.event_id, e.stream_id, e.stream_position, e.global_position, e.event_id = ANY (COALESCE(v_stored, '{}')),
           (SELECT max(l.stream_position) FROM eventstore.events l WHERE l.stream_id = i.stream_id)
      FROM unnest(p_stream_ids, p_ids) WITH ORDINALITY AS i (stream_id, id, ord)
      CROSS JOIN LATERAL (${storedLookup('i.stream_id', 'i.id', 'e.event_id, e.stream_id, e.stream_position, e.global_position')}) e
     ORDER BY i.ord;
END
$fn$;
`;

/** Statements for init(), run in one transaction. */
export const SCHEMA_STATEMENTS = [...TABLES, APPEND_FUNCTION, APPEND_ONE_FUNCTION, APPEND_MANY_FUNCTION];
