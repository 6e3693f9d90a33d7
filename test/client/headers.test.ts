import { basicAuthorization } from '../../src/client/basic-auth';
import { retryAfterMs } from '../../src/client/retry-after';

describe('Basic credentials', () => {
  it('encodes identifier:password as UTF-8 base64, non-ASCII and long passwords included', () => {
    expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    const long = '€'.repeat(50_000);
    expect(Buffer.from(basicAuthorization('ïd', long).slice(6), 'base64').toString('utf8')).toBe(
      `ïd:${long}`,
    );
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP dates; a past date is 0; garbage and absence are undefined', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
