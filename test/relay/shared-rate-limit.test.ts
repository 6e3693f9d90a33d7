/**
 * Two relays behind one load balancer share one rate limit through Redis; when Redis goes, each keeps
 * serving with its own limit and says so in its log. Uses a real redis-server (Debian package redis-server,
 * installed by .ci/run), started here on a free loopback port with nothing written to disk.
 */
import { request } from 'undici';
import type { Relay } from '../../src/relay';
import { AUTH, captureLog, errorCode, startFakeUpstream, baseConfig, type FakeUpstream } from './helpers';
import { startRelay } from '../../src/relay';
import { startRedis } from './redis';

const RISK = '/api/acc/directdata/v3/risk';

/** Resolves when a log line containing `text` has been written. */
function waitForLine(log: ReturnType<typeof captureLog>, text: string): Promise<string> {
  return new Promise((resolve) => {
    const found = log.lines.find((l) => l.includes(text));
    if (found) return resolve(found);
    const write = log.write;
    log.write = (s: string) => {
      write(s);
      if (s.includes(text)) resolve(s);
    };
  });
}

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

async function call(relay: Relay): Promise<{ status: number; code?: string }> {
  const res = await request(relay.url + RISK, { headers: { authorization: AUTH } });
  const body = await res.body.text();
  return { status: res.statusCode, code: errorCode(body) };
}

describe('rate limit shared by two relays (rateLimit.store)', () => {
  it('holds one limit across both relays, and falls back to each relay’s own when Redis is down', async () => {
    const redis = await startRedis();
    const logs = [captureLog(), captureLog()];
    const relays: Relay[] = [];
    try {
      for (const log of logs)
        relays.push(
          await startRelay(
            baseConfig(upstream, {
              limits: { rateLimit: { requests: 3, windowMs: 3_600_000, store: redis.url } },
            }),
            { logDestination: log },
          ),
        );
      const [a, b] = relays as [Relay, Relay];
      // Three tokens in all, whichever relay the balancer picks.
      expect((await call(a)).status).toBe(200);
      expect((await call(b)).status).toBe(200);
      expect((await call(a)).status).toBe(200);
      expect(await call(b)).toEqual({ status: 429, code: 'rate-limited' });
      expect(await call(a)).toEqual({ status: 429, code: 'rate-limited' });

      // Redis goes away: each relay keeps serving under its own (still unused) local limit, and logs it.
      const said = logs.map((log) => waitForLine(log, 'rate-limit store unreachable'));
      redis.process.kill('SIGKILL');
      await redis.stopped;
      await Promise.all(said);
      expect((await call(a)).status).toBe(200);
      expect((await call(b)).status).toBe(200);
      const line = JSON.parse((await said[0])!) as { level: number; msg: string };
      expect(line.level).toBe(40);
      expect(line.msg).toContain("using this relay's own limit");
    } finally {
      await Promise.all(relays.map((r) => r.close(100)));
      redis.process.kill('SIGKILL');
    }
  });
});
