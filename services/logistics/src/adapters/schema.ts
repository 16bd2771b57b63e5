// The logistics schema: its read models, served by the gateway (docs/architecture.md#services), set up the one
// way every owner sets up its schema (setUpSchema).

import { type Db, setUpSchema } from '@pcas/sql';
import { GATE_PASSAGES_DDL } from './gate-passages.ts';

const DDL: string[] = ['CREATE SCHEMA IF NOT EXISTS logistics', ...GATE_PASSAGES_DDL];

/** Creates the schema if missing; idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'logistics', DDL);
}
