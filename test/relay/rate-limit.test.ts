import { createRateLimiter } from '../../src/relay/rate-limit';

describe('rate limiter', () => {
  it('allows a burst of a whole window, then one request per refill interval, per address', () => {
    let now = 0;
    const limiter = createRateLimiter({ requests: 3, windowMs: 3000 }, () => now);
    try {
      expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
      expect(limiter.take('a')).toBe(1000);
      expect(limiter.take('b')).toBe(0);
      now = 400;
      expect(limiter.take('a')).toBe(600);
      now = 1000;
      expect(limiter.take('a')).toBe(0);
      expect(limiter.take('a')).toBe(1000);
    } finally {
      limiter.stop();
    }
  });
});
