/**
 * Issue 11: the relay under attack and overload. Each block reproduces one weakness the relay had.
 */
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get as httpGet } from 'node:http';
import { request } from 'undici';
import { createCatalog, isJsonMediaType } from '../../src/catalog';
import { createBodyBudget } from '../../src/relay/body-budget';
import { memoisedMatch } from '../../src/relay/match-memo';
import { startSandbox } from '../../src/sandbox';
import {
  AUTH,
  answerJson,
  errorCode,
  rawGet,
  rawRequest,
  startFakeUpstream,
  startTestRelay,
  type FakeUpstream,
  type Handler,
} from './helpers';

const RISK = '/api/acc/directdata/v3/risk';
const RISIKO = '/api/acc/directdata/v1/risiko';
const TASKS = '/api/acc/taskdata/v1/tasks';
const ORIGIN = 'https://addin.example.com';

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
beforeEach(() => {
  upstream.requests.length = 0;
  upstream.handler = answerJson;
});
afterAll(() => upstream.close());

/** A service that answers every request with the bytes given, as written (no HTTP library in between). */
async function rawUpstream(answer: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => socket.once('data', () => socket.end(answer)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A raw connection to the relay, from a given loopback address (all of 127.0.0.0/8 is local). */
function openRaw(port: number, localAddress = '127.0.0.1'): Socket {
  return connect({ port, host: '127.0.0.1', localAddress });
}

/** A GET from a given loopback address (another user of the relay). */
function getFrom(
  port: number,
  localAddress: string,
  path: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(
      { host: '127.0.0.1', port, path, localAddress, agent: false, headers: { authorization: AUTH } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    ).on('error', reject);
  });
}

describe('1. response headers copied from the service', () => {
  it('never lets a header value add a header: U+010D U+010A in a file name is sent as RFC 6266 filename*', async () => {
    const crlf = Buffer.from('\u010d\u010a', 'utf8');
    const answer = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: 5\r\n'),
      Buffer.from('content-disposition: attachment; filename="risks'),
      crlf,
      Buffer.from('Set-Cookie: session=stolen'),
      crlf,
      Buffer.from('.csv"\r\ncontent-language: de'),
      crlf,
      Buffer.from('X-Injected: 1\r\n\r\nhello'),
    ]);
    const fake = await rawUpstream(answer);
    const { relay } = await startTestRelay({ url: fake.url } as FakeUpstream);
    try {
      // A raw socket: a client library would refuse or fold a broken header instead of showing it.
      const res = await rawRequest(relay.port, rawGet(RISK));
      expect(res.status).toBe(200);
      const lines = res.raw.split('\r\n\r\n')[0]!.split('\r\n');
      expect(lines.filter((l) => /^set-cookie\s*:/i.test(l))).toEqual([]);
      expect(lines.filter((l) => /^x-injected\s*:/i.test(l))).toEqual([]);
      for (const line of lines) expect(line).toMatch(/^[\t\x20-\x7e]*$/);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="risks__Set-Cookie: session=stolen__.csv"; filename*=UTF-8''risks%C4%8D%C4%8ASet-Cookie%3A%20session%3Dstolen%C4%8D%C4%8A.csv`,
      );
      // Any other copied header holding non-ASCII is dropped.
      expect(res.headers['content-language']).toBeUndefined();
      expect(res.body).toBe('hello');
    } finally {
      await relay.close(100);
      fake.server.close();
    }
  });
});

/** 256 MiB for the risk dataset, written with backpressure: far more than the socket buffers between relay and client hold. */
const hugeRiskAnswer: Handler = (req, res) => {
  if (!req.url!.includes('/risk')) return answerJson(req, res, '');
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', String(256 * chunk.length));
  let sent = 0;
  const pump = () => {
    while (sent < 256) {
      sent++;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = 256));
  pump();
};

/** A client from `from` that asks for the huge risk answer and reads nothing; resolved once the upstream has the request. */
async function stuckReader(port: number, from: string): Promise<Socket> {
  const arrived = upstream.nextRequest();
  const s = openRaw(port, from);
  s.on('error', () => undefined);
  s.pause();
  s.write(rawGet(RISK, { connection: 'keep-alive' }));
  await arrived;
  return s;
}

/** At least one client was cut for not reading, and each cut call is logged as aborted. */
function expectCutsLogged(lines: string[]): void {
  const cut = lines.filter((l) => l.includes('client stopped reading'));
  expect(cut.length).toBeGreaterThanOrEqual(1);
  for (const line of cut) expect(JSON.parse(line).status).toBe('aborted');
}

describe('2. CORS on every answer to an allowed origin', () => {
  it("carries CORS on the relay's own 429 and other refusals, and preflights use no tokens", async () => {
    const { relay } = await startTestRelay(upstream, {
      limits: { rateLimit: { requests: 1, windowMs: 3_600_000 } },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const pre = await request(relay.url + RISK, {
          method: 'OPTIONS',
          headers: {
            origin: ORIGIN,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
        await pre.body.text();
        expect(pre.statusCode).toBe(204);
        expect(pre.headers['access-control-allow-origin']).toBe(ORIGIN);
      }
      const headers = { origin: ORIGIN, authorization: AUTH };
      const first = await request(relay.url + RISK, { headers });
      await first.body.text();
      expect(first.statusCode).toBe(200);
      const limited = await request(relay.url + RISK, { headers });
      expect(errorCode(await limited.body.text())).toBe('rate-limited');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['access-control-allow-origin']).toBe(ORIGIN);
      const exposed = String(limited.headers['access-control-expose-headers']).toLowerCase();
      expect(exposed).toContain('retry-after');
      expect(exposed).toContain('x-grc-relay-error');
      expect(limited.headers['retry-after']).toBeDefined();
      // A refusal decided before the API routes: still readable by the page.
      const target = await rawRequest(relay.port, rawGet('//evil.example/x', { origin: ORIGIN }));
      expect(target.status).toBe(400);
      expect(target.headers['access-control-allow-origin']).toBe(ORIGIN);
      // Another origin gets no CORS headers, whatever the answer.
      const other = await request(relay.url + RISK, {
        headers: { ...headers, origin: 'https://evil.example' },
      });
      await other.body.text();
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await relay.close(100);
    }
  });
});

describe('2b. refusals Node raises before there is a request', () => {
  it("answers malformed framing in the relay's error format, with CORS when the Origin line is allowed", async () => {
    const { relay } = await startTestRelay(upstream);
    const smuggle = (origin: string) =>
      `POST ${TASKS} HTTP/1.1\r\nhost: relay.test\r\norigin: ${origin}\r\nauthorization: ${AUTH}\r\ncontent-type: application/json\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`;
    try {
      const res = await rawRequest(relay.port, smuggle(ORIGIN));
      expect(res.status).toBe(400);
      expect(res.headers['x-grc-relay-error']).toBe('bad-request');
      expect(errorCode(res.body)).toBe('bad-request');
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(res.headers['access-control-expose-headers']).toContain('X-Grc-Relay-Error');
      expect(res.headers['vary']).toBe('Origin');
      // Another origin, or two Origin lines that differ: the same refusal, no CORS.
      const other = await rawRequest(relay.port, smuggle('https://evil.example'));
      expect(other.status).toBe(400);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const two = await rawRequest(relay.port, smuggle(`${ORIGIN}\r\norigin: https://evil.example`));
      expect(two.headers['x-grc-relay-error']).toBe('bad-request');
      expect(two.headers['access-control-allow-origin']).toBeUndefined();
      // A bad header line (no colon) is refused the same way.
      const garbled = await rawRequest(
        relay.port,
        `GET ${RISK} HTTP/1.1\r\nhost: relay.test\r\norigin: ${ORIGIN}\r\nthis is no header\r\n\r\n`,
      );
      expect(garbled.status).toBe(400);
      expect(errorCode(garbled.body)).toBe('bad-request');
      expect(garbled.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await relay.close(100);
    }
  });
});

