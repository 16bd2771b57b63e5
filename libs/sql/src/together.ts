// Several statements sent as one: one round trip instead of one each, for writes that must go together in a
// transaction and that PostgreSQL may run as data-modifying WITH queries of one statement (they write different
// tables or rows, and none reads what another writes).

/**
 * `statements` as data-modifying CTEs in front of `last` (a statement with no WITH of its own): their parameters
 * renumbered after each other's, a statement's own leading `WITH name AS (...)` lifted beside it, since
 * PostgreSQL takes data-modifying CTEs only at the top level. The text depends only on the statements' texts and
 * how many values each has, and a caller sends the same few combinations again and again: it is built once per
 * combination (togetherText) and looked up after.
 */
export function together(
  statements: readonly { text: string; values: unknown[] }[],
  last: { text: string; values: unknown[] },
): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let node: CombinedTexts | undefined = combinedTexts;
  for (const statement of statements) {
    node = node?.next.get(statement.text)?.get(statement.values.length);
    for (const value of statement.values) values.push(value);
  }
  for (const value of last.values) values.push(value);
  let text = node?.texts.get(last.text);
  if (text === undefined) {
    text = togetherText(statements, last);
    rememberCombined(statements, last.text, text);
  }
  return { text, values };
}

/** Combined texts by the statements' texts and value counts in order, then by the last statement's text. */
interface CombinedTexts {
  next: Map<string, Map<number, CombinedTexts>>;
  texts: Map<string, string>;
}

const combinedTexts: CombinedTexts = { next: new Map(), texts: new Map() };
/** A bound, should texts ever vary beyond the fixed statements (past it, texts are built each time). */
const COMBINED_TEXTS_KEPT = 1000;
let combinedTextsCount = 0;

function rememberCombined(statements: readonly { text: string; values: unknown[] }[], last: string, text: string) {
  if (combinedTextsCount >= COMBINED_TEXTS_KEPT) return;
  let node = combinedTexts;
  for (const statement of statements) {
    let byCount = node.next.get(statement.text);
    if (!byCount) {
      byCount = new Map();
      node.next.set(statement.text, byCount);
    }
    let child = byCount.get(statement.values.length);
    if (!child) {
      child = { next: new Map(), texts: new Map() };
      byCount.set(statement.values.length, child);
    }
    node = child;
  }
  if (!node.texts.has(last)) combinedTextsCount++;
  node.texts.set(last, text);
}

/** together's text, built. */
export function togetherText(
  statements: readonly { text: string; values: unknown[] }[],
  last: { text: string; values: unknown[] },
): string {
  const ctes: string[] = [];
  let offset = 0;
  const renumbered = (text: string) => text.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + offset}`);
  statements.forEach((statement, i) => {
    let text = renumbered(statement.text).trim();
    const own = /^WITH (\w+) AS \(/.exec(text);
    if (own) {
      // The CTE's body ends at the parenthesis that closes the one it opens.
      let depth = 1;
      let at = own[0].length;
      for (; depth > 0; at++) depth += text[at] === '(' ? 1 : text[at] === ')' ? -1 : 0;
      ctes.push(`${own[1]}_${i} AS (${text.slice(own[0].length, at - 1)})`);
      text = text.slice(at).trim();
    }
    ctes.push(`write_${i} AS (${text})`);
    offset += statement.values.length;
  });
  const text = renumbered(last.text);
  return ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n${text}` : text;
}
