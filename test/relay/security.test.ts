import { gzipSync } from 'node:zlib';
import { createServer, type AddressInfo } from 'node:net';
import { request } from 'undici';
import type { Relay } from '../../src/relay';
import {
  AUTH,
  errorCode,
  rawGet,
  rawRequest,
  SECRETS,
  selfSignedCertificate,
  startFakeUpstream,
  startTestRelay,
  answerJson,
  type FakeUpstream,
} from './helpers';

const RISK = '/api/acc/directdata/v3/risk';
const TASKS = '/api/acc/taskdata/v1/tasks';
const ORIGIN = 'https://addin.example.com';

let upstream: FakeUpstream;
let relay: Relay;
let logLines: string[];
/** Every body the relay answered in this file, checked for the credential at the end. */
const bodies: string[] = [];

async function get(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  const res = await request(relay.url + path, {
    method: method as 'GET',
    headers: { authorization: AUTH, ...headers },
    body,
  });
  const text = await res.body.text();
  bodies.push(text);
  return { status: res.statusCode, headers: res.headers, body: text };
}

/** A task create through the relay: the write the body, content-type and retry rules are about. */
const postTask = (body: string, contentType = 'application/json') =>
  get(TASKS, { 'content-type': contentType }, 'POST', body);

async function raw(text: string) {
  const answer = await rawRequest(relay.port, text);
  bodies.push(answer.raw);
  return answer;
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const started = await startTestRelay(upstream, { limits: { bodyBytes: 1024, upstreamTimeoutMs: 400 } });
  relay = started.relay;
  logLines = started.log.lines;
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.handler = answerJson;
});

afterAll(async () => {
  await relay.close(100);
  await upstream.close();
});