describe('3. clients that stop reading', () => {
  it('cuts a client that takes no bytes, frees its upstream connection, and serves other users meanwhile', async () => {
    upstream.handler = hugeRiskAnswer;
    const environments = {
      acc: { baseUrl: `${upstream.url}/api`, connections: 2 },
    };
    const { relay, log } = await startTestRelay(upstream, {
      environments,
      limits: { clientWriteTimeoutMs: 300 },
    });
    const stuck: Socket[] = [];
    try {
      // As many stuck readers as the pool has connections, from two addresses (one address may only
      // take half the pool): they read nothing at all.
      for (const from of ['127.0.0.1', '127.0.0.3']) stuck.push(await stuckReader(relay.port, from));
      const closed = stuck.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));
      // Another user's call needs one of the two upstream connections: it gets one once a stuck client is cut.
      const other = await getFrom(relay.port, '127.0.0.2', RISIKO);
      expect(other.status).toBe(200);
      expect(other.body).toContain('00000000-0000-4000-8000-000000000001');
      stuck.forEach((s) => s.resume());
      await Promise.all(closed);
      expectCutsLogged(log.lines);
    } finally {
      stuck.forEach((s) => s.destroy());
      await relay.close(100);
    }
  });

  it('under load, cuts stuck readers from many addresses long before clientWriteTimeoutMs', async () => {
    upstream.handler = hugeRiskAnswer;
    const { relay, log } = await startTestRelay(upstream, {
      environments: { acc: { baseUrl: `${upstream.url}/api`, connections: 3 } },
      // Without the shorter deadline under load, the other user would wait ten minutes.
      limits: { clientWriteTimeoutMs: 600_000, clientStallUnderLoadMs: 200 },
    });
    const stuck: Socket[] = [];
    try {
      // One stuck reader per address, as many as the pool has connections: every connection is held.
      for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4'])
        stuck.push(await stuckReader(relay.port, from));
      const other = await getFrom(relay.port, '127.0.0.5', RISIKO);
      expect(other.status).toBe(200);
      expect(other.body).toContain('00000000-0000-4000-8000-000000000001');
      expectCutsLogged(log.lines);
    } finally {
      stuck.forEach((s) => s.destroy());
      await relay.close(100);
    }
  });
});

