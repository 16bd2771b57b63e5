// The gateway as its own process (fleet mode): sessions in Redis.

import { runMain } from '@pcas/runtime';
import { Redis } from 'ioredis';
import { createRedisSessionStore } from '../adapters/session-store.ts';
import { startGateway } from './service.ts';

runMain('gateway', async (deps) => {
  const redis = new Redis(deps.config.redisUrl!, { lazyConnect: false });
  const sessions = createRedisSessionStore(redis, {
    ttlSeconds: deps.config.sessionTtlSeconds,
    prefix: `pcas:${deps.config.namespace}:session:`,
  });
  const gateway = await startGateway({ ...deps, sessions });
  return {
    stop: async () => {
      await gateway.stop();
      await redis.quit();
    },
  };
});
