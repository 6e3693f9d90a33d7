import type { Logger } from 'pino';
import type { StatementPayload } from '../contracts/evidence';

/**
 * Signed statements wait here for the client that made the request, for `ttlMs` (they live on in the
 * workbook, not here). In memory, oldest first, at most `kept` of them (the oldest go early under a flood of
 * calls); with a Redis store (the relays' shared `limits.rateLimit.store`) each is also written there, so
 * the relay behind a load balancer that the client's next request reaches finds it.
 */

export interface StoredStatement {
  /** Who may fetch it: the caller of the request it is about (evidence.ts Caller). */
  owner: string;
  /** The compact JWS; absent while only this relay holds the statement (signed when first fetched). */
  jws?: string;
  /**
   * The claims, to sign when first fetched: kept as they are, not as JSON (most statements are never
   * fetched, and writing each as JSON cost a small GET more than hashing its answer).
   */
  claims?: { jti: string; payload: StatementPayload };
  /** Why the answer has no statement (the relay could not hash it): its fetch says so. */
  unsigned?: string;
}

export interface StatementStore {
  /** Resolves once Redis, if any, is ready or has failed (the relay starts either way). */
  readonly ready: Promise<void>;
  /** Shared with other relays through Redis: what is put must be signed already (Redis holds only signed statements, or why there is none). */
  readonly shared: boolean;
  /** Kept in memory at once; written to Redis without waiting (its command goes out before the answer's end). */
  put(id: string, statement: StoredStatement): void;
  get(id: string): StoredStatement | undefined | Promise<StoredStatement | undefined>;
  stop(): void;
}

const PREFIX = 'grc-relay:statement:';

export function createStatementStore(
  ttlMs: number,
  kept: number,
  logger: Logger,
  redisUrl?: string,
  now: () => number = Date.now,
): StatementStore {
  const memory = new Map<string, { statement: StoredStatement; until: number }>();
  // The ids in the order they came (which is expiry order: one TTL for all), read from `head` on. Not the
  // Map's own order: a Map iterated from its start after many deletions walks over every deleted entry
  // until it is rehashed, which made each put cost thousands of steps under a flood of small calls.
  let order: string[] = [];
  let head = 0;
  // Loaded only by relays that share a store (ioredis costs every relay that loads it; see server.ts).
  const redis = redisUrl
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports
      new (require('ioredis') as typeof import('ioredis')).default(redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 250,
        retryStrategy: (times: number) => Math.min(times * 200, 2_000),
      })
    : null;
  const where = redisUrl?.replace(/\/\/[^@/]*@/, '//');
  let warned = false;
  const unshared = (e: unknown) => {
    if (warned) return;
    warned = true;
    logger.warn(
      { store: where, err: { message: (e as Error)?.message } },
      'statements not shared with the other relays (Redis unreachable): a client whose next call reaches another relay cannot fetch its statement',
    );
  };
  redis?.on('error', unshared);
  redis?.on('ready', () => (warned = false));

  /** Drops expired statements, and the oldest beyond `kept`, from the front. */
  const sweep = (t: number) => {
    while (head < order.length) {
      const id = order[head]!;
      const s = memory.get(id);
      if (s && s.until > t && memory.size <= kept) break;
      memory.delete(id);
      head++;
    }
    if (head > 4096 && head * 2 > order.length) {
      order = order.slice(head);
      head = 0;
    }
  };

  const ready = redis
    ? new Promise<void>((resolve) => {
        redis.once('ready', resolve);
        redis.once('error', () => resolve());
      })
    : Promise.resolve();

  return {
    ready,
    shared: redis !== null,
    put(id, statement) {
      const t = now();
      memory.set(id, { statement, until: t + ttlMs });
      order.push(id);
      sweep(t);
      if (redis && (statement.jws || statement.unsigned))
        redis.set(PREFIX + id, JSON.stringify({ owner: statement.owner, jws: statement.jws, unsigned: statement.unsigned }), 'PX', ttlMs).catch(unshared);
    },
    get(id) {
      const here = memory.get(id);
      if (here && here.until > now()) return here.statement;
      if (!redis || redis.status !== 'ready') return undefined;
      return redis.get(PREFIX + id).then(
        (text) => {
          if (!text) return undefined;
          const s = JSON.parse(text) as StoredStatement;
          return typeof s.owner === 'string' && (typeof s.jws === 'string' || typeof s.unsigned === 'string') ? s : undefined;
        },
        (e: unknown) => {
          unshared(e);
          return undefined;
        },
      );
    },
    stop() {
      redis?.disconnect();
    },
  };
}