describe('3b. calls in flight per address', () => {
  it('refuses a call beyond callsInFlightPerAddress, so one address cannot take every upstream connection', async () => {
    const held: import('node:http').ServerResponse[] = [];
    upstream.handler = (_req, res) => void held.push(res);
    const { relay } = await startTestRelay(upstream, { limits: { callsInFlightPerAddress: 2 } });
    try {
      const pending: Promise<Awaited<ReturnType<typeof request>>>[] = [];
      for (let i = 0; i < 2; i++) {
        const arrived = upstream.nextRequest();
        pending.push(request(relay.url + RISK, { headers: { authorization: AUTH } }));
        await arrived;
      }
      const third = await request(relay.url + RISK, { headers: { authorization: AUTH } });
      expect(third.statusCode).toBe(429);
      expect(errorCode(await third.body.text())).toBe('too-many-in-flight');
      expect(third.headers['retry-after']).toBe('1');
      expect(upstream.requests).toHaveLength(2);
      upstream.handler = answerJson;
      held.forEach((res) => answerJson(res.req, res, ''));
      for (const p of pending) expect((await (await p).body.text()).length).toBeGreaterThan(0);
      const after = await request(relay.url + RISK, { headers: { authorization: AUTH } });
      await after.body.text();
      expect(after.statusCode).toBe(200);
    } finally {
      await relay.close(100);
    }
  });
});

describe('4. buffered request bodies', () => {
  it('bounds the bytes held across all connections and per address', () => {
    const budget = createBodyBudget(100, 60);
    expect(budget.take('a', 50)).toBe(true);
    expect(budget.take('a', 20)).toBe(false);
    expect(budget.take('b', 50)).toBe(true);
    expect(budget.take('c', 1)).toBe(false);
    budget.give('a', 50);
    expect(budget.take('c', 40)).toBe(true);
    expect(budget.held).toBe(90);
  });

  it('refuses a body with 503 relay-busy when unfinished bodies from the address hold its share', async () => {
    const { relay } = await startTestRelay(upstream, {
      limits: { bodyBytes: 100_000, bufferedBodyBytesPerAddress: 48 * 1024, bodyTimeoutMs: 60_000 },
    });
    const holder = openRaw(relay.port);
    holder.on('error', () => undefined);
    try {
      // An unfinished upload: 40 KiB of a declared 100,000 bytes, then nothing.
      holder.write(
        `POST ${TASKS} HTTP/1.1\r\nhost: relay.test\r\nauthorization: ${AUTH}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`,
      );
      holder.write(Buffer.alloc(40 * 1024, 0x20));
      const body = `{"Name":"${'n'.repeat(40 * 1024)}"}`;
      // Once the holder's bytes are in, a second 40 KiB body from the same address cannot be held too.
      let refused: Awaited<ReturnType<typeof request>> | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await request(relay.url + TASKS, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body,
        });
        if (res.statusCode === 503) refused = res;
        else await res.body.text();
      }
      expect(refused).toBeDefined();
      expect(errorCode(await refused!.body.text())).toBe('relay-busy');
      expect(refused!.headers['retry-after']).toBe('1');
      const sent = upstream.requests.length;
      // The holder goes away: its bytes are given back and the same body goes through.
      const gone = new Promise((resolve) => holder.once('close', resolve));
      holder.destroy();
      await gone;
      let ok = 0;
      for (let i = 0; i < 200 && ok !== 200; i++) {
        const res = await request(relay.url + TASKS, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body,
        });
        await res.body.text();
        ok = res.statusCode;
      }
      expect(ok).toBe(200);
      expect(upstream.requests.length).toBe(sent + 1);
    } finally {
      holder.destroy();
      await relay.close(100);
    }
  });

  it('answers 408 body-timeout to a body that stops arriving, long before the request timeout', async () => {
    const { relay } = await startTestRelay(upstream, {
      limits: { bodyTimeoutMs: 200, requestTimeoutMs: 600_000 },
    });
    try {
      const res = await rawRequest(
        relay.port,
        `POST ${TASKS} HTTP/1.1\r\nhost: relay.test\r\nauthorization: ${AUTH}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"Name":`,
      );
      expect(res.status).toBe(408);
      expect(errorCode(res.body)).toBe('body-timeout');
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await relay.close(100);
    }
  });
});

