// Deterministic event ids: the event store stores an id once per stream, so deriving the TimestampReceived id
// from the timestamp's content makes a re-post of the same timestamp a no-op (the original's duplicate check).

import { createHash } from 'node:crypto';

// Fixed namespace of this service's name-based UUIDs; changing it would break deduplication of old posts.
const NAMESPACE = Buffer.from('5d0f4c3e8a1b4f6c9e2d7a3b1c0e9f48', 'hex');

// What JSON.stringify escapes in a string: quote, backslash, control characters and (lone) surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify of a string, without the call when nothing needs escaping (most keys and values). */
const jsonString = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/**
 * JSON with object keys sorted at every depth, so key order never changes the result. Built in one string with
 * loops, strings, numbers and booleans written directly (every post's id needs it): the same text as
 * JSON.stringify of each part, array holes included.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      // Number::toString, as JSON.stringify writes finite numbers (-0 as 0); NaN and the infinities are null.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return JSON.stringify(value) ?? 'null';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // A hole stays empty (as Array.prototype.map and join leave it); undefined is null, as JSON has it.
      if (!(i in value)) continue;
      const item = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${jsonString(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** RFC 4122 version-5 (SHA-1, name-based) UUID of `name` in this service's namespace. */
export function uuidV5(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
