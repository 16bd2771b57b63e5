// The gateway's rate limits (docs/security.md#limits), counted by rate-limiter-flexible: in Redis in the fleet, so
// that every gateway process counts together, in memory when embedded (one process). A route names the limits it
// is charged to in its declaration (`rateLimits`); the HTTP kit charges them and answers 429.

import { createHash } from 'node:crypto';
import type { Config, RateLimitRule, RateLimitsConfig } from '@pcas/config';
import { ApiError } from '@pcas/contracts';
import type { RateLimiter, Route } from '@pcas/http-kit';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The limits a route may name, each with the setting that sizes it. */
export const RATE_LIMITS = {
  login_address: 'loginPerAddress',
  login_address_account: 'loginPerAddressAccount',
  reset_address: 'resetPerAddress',
  reset_email: 'resetPerEmail',
  register_address: 'registerPerAddress',
  register_email: 'registerPerEmail',
  vis_address: 'visPerAddress',
} as const satisfies Record<string, keyof RateLimitsConfig>;

export interface RateLimitStore {
  /** The fleet's Redis; absent, each process counts in its own memory. */
  redis?: Redis;
  /** Before every key, so that two deployments (or two test gateways) sharing a Redis never count together. */
  prefix: string;
}

/**
 * The fleet's key prefix: per namespace and database, as the jobs' keys are (libs/jobs jobsPrefixFor), so that
 * fleets on different databases sharing one Redis (test runs, staging beside production) never count together.
 */
export function rateLimitPrefixFor(config: Pick<Config, 'namespace' | 'databaseUrl'>): string {
  let database = '';
  try {
    database = config.databaseUrl ? decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1)) : '';
  } catch {}
  return `pcas:${config.namespace}:limit:${database.replace(/[^A-Za-z0-9_-]/g, '_') || 'default'}:`;
}

/** Refuses at start a route that names a limit this table does not have (it would fail every request). */
export function assertKnownRateLimits(routes: readonly Route[]): void {
  for (const route of routes) {
    for (const { limit } of route.rateLimits ?? []) {
      if (!Object.hasOwn(RATE_LIMITS, limit)) throw new Error(`${route.method} ${route.path}: no rate limit ${limit}`);
    }
  }
}

export function createRateLimits(config: RateLimitsConfig, store: RateLimitStore): RateLimiter {
  const limiters = new Map<string, RateLimiterAbstract>();
  for (const [name, setting] of Object.entries(RATE_LIMITS)) {
    const rule: RateLimitRule | null = config[setting];
    if (rule) limiters.set(name, limiterFor(rule, `${store.prefix}${name}`, store.redis));
  }
  // What the kit counts by (an address, an e-mail) is hashed, so the store holds no e-mail address.
  const storeKey = (key: string) => createHash('sha256').update(key).digest('base64url');

  return {
    async consume(limit, key) {
      const limiter = limiters.get(limit);
      if (!limiter) return; // switched off (`off`)
      try {
        await limiter.consume(storeKey(key));
      } catch (error) {
        // The library rejects with the counter's state when the limit is spent, with an Error when it failed.
        if (error instanceof RateLimiterRes) throw ApiError.tooManyRequests(error.msBeforeNext);
        throw error;
      }
    },
    async refund(limit, key) {
      await limiters.get(limit)?.reward(storeKey(key));
    },
  };
}

function limiterFor(rule: RateLimitRule, keyPrefix: string, redis: Redis | undefined): RateLimiterAbstract {
  const options = { points: rule.points, duration: rule.seconds, keyPrefix };
  if (!redis) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    // While Redis is away each process counts on its own instead of failing (or holding) every request it limits.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}
