import Redis from 'ioredis';
import type { Logger } from 'pino';

/**
 * Sign-outs shared by every relay on one Redis (the `limits.rateLimit.store` of the relays behind one load
 * balancer): a relay that signs a token out publishes its hash and expiry, and every relay (itself
 * included) refuses it from then on. Nothing is asked of Redis per request. When Redis is unreachable a
 * sign-out still holds at the relay that took it, and the log says it was not shared.
 */
const CHANNEL = 'grc-relay:signed-out';

export interface SignOutChannel {
  publish(hash: string, until: number): void;
  stop(): void;
}

export function createSignOutChannel(
  url: string,
  logger: Logger,
  onSignedOut: (hash: string, until: number) => void,
): SignOutChannel {
  const options = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times: number) => Math.min(times * 200, 2_000),
  };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  const where = url.replace(/\/\/[^@/]*@/, '//');
  for (const r of [publisher, subscriber]) r.on('error', () => undefined);
  subscriber
    .subscribe(CHANNEL)
    .catch((e: unknown) =>
      logger.warn(
        { store: where, err: { message: (e as Error).message } },
        'sign-outs of other relays are not heard: Redis unreachable',
      ),
    );
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      const { h, u } = JSON.parse(message) as { h: unknown; u: unknown };
      if (typeof h === 'string' && typeof u === 'number') onSignedOut(h, u);
    } catch {
      // Not ours: ignored.
    }
  });
  return {
    publish(hash, until) {
      publisher
        .publish(CHANNEL, JSON.stringify({ h: hash, u: until }))
        .catch((e: unknown) =>
          logger.warn(
            { store: where, err: { message: (e as Error).message } },
            'sign-out not shared with the other relays (Redis unreachable): only this relay refuses the token',
          ),
        );
    },
    stop() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