describe('relay security', () => {
  it('forwards a catalogued call to the environment, with the upstream path built from the catalogue', async () => {
    const res = await get(RISK);
    expect(res.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]).toMatchObject({ method: 'GET', url: '/api/directdata/v3/risk' });
    expect(upstream.requests[0]!.headers.authorization).toBe(AUTH);
  });

  it.each([
    ['encoded slash', '/api/acc/directdata/v3/..%2F..%2Fadmin'],
    ['encoded dots', '/api/acc/directdata/%2e%2e/v3/risk'],
    ['encoded dots (upper case)', '/api/acc/%2E%2E/acc/directdata/v3/risk'],
    ['double encoding', '/api/acc/directdata/v3/%252e%252e/risk'],
    ['encoded backslash', '/api/acc/directdata%5cv3%5crisk'],
    ['plain dot segments', '/api/acc/directdata/../directdata/v3/risk'],
    ['empty segment', '/api/acc//directdata/v3/risk'],
    ['scheme-relative //host', '//evil.example/api/acc/directdata/v3/risk'],
    ['//host after the environment', '/api/acc//evil.example/directdata/v3/risk'],
    ['semicolon parameter', '/api/acc/directdata/v3/risk;x=1'],
    ['NUL byte', '/api/acc/directdata/v3/risk%00'],
  ])('refuses encoded traversal (%s) with nothing sent upstream', async (_name, target) => {
    const res = await raw(rawGet(target));
    expect([400, 404]).toContain(res.status);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses an absolute-form request target and does not proxy to the host it names', async () => {
    const res = await raw(rawGet(`http://127.0.0.1:${upstream.port}/api/directdata/v3/risk`));
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe('bad-request-target');
    const https = await raw(rawGet(`https://evil.example${RISK}`));
    expect(https.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses CONNECT', async () => {
    const res = await raw(
      `CONNECT 127.0.0.1:${upstream.port} HTTP/1.1\r\nhost: 127.0.0.1:${upstream.port}\r\n\r\n`,
    );
    expect(res.status).toBe(405);
    expect(upstream.requests).toHaveLength(0);
  });

  it('ignores a spoofed Host and X-Forwarded-* headers: the upstream sees its own host and no forwarding headers', async () => {
    const res = await raw(
      rawGet(RISK, {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        'x-forwarded-for': '10.0.0.1',
        forwarded: 'host=evil.example',
      }),
    );
    expect(res.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    const seen = upstream.requests[0]!.headers;
    expect(seen.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(seen['x-forwarded-host']).toBeUndefined();
    expect(seen['x-forwarded-proto']).toBeUndefined();
    expect(seen['x-forwarded-for']).toBeUndefined();
    expect(seen.forwarded).toBeUndefined();
  });

  it.each([
    ['unknown environment', '/api/dev/directdata/v3/risk', 'unknown-environment'],
    ['encoded environment name', '/api/%61cc/directdata/v3/risk', 'unknown-environment'],
    ['a URL as the environment', '/api/http:%2F%2Fevil.example/directdata/v3/risk', 'unknown-environment'],
    ['a host as the environment', '/api/evil.example:443/directdata/v3/risk', 'unknown-environment'],
    ['a URL in the path', '/api/acc/http://evil.example/directdata/v3/risk', 'not-catalogued'],
    [
      'an encoded URL in the path',
      '/api/acc/https%3A%2F%2Fevil.example%2Fapi/directdata/v3/risk',
      'not-catalogued',
    ],
    ['an uncatalogued path', '/api/acc/admin/users', 'not-catalogued'],
    ['a URL in the query', `${RISK}?url=http://evil.example/`, 'query-not-allowed'],
  ])('refuses %s with nothing sent upstream', async (_name, target, code) => {
    const res = await raw(rawGet(target));
    expect([400, 404]).toContain(res.status);
    expect(errorCode(res.body)).toBe(code);
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ['POST', RISK, 'GET'],
    ['PUT', RISK, 'GET'],
    ['DELETE', RISK, 'GET'],
    ['PATCH', TASKS, 'POST'],
    ['GET', TASKS, 'POST'],
  ])('answers %s on %s with 405 and Allow: %s', async (method, path, allow) => {
    const res = await raw(rawGet(path, { 'content-length': '0' }, method));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses unlisted query parameters', async () => {
    for (const q of ['?$top=10', '?page=2', '?a', '?']) {
      const res = await raw(rawGet(`${RISK}${q}`));
      expect(res.status).toBe(400);
      expect(errorCode(res.body)).toBe('query-not-allowed');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('does not follow an upstream redirect: it becomes a 502', async () => {
    upstream.handler = (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${upstream.port}/elsewhere` }).end();
    };
    const res = await get(RISK);
    expect(res.status).toBe(502);
    expect(errorCode(res.body)).toBe('upstream-redirect');
    expect(res.headers.location).toBeUndefined();
    expect(upstream.requests.map((r) => r.url)).toEqual(['/api/directdata/v3/risk']);
  });

  it('forwards no hop-by-hop or Connection-named request headers, and nothing off its allowlist', async () => {
    const res = await raw(
      rawGet(RISK, {
        connection: 'close, x-named, accept-language',
        'x-named': 'secret',
        'accept-language': 'nl',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        upgrade: 'h2c',
        'proxy-authorization': 'Basic cHJveHk6cHJveHk=',
        'proxy-connection': 'keep-alive',
        cookie: 'session=1',
        'x-custom': '1',
        // The client's write reference is for the relay's receipt only.
        'x-grc-write-ref': '0f8fad5b-d9cb-469f-a165-70867728950e',
        accept: 'application/json',
      }),
    );
    expect(res.status).toBe(200);
    const seen = upstream.requests[0]!.headers;
    for (const h of [
      'x-named',
      'accept-language',
      'keep-alive',
      'te',
      'upgrade',
      'proxy-authorization',
      'proxy-connection',
      'cookie',
      'x-custom',
      'x-grc-write-ref',
    ])
      expect(seen[h]).toBeUndefined();
    expect(seen.accept).toBe('application/json');
    expect(seen.authorization).toBe(AUTH);
  });

  it('drops hop-by-hop, Connection-named, Set-Cookie and CORS headers from the upstream answer', async () => {
    upstream.handler = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('connection', 'x-upstream-secret');
      res.setHeader('x-upstream-secret', '1');
      res.setHeader('keep-alive', 'timeout=99');
      res.setHeader('set-cookie', 'session=abc; HttpOnly');
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('www-authenticate', 'Basic realm="x"');
      res.setHeader('x-powered-by', 'service');
      res.end('[]');
    };
    const res = await get(RISK, { origin: 'https://evil.example' }).then(() => get(RISK));
    expect(res.status).toBe(200);
    expect(res.headers['keep-alive']).not.toBe('timeout=99');
    for (const h of [
      'x-upstream-secret',
      'set-cookie',
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'www-authenticate',
      'x-powered-by',
    ])
      expect(res.headers[h]).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['Content-Length and Transfer-Encoding together', 'content-length: 5\r\ntransfer-encoding: chunked\r\n'],
    ['two different Content-Lengths', 'content-length: 5\r\ncontent-length: 6\r\n'],
    ['an obfuscated Transfer-Encoding', 'transfer-encoding: chunked\r\ntransfer-encoding : x\r\n'],
  ])('refuses a request with %s', async (_name, framing) => {
    const res = await raw(
      `POST /api/acc/taskdata/v1/tasks HTTP/1.1\r\nhost: relay.test\r\nauthorization: ${AUTH}\r\ncontent-type: application/json\r\n${framing}\r\n0\r\n\r\n`,
    );
    expect(res.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers a CORS preflight from an allowed origin exactly, with Authorization listed and no credentials flag', async () => {
    const res = await get(
      TASKS,
      {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
      'OPTIONS',
    );
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    // The catalogue's own (unbound) calls are GET and POST only: PUT and PATCH are not advertised.
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, X-Grc-Write-Ref');
    expect(res.headers.vary).toBe('Origin');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ['https://evil.example'],
    ['null'],
    ['https://addin.example.com.evil.example'],
    ['http://addin.example.com'],
    ['https://ADDIN.example.com'],
  ])('answers a preflight from %s without Allow-Origin', async (origin) => {
    const res = await get(
      RISK,
      { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      'OPTIONS',
    );
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
    expect(res.status).toBe(403);
    // Not a bare 403: the relay's error, saying what to do.
    expect(res.headers['x-grc-relay-error']).toBe('origin-not-allowed');
    expect(JSON.parse(res.body).error.message).toMatch(/allowedOrigins/);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers an OPTIONS that is no preflight (no Origin) with a clear refusal', async () => {
    const res = await get(RISK, {}, 'OPTIONS');
    expect(res.status).toBe(403);
    expect(res.headers['x-grc-relay-error']).toBe('origin-not-allowed');
    expect(JSON.parse(res.body).error.message).toMatch(/only as a CORS preflight/);
  });

  it('adds Allow-Origin to an answer for an allowed origin and refuses a call from any other page', async () => {
    const allowed = await get(RISK, { origin: ORIGIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(allowed.headers.vary).toBe('Origin');
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
    upstream.requests.length = 0;
    const other = await get(RISK, { origin: 'null' });
    expect(other.status).toBe(403);
    expect(errorCode(other.body)).toBe('origin-not-allowed');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it("marks its own refusals with X-Grc-Relay-Error, readable cross-origin, and never passes the service's on", async () => {
    const refused = await get('/api/acc/not/a/catalogued/call', { origin: ORIGIN });
    expect(refused.status).toBe(404);
    expect(refused.headers['x-grc-relay-error']).toBe('not-catalogued');
    expect(String(refused.headers['access-control-expose-headers']).split(', ')).toContain(
      'X-Grc-Relay-Error',
    );
    const framing = await raw(
      `POST ${TASKS} HTTP/1.1\r\nhost: relay.test\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\n`,
    );
    expect(framing.headers['x-grc-relay-error']).toBe('bad-request');
    upstream.handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-grc-relay-error': 'rate-limited' });
      res.end(JSON.stringify({ error: { code: 'rate-limited', message: 'from the service' } }));
    };
    const service = await get(RISK, { origin: ORIGIN });
    expect(service.status).toBe(400);
    expect(service.headers['x-grc-relay-error']).toBeUndefined();
  });

  it.each([
    ['no Authorization', {}],
    ['a Bearer token', { authorization: 'Bearer abc' }],
    ['an empty Basic', { authorization: 'Basic ' }],
    ['Authorization named in Connection', { connection: 'close, authorization' }],
  ])('refuses a call with %s with 401 before any upstream call', async (_name, headers) => {
    const res = await raw(rawGet(RISK, { authorization: '', ...headers }).replace('authorization: \r\n', ''));
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe('no-credentials');
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses an oversize body with 413, by Content-Length or while reading a chunked body, with nothing sent', async () => {
    const big = JSON.stringify({ Name: 'x'.repeat(2000), ResponsibleUser: 'u' });
    const declared = await postTask(big);
    expect(declared.status).toBe(413);
    expect(errorCode(declared.body)).toBe('body-too-large');
    const chunk = `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
    const chunked = await raw(
      `POST /api/acc/taskdata/v1/tasks HTTP/1.1\r\nhost: relay.test\r\nauthorization: ${AUTH}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${chunk}`,
    );
    expect(chunked.status).toBe(413);
    expect(upstream.requests).toHaveLength(0);
  });

  it('accepts only JSON on POST and refuses a body on GET', async () => {
    const form = await postTask('a=1', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    const broken = await postTask('{"Name":');
    expect(broken.status).toBe(400);
    expect(errorCode(broken.body)).toBe('invalid-json');
    const getBody = await raw(rawGet(RISK, { 'content-length': '2' }).replace(/\r\n\r\n$/, '\r\n\r\n{}'));
    expect(getBody.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
    const ok = await postTask('{"Name":"n"}', 'application/json; charset=utf-8');
    expect(ok.status).toBe(200);
    expect(upstream.requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/taskdata/v1/tasks',
      body: '{"Name":"n"}',
    });
    expect(upstream.requests[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers 504 upstream-timeout when the upstream stalls', async () => {
    upstream.handler = () => undefined;
    const res = await get(RISK);
    expect(res.status).toBe(504);
    expect(errorCode(res.body)).toBe('upstream-timeout');
    expect(upstream.requests).toHaveLength(1);
  });

  it('passes a gzip body through byte for byte', async () => {
    const gz = gzipSync(Buffer.from(JSON.stringify([{ Id: 'a' }, { Id: 'b' }])));
    upstream.handler = (_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': gz.length,
        })
        .end(gz);
    const res = await request(relay.url + RISK, {
      headers: { authorization: AUTH, 'accept-encoding': 'gzip' },
    });
    const got = Buffer.from(await res.body.arrayBuffer());
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(got.equals(gz)).toBe(true);
    // A dataset download is asked for uncompressed, so the relay's statement hashes what the client reads
    // (docs/relay.md, "What the relay signs"); a service that compresses anyway gets no statement.
    expect(upstream.requests[0]!.headers['accept-encoding']).toBe('identity');
    expect(res.headers['x-grc-sheets-statement']).toBeUndefined();
  });

  it('aborts the upstream request when the client goes away', async () => {
    upstream.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    };
    const arrived = upstream.nextRequest();
    const controller = new AbortController();
    const res = await request(relay.url + RISK, {
      headers: { authorization: AUTH },
      signal: controller.signal,
    });
    const { req } = await arrived;
    const upstreamClosed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    controller.abort();
    await res.body.text().catch(() => undefined);
    await upstreamClosed;
    expect(req.socket.destroyed).toBe(true);
  });

  it('never retries a POST, and retries a GET once when the connection breaks before an answer', async () => {
    upstream.handler = (req) => req.socket.destroy();
    const post = await postTask('{"Name":"n"}');
    expect(post.status).toBe(502);
    expect(errorCode(post.body)).toBe('upstream-failed');
    expect(upstream.requests).toHaveLength(1);

    upstream.requests.length = 0;
    let calls = 0;
    upstream.handler = (req, res, body) =>
      ++calls === 1 ? req.socket.destroy() : answerJson(req, res, body);
    const getRes = await get(RISK);
    expect(getRes.status).toBe(200);
    expect(upstream.requests).toHaveLength(2);
  });

  it('answers 502 upstream-unreachable when nothing could be sent', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const { relay: r2 } = await startTestRelay({ ...upstream, url: `http://127.0.0.1:${closedPort}` });
    try {
      const res = await request(r2.url + RISK, { headers: { authorization: AUTH } });
      const body = await res.body.text();
      bodies.push(body);
      expect(res.statusCode).toBe(502);
      expect(errorCode(body)).toBe('upstream-unreachable');
      expect(JSON.parse(body).error.message).toMatch(/nothing was sent/);
    } finally {
      await r2.close(100);
    }
  });

  it('refuses an upstream whose TLS certificate it does not trust (fail closed), and trusts it once given its CA', async () => {
    const cert = selfSignedCertificate();
    const tlsUpstream = await startFakeUpstream(cert);
    const untrusting = await startTestRelay(tlsUpstream);
    const trusting = await startTestRelay(tlsUpstream, {
      environments: { acc: { baseUrl: `${tlsUpstream.url}/api`, ca: cert.certFile } },
    });
    try {
      const res = await request(untrusting.relay.url + RISK, { headers: { authorization: AUTH } });
      const body = await res.body.text();
      bodies.push(body);
      expect(res.statusCode).toBe(502);
      expect(errorCode(body)).toBe('upstream-untrusted-certificate');
      expect(JSON.parse(body).error.message).toMatch(/certificate/);
      expect(tlsUpstream.requests).toHaveLength(0);
      const ok = await request(trusting.relay.url + RISK, { headers: { authorization: AUTH } });
      await ok.body.text();
      expect(ok.statusCode).toBe(200);
      expect(tlsUpstream.requests).toHaveLength(1);
    } finally {
      await untrusting.relay.close(100);
      await trusting.relay.close(100);
      await tlsUpstream.close();
    }
  });

  it('limits the rate per client address with 429 and Retry-After', async () => {
    const limited = await startTestRelay(upstream, {
      limits: { rateLimit: { requests: 3, windowMs: 60_000 } },
    });
    try {
      const statuses: number[] = [];
      let retryAfter: string | string[] | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await request(limited.relay.url + RISK, { headers: { authorization: AUTH } });
        bodies.push(await res.body.text());
        statuses.push(res.statusCode);
        retryAfter ??= res.statusCode === 429 ? res.headers['retry-after'] : undefined;
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(upstream.requests).toHaveLength(3);
    } finally {
      await limited.relay.close(100);
    }
  });

  it('logs route, environment, status, bytes, duration and a key tag, and the credential in no log line and no body', async () => {
    await get(RISK);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const call = lines.filter((l) => l.route === 'risk' && l.status === 200).at(-1);
    expect(call).toMatchObject({ env: 'acc', route: 'risk', status: 200, bytes: expect.any(Number) });
    expect(call!.durationMs).toEqual(expect.any(Number));
    expect(call!.key).toMatch(/^[0-9a-f]{12}$/);
    expect(bodies.length).toBeGreaterThan(30);
    for (const text of [...logLines, ...bodies])
      for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});
