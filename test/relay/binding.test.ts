import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { Binding } from '../../src/catalog/binding';
import { catalog, type BoundOperation } from '../../src/catalog';
import { RELAY_ERROR_HEADER } from '../../src/contracts/environments';
import { RelayConfigError, startRelay } from '../../src/relay';
import { bindPaths } from '../catalog/bind-paths';
import { AUTH, captureLog, errorCode, relayViews, startFakeUpstream, startTestRelay, type FakeUpstream } from './helpers';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.requests.length = 0;
});

function writeBinding(b: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'relay-binding-')), 'binding.json');
  writeFileSync(file, typeof b === 'string' ? b : JSON.stringify(b));
  return file;
}

/** A full binding without one operation, as an import of a Swagger file that lacks it writes. */
function lacking(id: string): Binding {
  const b = structuredClone(bindPaths({}));
  delete b.endpoints[id];
  b.missing[id] = 'no operation of the file fits';
  return b;
}

const post = (url: string, body = '{"Name":"x","ReportingOrganization":"Finance"}') =>
  request(url, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body,
  });

const incidents = catalog.operation('incident-create').path;

/** ACC without a binding; production bound as the catalogue assumes, but incident-create at a path of its own. */
const startWithBoundProduction = () =>
  startTestRelay(upstream, {
    environments: {
      acc: { baseUrl: `${upstream.url}/api` },
      prd: {
        baseUrl: `${upstream.url}/api`,
        production: true,
        binding: writeBinding(bindPaths({ 'incident-create': '/incidentdata/v1/incidents' })),
      },
    },
  });

