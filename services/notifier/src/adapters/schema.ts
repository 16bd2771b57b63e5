// The notifier's schema: its read models, served by the gateway (docs/architecture.md#services). Each area adds
// its statements to DDL; they run in order under one advisory lock, so several processes may start together.

import { decidedCommandsTableSql } from '@pcas/commands';
import { type Db, setUpSchema } from '@pcas/sql';
import { COPIES_DDL } from './copies.ts';
import { NOTIFICATIONS_DDL } from './notifications.ts';
import { PINS_DDL } from './pins.ts';
import { PUSHES_DDL } from './push-jobs.ts';
import { PUSH_TOKENS_DDL } from './push-tokens.ts';

const DDL: string[] = [
  'CREATE SCHEMA IF NOT EXISTS notifier',
  ...PINS_DDL,
  ...NOTIFICATIONS_DDL,
  ...PUSH_TOKENS_DDL,
  ...COPIES_DDL,
  ...PUSHES_DDL,
  decidedCommandsTableSql('notifier'),
];

/** Creates the schema if missing (setUpSchema); idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'notifier', DDL);
}
