/**
 * Two relays behind one load balancer share their sign-outs through the Redis they share their rate limit
 * with: a token signed out at one is refused at the other. Real redis-server on a free loopback port, real
 * demo provider.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import { startSignedInRelay, type SignedInRelay } from './harness';
import { REDIRECT_URI, respelt, signIn } from './sign-in';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const RISK = '/api/acc/directdata/v3/risk';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

let redis: ChildProcess;
let provider: DemoProvider;
let a: SignedInRelay;
let b: SignedInRelay;

beforeAll(async () => {
  const port = await freePort();
  redis = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    redis.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    redis.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
  });
  provider = await startDemoProvider({ redirectUris: [REDIRECT_URI] });
  const shared = { limits: { rateLimit: { store: `redis://127.0.0.1:${port}` } } };
  a = await startSignedInRelay(provider, shared);
  b = await startSignedInRelay(provider, shared);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await provider?.close();
  redis?.kill();
});

/** Asks relay b until the sign-out reached it (a published message: no fixed wait), at most 5 s. */
async function refusedAt(relay: SignedInRelay, token: string): Promise<string | null> {
  const until = Date.now() + 5000;
  for (;;) {
    const answer = await relay.call(RISK, token);
    if (answer.status === 401) return answer.headers.get('x-grc-relay-error');
    if (Date.now() > until) return null;
  }
}

test('a token signed out at one relay is refused at the other, even where it was already served', async () => {
  const token = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
  const other = (await signIn(provider, 'riley', 'reporting-demo')).access_token;
  expect((await a.call(RISK, token)).status).toBe(200);
  expect((await b.call(RISK, token)).status).toBe(200);
  expect((await a.call('/api/auth/sign-out', token, { method: 'POST' })).status).toBe(204);
  expect((await a.call(RISK, token)).status).toBe(401);
  expect(await refusedAt(b, token)).toBe('signed-out');
  // What was shared is the token's content key, not its text: no spelling of it gets through at b either.
  for (const variant of Object.values(respelt(token))) expect((await b.call(RISK, variant)).status).toBe(401);
  expect((await b.call(RISK, other)).status).toBe(200);
});