describe('relay environments from bindings', () => {
  it('refuses a blind POST on production (assumed path, no binding) and sends nothing; ACC forwards it', async () => {
    const { relay } = await startTestRelay(upstream);
    try {
      const refused = await post(`${relay.url}/api/prd${incidents}`);
      const body = await refused.body.text();
      expect(refused.statusCode).toBe(403);
      expect(refused.headers[RELAY_ERROR_HEADER]).toBe('path-assumed');
      expect(errorCode(body)).toBe('path-assumed');
      expect(body).toContain('docs/binding.md');
      expect(upstream.requests).toHaveLength(0);

      const onAcc = await post(`${relay.url}/api/acc${incidents}`);
      await onAcc.body.text();
      expect(onAcc.statusCode).toBe(200);
      expect(upstream.requests.map((r) => r.url)).toEqual([`/api${incidents}`]);

      // A documented write and every read still go through on production.
      const read = await request(`${relay.url}/api/prd${catalog.dataset('risk').path}`, {
        headers: { authorization: AUTH },
      });
      await read.body.text();
      expect(read.statusCode).toBe(200);
    } finally {
      await relay.close();
    }
  });

  it('posts to production once the binding binds the path, at the bound path', async () => {
    const { relay } = await startWithBoundProduction();
    try {
      const res = await post(`${relay.url}/api/prd/incidentdata/v1/incidents`);
      await res.body.text();
      expect(res.statusCode).toBe(200);
      expect(upstream.requests.map((r) => r.url)).toEqual(['/api/incidentdata/v1/incidents']);
      // ACC has no binding: the catalogue's own (assumed) path, which PRD no longer forwards.
      const old = await post(`${relay.url}/api/prd${incidents}`);
      expect(errorCode(await old.body.text())).toBe('not-catalogued');
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await relay.close();
    }
  });

  it('forwards a bound PUT and PATCH at paths with several parameters, and only the query parameters the binding places', async () => {
    const b = bindPaths({});
    const v2 = b.endpoints['task-update-v2'] as BoundOperation;
    b.endpoints['task-update-v2'] = { ...v2, method: 'PUT', path: '/projects/{projectId}/tasks/{taskId}' };
    const v1 = b.endpoints['task-update'] as BoundOperation;
    b.endpoints['task-update'] = {
      ...v1,
      method: 'PATCH',
      path: '/tasks/{taskId}',
      placements: [
        ...v1.placements,
        { field: 'Comment', in: 'query', at: 'note', fileName: 'note', encoding: { kind: 'plain' }, how: 'admin' },
      ],
    };
    const { relay } = await startTestRelay(upstream, {
      environments: { prd: { baseUrl: `${upstream.url}/api`, production: true, binding: writeBinding(b) } },
    });
    const task = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const send = (method: string, path: string) =>
      request(`${relay.url}/api/prd${path}`, {
        method: method as 'PUT',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: '{"Name":"x"}',
      });
    try {
      const put = await send('PUT', `/projects/p-7/tasks/${task}`);
      await put.body.text();
      expect(put.statusCode).toBe(200);
      const patch = await send('PATCH', `/tasks/${task}?note=a%20b`);
      await patch.body.text();
      expect(patch.statusCode).toBe(200);
      expect(upstream.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['PUT', `/api/projects/p-7/tasks/${task}`, '{"Name":"x"}'],
        ['PATCH', `/api/tasks/${task}?note=a%20b`, '{"Name":"x"}'],
      ]);
      // A parameter the binding does not place, or the catalogue's POST at the bound path: refused, nothing sent.
      const stray = await send('PATCH', `/tasks/${task}?other=1`);
      expect(errorCode(await stray.body.text())).toBe('query-not-allowed');
      const post = await send('POST', `/tasks/${task}`);
      expect(post.statusCode).toBe(405);
      expect(post.headers.allow).toBe('PATCH');
      await post.body.text();
      expect(upstream.requests).toHaveLength(2);
      const [prd] = await relayViews(relay.url);
      expect(prd!.endpoints['task-update-v2']).toMatchObject({ method: 'PUT', path: '/projects/{projectId}/tasks/{taskId}' });
      expect(prd!.binding!.endpoints['task-update']).toMatchObject({ method: 'PATCH' });
      // This environment's binding uses PUT and PATCH, so the preflight advertises them.
      const preflight = await request(`${relay.url}/api/prd/tasks/${task}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://addin.example.com', 'access-control-request-method': 'PATCH' },
      });
      await preflight.body.text();
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH');
    } finally {
      await relay.close();
    }
  });

  it("passes the service's Location only on a write's answer whose id is read from it, never on a GET", async () => {
    const b = bindPaths({ 'incident-create': '/incidentdata/v1/incidents' });
    (b.endpoints['incident-create'] as BoundOperation).answer = { in: 'header', at: 'location' };
    (b.endpoints['task-create'] as BoundOperation).answer = { in: 'body', at: '/Id' };
    const { relay } = await startTestRelay(upstream, {
      environments: { acc: { baseUrl: `${upstream.url}/api`, binding: writeBinding(b) } },
      allowedOrigins: ['https://addin.example.com'],
    });
    const before = upstream.handler;
    const where = '/api/incidentdata/v1/incidents/0f8fad5b-d9cb-469f-a165-70867728950e';
    upstream.handler = (_req, res) => {
      res.writeHead(201, { location: where, 'content-type': 'application/json' });
      res.end('[]');
    };
    try {
      const created = await post(`${relay.url}/api/acc/incidentdata/v1/incidents`);
      await created.body.text();
      expect(created.statusCode).toBe(201);
      expect(created.headers.location).toBe(where);
      // A read's answer: the service's Location stays at the relay.
      const read = await request(`${relay.url}/api/acc${catalog.dataset('risk').path}`, { headers: { authorization: AUTH } });
      await read.body.text();
      expect(read.statusCode).toBe(201);
      expect(read.headers.location).toBeUndefined();
      // A write whose binding reads the id from the body: not passed either.
      const task = await post(`${relay.url}/api/acc${catalog.operation('task-create').path}`, '{"Name":"x"}');
      await task.body.text();
      expect(task.headers.location).toBeUndefined();
      // Preflights advertise what the environments use: this binding has no PUT or PATCH.
      const preflight = await request(`${relay.url}/api/acc/incidentdata/v1/incidents`, {
        method: 'OPTIONS',
        headers: { origin: 'https://addin.example.com', 'access-control-request-method': 'POST' },
      });
      await preflight.body.text();
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST');
    } finally {
      upstream.handler = before;
      await relay.close();
    }
  });

  it('never forwards an operation the binding lacks, and says so in /api/environments', async () => {
    const file = writeBinding(lacking('incident-create'));
    const { relay } = await startTestRelay(upstream, {
      environments: { acc: { baseUrl: `${upstream.url}/api`, binding: file } },
    });
    try {
      const res = await post(`${relay.url}/api/acc${incidents}`);
      expect(res.statusCode).toBe(404);
      const body = await res.body.text();
      expect(errorCode(body)).toBe('endpoint-unavailable');
      expect(body).toContain("API file has no such operation");
      expect(upstream.requests).toHaveLength(0);
      const [acc] = await relayViews(relay.url);
      expect(acc!.endpoints['incident-create']).toMatchObject({
        unavailable: { reason: 'missing' },
        write: { kind: 'unavailable' },
      });
    } finally {
      await relay.close();
    }
  });

  it('tells the taskpane per environment where each path comes from and whether a write may be sent', async () => {
    const { relay } = await startWithBoundProduction();
    try {
      const [acc, prd] = await relayViews(relay.url);
      expect(acc!.binding).toBeNull();
      expect(acc!.endpoints['incident-create']).toMatchObject({
        pathSource: 'assumed',
        path: incidents,
        write: { kind: 'confirm' },
      });
      expect(acc!.endpoints.risk).toMatchObject({ pathSource: 'documented', kind: 'dataset' });
      expect(prd!.binding?.format).toBe('grc-sheets-binding');
      expect(prd!.endpoints['incident-create']).toMatchObject({
        pathSource: 'bound',
        path: '/incidentdata/v1/incidents',
        write: { kind: 'ok' },
      });
    } finally {
      await relay.close();
    }
  });

  it.each([
    [
      'a missing file',
      () => join(tmpdir(), 'no-such-binding.json'),
      /environments.prd.binding: .*no-such-binding.json does not exist/,
    ],
    ['a file that is not JSON', () => writeBinding('{not json'), /cannot read the binding file/],
    [
      'a file that is not a binding',
      () => writeBinding({ format: 'other' }),
      /not a grc-sheets binding file/,
    ],
  ])('refuses %s at start, naming the environment, the field and the file', async (_what, make, problem) => {
    const file = make();
    const start = startRelay(
      { environments: { prd: { baseUrl: `${upstream.url}/api`, production: true, binding: file } } },
      { logDestination: captureLog() },
    );
    await expect(start).rejects.toThrow(RelayConfigError);
    await expect(start).rejects.toThrow('environments.prd.binding');
    await expect(start).rejects.toThrow(file);
    await expect(start).rejects.toThrow(problem);
  });
});
