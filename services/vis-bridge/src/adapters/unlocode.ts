// UN/LOCODE coordinates from the bundled code lists (data/unlocode, one file a country, as the original): the
// departure sent to a next port carries that port's position. A country's file is read once, when first asked.

import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { parseLocodeCoordinates } from '../domain/outgoing.ts';

const DATA_DIR = new URL('../../data/unlocode/', import.meta.url);

const countries = new Map<string, Promise<Map<string, { lat: number; lon: number }>>>();

async function loadCountry(country: string): Promise<Map<string, { lat: number; lon: number }>> {
  const out = new Map<string, { lat: number; lon: number }>();
  let text: string;
  try {
    text = await readFile(new URL(`code-list-${country}.csv`, DATA_DIR), 'utf8');
  } catch {
    return out;
  }
  const rows: string[][] = parse(text, { relax_column_count: true, skip_empty_lines: true });
  for (const row of rows) {
    const position = parseLocodeCoordinates(row[10] ?? '');
    if (position && row[1] && row[2]) out.set(`${row[1]}${row[2]}`, position);
  }
  return out;
}

/** The coordinates of a UN/LOCODE such as FIRAU, or undefined when the code or its position is not listed. */
export async function locodeCoordinates(code: string): Promise<{ lat: number; lon: number } | undefined> {
  const locode = code.trim().toUpperCase();
  const country = locode.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(country)) return undefined;
  let loaded = countries.get(country);
  if (!loaded) {
    loaded = loadCountry(country);
    countries.set(country, loaded);
  }
  return (await loaded).get(locode);
}
