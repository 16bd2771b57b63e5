import { openDb } from '@pcas/sql';
import { freshPostgres } from '@pcas/testing';
import { eventStoreContract } from './contract.ts';

eventStoreContract('PostgreSQL', async () => {
  const server = await freshPostgres('pcas_es');
  if (!server.url) throw new Error('the PostgreSQL contract run needs a real PostgreSQL');
  const db = await openDb({ url: server.url, poolSize: 8 });
  return {
    db,
    dispose: async () => {
      await db.close();
      await server.drop();
    },
  };
});
