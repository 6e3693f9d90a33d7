/**
 * Per-client-address rate limit: a token bucket of `requests` tokens refilled over `windowMs`, so a burst
 * of a whole window is allowed and the long-run rate is requests/windowMs. The client address is the TCP
 * peer: the relay trusts no X-Forwarded-For.
 */
export interface RateLimiter {
  /** 0 when the request may go ahead, else the milliseconds until a token is back (a promise for a shared store). */
  take(address: string): number | Promise<number>;
  stop(): void;
  /** Settles once the limiter can answer (a shared store connected, or found unreachable). */
  ready?: Promise<void>;
}

export function createRateLimiter(
  { requests, windowMs }: { requests: number; windowMs: number },
  now: () => number = Date.now,
): RateLimiter & { take(address: string): number } {
  const perMs = requests / windowMs;
  const buckets = new Map<string, { tokens: number; at: number }>();
  // Full buckets carry no information; dropping them keeps the map as small as the set of busy clients.
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, b] of buckets) if (b.tokens + (t - b.at) * perMs >= requests) buckets.delete(k);
  }, windowMs);
  sweep.unref();

  return {
    take(address) {
      const t = now();
      const b = buckets.get(address) ?? { tokens: requests, at: t };
      b.tokens = Math.min(requests, b.tokens + (t - b.at) * perMs);
      b.at = t;
      buckets.set(address, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - b.tokens) / perMs);
    },
    stop() {
      clearInterval(sweep);
    },
  };
}
