import Redis from 'ioredis';
import type { Logger } from 'pino';
import { createRateLimiter, type RateLimiter } from './rate-limit';

/**
 * The token bucket of rate-limit.ts, kept in Redis so that every relay behind one load balancer (one
 * egress address on the keys) shares one limit per client address. One script call per request, atomic,
 * with Redis's clock so the relays' clocks need not agree. Returns the wait in ms (0: go ahead).
 */
const TAKE = `
local requests = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or requests
local at = tonumber(b[2]) or now
local perMs = requests / windowMs
tokens = math.min(requests, tokens + math.max(0, now - at) * perMs)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / perMs) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], windowMs)
return wait
`;

type RedisWithTake = Redis & { grcTake(key: string, requests: number, windowMs: number): Promise<number> };

/**
 * A shared limiter backed by Redis. When Redis cannot answer (down, unreachable, slow), the relay keeps
 * serving with its own in-process limit and logs it once, and logs again when Redis is back: losing the
 * shared store must not take the relay down with it.
 */
export function createSharedRateLimiter(
  settings: { requests: number; windowMs: number },
  url: string,
  logger: Logger,
): RateLimiter {
  const local = createRateLimiter(settings);
  const redis = new Redis(url, {
    // Fail at once rather than queue while disconnected: the local limit answers instead.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  }) as RedisWithTake;
  redis.defineCommand('grcTake', { numberOfKeys: 1, lua: TAKE });
  let shared = true;
  const where = url.replace(/\/\/[^@/]*@/, '//');
  const fallBack = (e: unknown) => {
    if (!shared) return;
    shared = false;
    logger.warn(
      { store: where, err: { message: (e as Error)?.message } },
      "rate-limit store unreachable: using this relay's own limit until it is back",
    );
  };
  redis.on('error', fallBack);
  redis.on('ready', () => {
    if (shared) return;
    shared = true;
    logger.info({ store: where }, 'rate-limit store reachable again: the limit is shared');
  });

  const ready = new Promise<void>((resolve) => {
    redis.once('ready', resolve);
    redis.once('error', () => resolve());
  });

  return {
    ready,
    take(address) {
      if (redis.status !== 'ready') {
        fallBack(new Error(`redis ${redis.status}`));
        return local.take(address);
      }
      return redis.grcTake(`grc-relay:rate:${address}`, settings.requests, settings.windowMs).then(
        (wait) => Number(wait),
        (e: unknown) => {
          fallBack(e);
          return local.take(address);
        },
      );
    },
    stop() {
      local.stop();
      redis.disconnect();
    },
  };
}
