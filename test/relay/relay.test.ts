import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { Agent } from 'undici';
import { run } from '../../src/cli/relay';
import { environmentSummaries } from '../../src/contracts/environments';
import { loadRelayConfig, parseRelayConfig, RelayConfigError } from '../../src/relay';
import { bindPaths } from '../catalog/bind-paths';
import {
  AUTH,
  errorCode,
  rawGet,
  rawRequest,
  selfSignedCertificate,
  startFakeUpstream,
  startTestRelay,
  type FakeUpstream,
  relayViews,
} from './helpers';

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.requests.length = 0;
});

function staticDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-static-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>grc-sheets</title>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'taskpane.js'), 'console.log(1)');
  writeFileSync(join(dir, 'manifest.xml'), '<OfficeApp/>');
  writeFileSync(join(dir, '.env'), 'SECRET=1');
  const outside = mkdtempSync(join(tmpdir(), 'relay-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'outside');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
  return dir;
}

describe('relay', () => {
  it('lists the configured environments for the picker (names and production only), each view on its own route', async () => {
    const { relay } = await startTestRelay(upstream);
    try {
      const res = await request(`${relay.url}/api/environments`);
      expect(res.statusCode).toBe(200);
      const body = await res.body.json();
      // What the taskpane needs at start, nothing more: no binding, no endpoints.
      expect(body).toEqual([
        { name: 'acc', production: false },
        { name: 'prd', production: true },
      ]);
      expect(environmentSummaries.parse(body)).toHaveLength(2);
      const views = await relayViews(relay.url);
      expect(views.map((e) => [e.name, e.production, e.binding])).toEqual([
        ['acc', false, null],
        ['prd', true, null],
      ]);
      for (const path of ['/api/environments/nope', '/api/environments/acc/x', '/api/environments/%61cc']) {
        const missing = await request(`${relay.url}${path}`);
        expect([missing.statusCode, missing.headers['x-grc-relay-error']]).toEqual([404, 'unknown-environment']);
        await missing.body.text();
      }
      const posted = await request(`${relay.url}/api/environments/acc`, { method: 'POST' });
      expect(posted.statusCode).toBe(405);
      await posted.body.text();
    } finally {
      await relay.close();
    }
  });

  it('answers /healthz without touching the upstream', async () => {
    const { relay } = await startTestRelay(upstream);
    try {
      const res = await request(`${relay.url}/healthz`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ status: 'ok' });
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await relay.close();
    }
  });

  it('serves the built add-in at / with content types and page security headers, and nothing outside its folder', async () => {
    const { relay } = await startTestRelay(upstream, { staticDir: staticDir() });
    try {
      const index = await request(`${relay.url}/`);
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(index.headers['x-content-type-options']).toBe('nosniff');
      expect(String(index.headers['content-security-policy'])).toContain(
        'frame-ancestors https://*.office.com',
      );
      expect(index.headers['x-frame-options']).toBeUndefined();
      expect(await index.body.text()).toContain('grc-sheets');
      const etag = String(index.headers.etag);
      const again = await request(`${relay.url}/index.html`, { headers: { 'if-none-match': etag } });
      await again.body.text();
      expect(again.statusCode).toBe(304);
      const js = await request(`${relay.url}/assets/taskpane.js`);
      await js.body.text();
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
      const xml = await request(`${relay.url}/manifest.xml`);
      await xml.body.text();
      expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
      for (const target of [
        '/../../etc/passwd',
        '/..%2F..%2Fetc%2Fpasswd',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/assets%5c..%5cindex.html',
        '/.env',
        '/link.txt',
        '/%252e%252e/etc/passwd',
        '//etc/passwd',
      ]) {
        const res = await rawRequest(relay.port, rawGet(target));
        expect([400, 404]).toContain(res.status);
        expect(res.body).not.toContain('root:');
        expect(res.body).not.toContain('outside');
      }
    } finally {
      await relay.close();
    }
  });

  it('forwards an assumed operation to the path its environment binding gives it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-binding-'));
    const file = join(dir, 'binding.json');
    writeFileSync(file, JSON.stringify(bindPaths({ 'incident-create': '/incidentdata/v2/incidents' })));
    const { relay } = await startTestRelay(upstream, {
      environments: { acc: { baseUrl: `${upstream.url}/api`, binding: file } },
    });
    try {
      const res = await request(`${relay.url}/api/acc/incidentdata/v2/incidents`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: '{"Name":"x"}',
      });
      await res.body.text();
      expect(res.statusCode).toBe(200);
      expect(upstream.requests[0]!.url).toBe('/api/incidentdata/v2/incidents');
      const old = await request(`${relay.url}/api/acc/incidents`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(errorCode(await old.body.text())).toBe('not-catalogued');
    } finally {
      await relay.close();
    }
  });

  it('fills a GUID path parameter and refuses a path whose parameter is not a GUID', async () => {
    const { relay } = await startTestRelay(upstream);
    try {
      const guid = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
      const ok = await request(`${relay.url}/api/prd/taskdata/v2/tasks/${guid}/workflow/advance`, {
        method: 'POST',
        headers: { authorization: AUTH },
      });
      await ok.body.text();
      expect(ok.statusCode).toBe(200);
      expect(upstream.requests[0]).toMatchObject({
        method: 'POST',
        url: `/api/taskdata/v2/tasks/${guid}/workflow/advance`,
      });
      const bad = await request(`${relay.url}/api/prd/taskdata/v2/tasks/not-a-guid/workflow/advance`, {
        method: 'POST',
        headers: { authorization: AUTH },
      });
      expect(errorCode(await bad.body.text())).toBe('not-catalogued');
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await relay.close();
    }
  });

  it('lets a call in flight finish on shutdown and refuses new connections', async () => {
    const { relay } = await startTestRelay(upstream);
    upstream.handler = () => undefined;
    const arrived = upstream.nextRequest();
    const pending = request(`${relay.url}/api/acc/directdata/v3/risk`, { headers: { authorization: AUTH } });
    const { res: upstreamRes } = await arrived;
    const closed = relay.close();
    upstreamRes.setHeader('content-type', 'application/json');
    upstreamRes.end('[{"done":true}]');
    const res = await pending;
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('[{"done":true}]');
    await closed;
    await expect(request(`${relay.url}/healthz`)).rejects.toThrow();
    upstream.handler = (_req, r) => r.end('[]');
  });

  it('speaks HTTPS when given a certificate', async () => {
    const cert = selfSignedCertificate();
    const dir = mkdtempSync(join(tmpdir(), 'relay-tls-'));
    writeFileSync(join(dir, 'key.pem'), cert.key);
    const { relay } = await startTestRelay(upstream, {
      tls: { cert: cert.certFile, key: join(dir, 'key.pem') },
    });
    const dispatcher = new Agent({ connect: { ca: cert.cert } });
    try {
      expect(relay.url).toMatch(/^https:/);
      const res = await request(`${relay.url}/api/acc/directdata/v3/risk`, {
        headers: { authorization: AUTH },
        dispatcher,
      });
      await res.body.text();
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await dispatcher.close();
      await relay.close();
    }
  });
});

