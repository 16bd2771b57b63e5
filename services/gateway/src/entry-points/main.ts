// The gateway as its own process (fleet mode): sessions and rate limits in Redis, shared by every gateway process.

import { runMain } from '@pcas/runtime';
import { Redis } from 'ioredis';
import { createRateLimits, rateLimitPrefixFor } from '../adapters/rate-limits.ts';
import { createRedisSessionStore } from '../adapters/session-store.ts';
import { startGateway } from './service.ts';

runMain('gateway', async (deps) => {
  const redis = new Redis(deps.config.redisUrl!, { lazyConnect: false });
  const sessions = createRedisSessionStore(redis, {
    ttlSeconds: deps.config.sessionTtlSeconds,
    prefix: `pcas:${deps.config.namespace}:session:`,
  });
  const rateLimiter = createRateLimits(deps.config.rateLimits, { redis, prefix: rateLimitPrefixFor(deps.config) });
  const gateway = await startGateway({ ...deps, sessions, rateLimiter });
  return {
    stop: async () => {
      await gateway.stop();
      await redis.quit();
    },
  };
});
