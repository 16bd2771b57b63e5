// Pure helpers shared by both buses, the relay and the projection consumer: AMQP topic matching, routing keys
// of events, retry delays and lock ids. No I/O here.

/** Stream category: the stream id before the first '-' (`vessel-9201827` → `vessel`), as in EventStoreDB. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}

/** Routing key of an event on the `events` exchange: `<stream category>.<event type>`. */
export function eventRoutingKey(event: { streamId: string; type: string }): string {
  return `${streamCategory(event.streamId)}.${event.type}`;
}

/**
 * AMQP topic semantics: words split on '.', `*` matches exactly one word, `#` zero or more words. Matching on
 * word arrays (not a regex) so that empty words and literal regex characters need no special care.
 */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const p = pattern.split('.');
  const k = routingKey.split('.');
  // memo[i][j]: does p[i..] match k[j..]? '#' makes naive recursion exponential on patterns like '#.#.#'.
  const memo = new Map<number, boolean>();
  const match = (i: number, j: number): boolean => {
    const key = i * (k.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === p.length) result = j === k.length;
    else if (p[i] === '#') result = match(i + 1, j) || (j < k.length && match(i, j + 1));
    else result = j < k.length && (p[i] === '*' || p[i] === k[j]) && match(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

const escapeRegex = (word: string) => word.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/**
 * The same topic pattern as an anchored regular expression (valid in JavaScript and PostgreSQL), matched against
 * '.' + routing key. Every word is written with its leading dot so '#' can stand for zero words.
 */
export function topicPatternToRegex(pattern: string): string {
  const parts = pattern.split('.').map((word) => {
    if (word === '#') return '(?:\\.[^.]*)*';
    if (word === '*') return '\\.[^.]*';
    return `\\.${escapeRegex(word)}`;
  });
  return `^${parts.join('')}$`;
}

/** One regex for several bindings (any of them). */
export function bindingsToRegex(bindings: string[]): string {
  return bindings.map((b) => `(?:${topicPatternToRegex(b)})`).join('|');
}

/**
 * Stream categories a consumer can receive through its bindings; ['*'] when a binding starts with a wildcard
 * (any category).
 */
export function bindingCategories(bindings: string[]): string[] {
  const categories = new Set<string>();
  for (const binding of bindings) {
    const first = binding.split('.')[0];
    if (first === '*' || first === '#') return ['*'];
    categories.add(first);
  }
  return [...categories].sort();
}

/** Short exponential backoff between handler attempts: 50 ms, 100 ms, 200 ms ... capped. */
export function retryDelayMs(attempt: number, baseMs = 50, maxMs = 2_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
