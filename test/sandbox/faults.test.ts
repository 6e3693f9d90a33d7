import { request } from 'node:http';
import { catalog } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { basic, call, post, start } from './helpers';

const CREATE = catalog.operation('incident-create').path;
const INCIDENTS = catalog.dataset('incidents').path;

/** A raw HTTP call that reports whether the answer body arrived whole. */
function raw(
  sb: Sandbox,
  path: string,
  body?: unknown,
): Promise<{ status: number; complete: boolean; received: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(sb.url + path, {
      method: data ? 'POST' : 'GET',
      headers: {
        authorization: basic('admin'),
        ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
      },
    });
    req.on('response', (res) => {
      let received = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (received += c));
      res.on('end', () => resolve({ status: res.statusCode!, complete: true, received }));
      res.on('error', () => resolve({ status: res.statusCode!, complete: false, received }));
      res.on('aborted', () => resolve({ status: res.statusCode!, complete: false, received }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

describe('sandbox faults', () => {
  let sb: Sandbox;
  const count = async () => (await call<unknown[]>(sb, INCIDENTS)).body.length;
  beforeAll(async () => {
    sb = await start();
  });
  afterEach(() => sb.admin.setFaults({ latencyMs: 0, errorRate: 0, rateLimitRate: 0, dropRate: 0 }));
  afterAll(() => sb.close());

  it('is off by default', () => {
    expect(sb.admin.faults()).toMatchObject({ latencyMs: 0, errorRate: 0, rateLimitRate: 0, dropRate: 0 });
  });

  it('answers 503 with Retry-After before anything is committed', async () => {
    const before = await count();
    sb.admin.setFaults({ errorRate: 1, retryAfterSeconds: 2 });
    const a = await post(sb, CREATE, { Name: 'x', ReportingOrganization: 'Finance' });
    expect(a.status).toBe(503);
    expect(a.headers.get('retry-after')).toBe('2');
    sb.admin.setFaults({ errorRate: 0 });
    expect(await count()).toBe(before);
  });

  it('answers 429 with Retry-After', async () => {
    sb.admin.setFaults({ rateLimitRate: 1, retryAfterSeconds: 3 });
    const a = await call(sb, INCIDENTS);
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('3');
  });

  it('drops a POST mid-body after the record is committed', async () => {
    const before = await count();
    sb.admin.setFaults({ dropRate: 1 });
    const a = await raw(sb, CREATE, { Name: 'Dropped answer', ReportingOrganization: 'Finance' });
    expect(a.status).toBe(201);
    expect(a.complete).toBe(false);
    sb.admin.setFaults({ dropRate: 0 });
    const all = (await call<{ Name: string }[]>(sb, INCIDENTS)).body;
    expect(all).toHaveLength(before + 1);
    expect(all.at(-1)!.Name).toBe('Dropped answer');
  });

  it('drops a dataset download mid-body', async () => {
    sb.admin.setFaults({ dropRate: 1 });
    const a = await raw(sb, catalog.dataset('risk').path);
    expect(a).toMatchObject({ status: 200, complete: false });
    expect(a.received.startsWith('[{')).toBe(true);
  });

  it('adds latency to every API call', async () => {
    sb.admin.setFaults({ latencyMs: 150 });
    const t0 = performance.now();
    expect((await call(sb, catalog.dataset('audittype').path)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('decides faults deterministically from the fault seed', async () => {
    const run = async () => {
      sb.admin.setFaults({ errorRate: 0.3, rateLimitRate: 0.2, seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await call(sb, catalog.dataset('audittype').path)).status);
      return out;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 503]));
  });

  it('can be set through the admin route', async () => {
    const admin = sb.url.replace(/\/api$/, '/_sandbox/faults');
    const put = await fetch(admin, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    expect(await put.json()).toMatchObject({ errorRate: 1, latencyMs: 0 });
    expect((await call(sb, INCIDENTS)).status).toBe(503);
    const bad = await fetch(admin, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 2 }),
    });
    expect(bad.status).toBe(400);
  });
});
