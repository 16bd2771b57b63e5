// Turns the port-call templates (data/port-call-templates/<namespace>.txt) into
// src/port-call-templates.generated.json (imported by src/port-call-templates.ts), so the library stays pure data
// (no file reads at run time). Run after changing or adding a template:
// `npx tsx libs/s211/scripts/generate-templates.ts`.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'data', 'port-call-templates');
const outPath = join(root, 'src', 'port-call-templates.generated.json');

/** Namespace → the template's entries as written, one `group:time_type:state[:k=v,...]` per line. */
const templates: Record<string, string[]> = {};
for (const file of readdirSync(dataDir).sort()) {
  if (!file.endsWith('.txt')) continue;
  const namespace = file.slice(0, -'.txt'.length);
  if (!/^[a-z][a-z0-9_]*$/.test(namespace)) throw new Error(`Template file name is not a namespace: ${file}`);
  templates[namespace] = readFileSync(join(dataDir, file), 'utf8')
    .split(/[;\n]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

writeFileSync(outPath, `${JSON.stringify(templates, null, 2)}\n`);
console.log(`wrote ${Object.keys(templates).length} templates to ${outPath}`);
