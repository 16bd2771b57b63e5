import { openDb } from '@pcas/sql';
import { eventStoreContract } from './contract.ts';

eventStoreContract('PGlite', async () => {
  const db = await openDb({ dataDir: 'memory://' });
  return { db, dispose: () => db.close() };
});
