// Canonical JSON: the same value gives the same text whoever built it and in whatever key order (jsonb reorders
// keys; two ports serialise a body separately). Used for content-based ids, signatures and comparing values.

// What JSON.stringify escapes in a string: quote, backslash, control characters and (lone) surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify of a string, without the call when nothing needs escaping (most keys and values). */
const jsonString = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/**
 * JSON with object keys sorted (by UTF-16 code units) at every depth and no blanks; an object's undefined members
 * are left out, an undefined array item is null, NaN and the infinities are null, an array hole stays empty. For a
 * JSON value this is JSON.stringify with sorted keys. Built in one string with loops (every timestamp post's id
 * needs it), strings, numbers and booleans written directly.
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
