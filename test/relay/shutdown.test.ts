/**
 * Graceful shutdown (SIGTERM in production): the relay stops taking new calls but lets a download in
 * flight stream to its end before it closes.
 */
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { request } from 'undici';
import { AUTH, startFakeUpstream, startTestRelay, type FakeUpstream } from './helpers';

const RISK = '/api/acc/directdata/v3/risk';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

describe('graceful shutdown', () => {
  it('finishes a stream in flight, refuses new connections, then closes', async () => {
    const half = Buffer.alloc(512 * 1024, 0x62);
    let answer!: ServerResponse;
    const started = new Promise<void>((resolve) => {
      upstream.handler = (_req, res) => {
        answer = res;
        res.setHeader('content-type', 'application/json');
        res.setHeader('content-length', String(2 * half.length));
        res.write(half);
        resolve();
      };
    });
    const { relay } = await startTestRelay(upstream);
    const res = await request(relay.url + RISK, { headers: { authorization: AUTH } });
    expect(res.statusCode).toBe(200);
    await started;
    const body = res.body.arrayBuffer();
    let closed = false;
    const closing = relay.close(60_000).then(() => (closed = true));
    // New connections are refused from now on.
    const refused = await new Promise<string>((resolve) => {
      const s = connect(relay.port, '127.0.0.1');
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(closed).toBe(false);
    // The service sends the rest: the client gets every byte, and only then does the relay finish closing.
    answer.end(half);
    expect((await body).byteLength).toBe(2 * half.length);
    await closing;
    expect(closed).toBe(true);
  });
});
