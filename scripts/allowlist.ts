// The allowlists of the lint checks (check-code-size.ts, check-sql-owners.ts): a `<file> <what>` entry a line,
// `#` lines saying why. Each entry maps to its line number, so a check can name the entry that matches nothing.

import { readFileSync } from 'node:fs';

export function readAllowlist(path: string): Map<string, number> {
  const allowed = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return allowed;
  }
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line !== '' && !line.startsWith('#')) allowed.set(line.split(/\s+/).slice(0, 2).join(' '), i + 1);
  });
  return allowed;
}
