// Turns the IALA S-211 state catalogue (data/IALA-211_State_Catalogue.xml) into src/catalogue.generated.json (read
// by src/catalogue.ts), so nothing parses XML at run time. Run after changing the XML: `npx tsx libs/s211/scripts/generate.ts`.
// Ids follow the original app's migration, which inserted Location, then Service, then Administration states,
// each in document order (the XML itself lists Service first).

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const xmlPath = join(root, 'data', 'IALA-211_State_Catalogue.xml');
const outPath = join(root, 'src', 'catalogue.generated.json');

const GROUPS = [
  { group: 'Location', container: 'LocationStates', element: 'LocationState' },
  { group: 'Service', container: 'ServiceStates', element: 'ServiceState' },
  { group: 'Administration', container: 'AdministrationStates', element: 'AdministrationState' },
] as const;

type Raw = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: true,
  // Keep every value a string (ids like "Pilotage_Commenced" and flags like "true" stay as written).
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => GROUPS.some((g) => g.element === name),
});

function text(raw: Raw, key: string, required: boolean): string | undefined {
  const value = raw[key];
  if (value === undefined || value === '') {
    if (required) throw new Error(`State ${JSON.stringify(raw.StateId)} lacks <${key}>`);
    return undefined;
  }
  if (typeof value !== 'string') throw new Error(`<${key}> of ${JSON.stringify(raw.StateId)} is not text`);
  return value;
}

const doc = parser.parse(readFileSync(xmlPath, 'utf8')) as { states: Record<string, Record<string, Raw[]>> };
const lines: string[] = [];
let id = 0;
const seen = new Set<string>();
for (const { group, container, element } of GROUPS) {
  const entries = doc.states[container]?.[element];
  if (!entries?.length) throw new Error(`No <${element}> entries under <${container}>`);
  for (const raw of entries) {
    id += 1;
    const name = text(raw, 'StateId', true)!;
    if (seen.has(name)) throw new Error(`Duplicate StateId ${name}`);
    seen.add(name);
    const critical = text(raw, 'Critical', false);
    const state = {
      id,
      name,
      label: text(raw, 'Name', true),
      description: text(raw, 'Description', true),
      group,
      timeSequence: text(raw, 'TimeSequence', true),
      serviceType: text(raw, 'ServiceType', false),
      serviceObject: text(raw, 'ServiceObject', false),
      referenceObject: text(raw, 'ReferenceObject', false),
      locationType: text(raw, 'LocationType', false),
      critical: critical === undefined ? undefined : critical === 'true',
    };
    // JSON.stringify drops the undefined attributes, so each group keeps only its own fields.
    lines.push(`  ${JSON.stringify(state)}`);
  }
}

// One state a line, so a change to the XML shows as a readable diff.
const out = `[\n${lines.join(',\n')}\n]\n`;
writeFileSync(outPath, out);
console.log(`wrote ${id} states to ${outPath}`);