describe('relay configuration', () => {
  const env = { acc: { baseUrl: 'https://grc.example.com/api' } };

  it('fills the defaults', () => {
    const c = parseRelayConfig({ environments: env });
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 8443 });
    expect(c.limits).toMatchObject({
      bodyBytes: 10485760,
      requestTimeoutMs: 120000,
      upstreamTimeoutMs: 120000,
      rateLimit: { requests: 6000, windowMs: 60000 },
    });
    expect(c.environments.acc).toMatchObject({ production: false, connections: 64 });
  });

  it.each([
    [{ environments: {} }, 'environments'],
    [
      { environments: { acc: { baseUrl: 'http://grc.example.com/api' } } },
      'environments.acc.baseUrl: must be https://',
    ],
    [
      { environments: { acc: { baseUrl: 'https://user:pw@grc.example.com/api' } } },
      'environments.acc.baseUrl',
    ],
    [{ environments: { 'a/b': { baseUrl: 'https://x/api' } } }, 'environments'],
    [{ environments: { environments: { baseUrl: 'https://x/api' } } }, 'reserved'],
    [{ environments: env, allowedOrigins: ['https://addin.example.com/'] }, 'allowedOrigins.0'],
    [{ environments: env, allowedOrigins: ['*'] }, 'allowedOrigins.0'],
    [{ environments: env, listen: { port: 70000 } }, 'listen.port'],
    [{ environments: env, limits: { bodyBytes: -1 } }, 'limits.bodyBytes'],
    [{ environments: env, tls: { cert: 'c.pem' } }, 'tls.key'],
    [{ environments: env, proxyTo: 'x' }, 'proxyTo'],
  ])('refuses a bad configuration, naming the field (%j)', (input, field) => {
    expect(() => parseRelayConfig(input)).toThrow(RelayConfigError);
    expect(() => parseRelayConfig(input)).toThrow(field);
  });

  it('refuses the retired catalogOverrides setting, naming it', () => {
    expect(() => parseRelayConfig({ environments: env, catalogOverrides: {} })).toThrow(/catalogOverrides/);
  });

  it('takes the egress address as an IP address, and refuses anything else naming the field', () => {
    expect(parseRelayConfig({ environments: env, egressIp: '203.0.113.10' }).egressIp).toBe('203.0.113.10');
    expect(() => parseRelayConfig({ environments: env, egressIp: 'relay.example.com' })).toThrow(/egressIp/);
  });

  it('takes every setting from GRC_RELAY_* variables, over the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
    const file = join(dir, 'relay.json');
    writeFileSync(file, JSON.stringify({ listen: { port: 9000 }, environments: env }));
    const c = loadRelayConfig(file, {
      GRC_RELAY_PORT: '9443',
      GRC_RELAY_HOST: '0.0.0.0',
      GRC_RELAY_ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com',
      GRC_RELAY_ENVIRONMENTS: JSON.stringify({
        prd: { baseUrl: 'https://prd.example.com/api', production: true },
      }),
      GRC_RELAY_RATE_LIMIT_REQUESTS: '5',
    });
    expect(c.listen).toEqual({ host: '0.0.0.0', port: 9443 });
    expect(c.allowedOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(Object.keys(c.environments)).toEqual(['prd']);
    expect(c.limits.rateLimit.requests).toBe(5);
    expect(() => loadRelayConfig(file, { GRC_RELAY_PORT: 'eighty' })).toThrow(
      /GRC_RELAY_PORT \(listen.port\) must be a number/,
    );
  });

  it('accepts relay.example.json as shipped', () => {
    const c = loadRelayConfig(join(__dirname, '..', '..', 'relay.example.json'), {});
    expect(c.environments.prd).toMatchObject({ production: true });
  });

  it('makes `grc-sheets relay` exit with code 2 and the field named on a bad configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
    const file = join(dir, 'relay.json');
    writeFileSync(file, JSON.stringify({ environments: { acc: { baseUrl: 'ftp://x' } } }));
    const errors: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
    try {
      expect(await run(['--config', file])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join('\n')).toContain('environments.acc.baseUrl');
  });

  it('names the file when it is not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
    const file = join(dir, 'relay.json');
    writeFileSync(file, '{ listen: ');
    expect(() => loadRelayConfig(file, {})).toThrow(`the relay configuration ${file} is not valid JSON`);
  });
});