describe('5. the path memo', () => {
  it('remembers only paths that matched the catalogue, so made-up paths add nothing', () => {
    const match = memoisedMatch(createCatalog());
    for (let i = 0; i < 200; i++) {
      expect(match('GET', `/directdata/v3/${i}${'x'.repeat(15_000)}`).ok).toBe(false);
      expect(match('GET', `/made/up/${i}`).ok).toBe(false);
    }
    expect(match.size).toBe(0);
    expect(match('GET', '/directdata/v3/risk').ok).toBe(true);
    expect(match('GET', '/directdata/v3/risk').ok).toBe(true);
    expect(match.size).toBe(1);
  });
});

describe('also', () => {
  it('does not serve a symlink inside staticDir that points at a dot file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-static-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>grc-sheets</title>');
    writeFileSync(join(dir, '.env'), 'SECRET=dotfile-content');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), 'git-config-content');
    symlinkSync(join(dir, '.env'), join(dir, 'config.txt'));
    symlinkSync(join(dir, '.git'), join(dir, 'assets', 'repo'));
    const { relay } = await startTestRelay(upstream, { staticDir: dir });
    try {
      for (const target of ['/config.txt', '/assets/repo/config']) {
        const res = await rawRequest(relay.port, rawGet(target));
        expect(res.status).toBe(404);
        expect(res.body).not.toContain('content');
      }
      expect((await rawRequest(relay.port, rawGet('/index.html'))).status).toBe(200);
    } finally {
      await relay.close(100);
    }
  });

  it("answers a request without Host in the relay's error format", async () => {
    const { relay } = await startTestRelay(upstream);
    try {
      const res = await rawRequest(
        relay.port,
        `GET ${RISK} HTTP/1.1\r\nauthorization: ${AUTH}\r\nconnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(400);
      expect(res.headers['x-grc-relay-error']).toBe('no-host');
      expect(errorCode(res.body)).toBe('no-host');
      expect(upstream.requests).toHaveLength(0);
      // HTTP/1.0 had no Host: a load balancer's health check may still send none.
      const health = await rawRequest(relay.port, 'GET /healthz HTTP/1.0\r\n\r\n');
      expect(health.status).toBe(200);
    } finally {
      await relay.close(100);
    }
  });

  it('takes the same JSON media types as the sandbox (one rule)', async () => {
    const types = [
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/problem+json',
      'application/merge-patch+json',
      'text/json',
      'application/jsonx',
    ];
    const { relay } = await startTestRelay(upstream);
    const sandbox = await startSandbox({ port: 0, scale: 5 });
    try {
      const demo = sandbox.demoKey!;
      const sandboxAuth = `Basic ${Buffer.from(`${demo.identifier}:${demo.password}`).toString('base64')}`;
      for (const type of types) {
        const viaRelay = await request(relay.url + TASKS, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': type },
          body: '{}',
        });
        await viaRelay.body.text();
        const atSandbox = await request(`${sandbox.url}/taskdata/v1/tasks`, {
          method: 'POST',
          headers: { authorization: sandboxAuth, 'content-type': type },
          body: '{}',
        });
        await atSandbox.body.text();
        const expected = isJsonMediaType(type);
        expect([type, viaRelay.statusCode === 415]).toEqual([type, !expected]);
        expect([type, atSandbox.statusCode === 415]).toEqual([type, !expected]);
      }
    } finally {
      await relay.close(100);
      await sandbox.close();
    }
  });
});
