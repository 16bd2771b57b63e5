// Raw-model responses of the original carry PostgreSQL's text output of timestamptz with the server at UTC
// (`2020-02-23 20:15:00+00`, fractional seconds only when present, trailing zeros dropped), not ISO 8601.

/** SQL expression rendering a timestamptz expression as PostgreSQL's text output at UTC; NULL stays NULL. */
export function pgTimestampText(column: string): string {
  const utc = `(${column} AT TIME ZONE 'UTC')`;
  return (
    `to_char(${utc}, 'YYYY-MM-DD HH24:MI:SS')` +
    ` || coalesce('.' || nullif(rtrim(to_char(${utc}, 'US'), '0'), ''), '') || '+00'`
  );
}
