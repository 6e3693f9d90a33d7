import { get as httpGet } from 'node:http';
import { catalog } from '../../src/catalog';
import { buildKeys, startSandbox, type Sandbox } from '../../src/sandbox';
import { basic, call, key, KEYS, start } from './helpers';

const RISK = catalog.dataset('risk').path;
const INVALID = { message: 'The credentials are invalid.' };

describe('sandbox authentication (spec: Authentication, Errors)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start();
  });
  afterAll(() => sb.close());

  it('accepts Basic credentials of a valid key (rule 1)', async () => {
    const a = await call(sb, RISK);
    expect(a.status).toBe(200);
    expect(a.body).toHaveLength(50);
  });

  it('answers 400 "No authenticationScheme was specified." without Basic authentication (errors table row 1)', async () => {
    for (const authorization of [undefined, 'Bearer abc.def.ghi', 'Digest username="admin"']) {
      const a = await call(sb, RISK, authorization === undefined ? { as: null } : { authorization });
      expect(a.status).toBe(400);
      expect(a.body).toEqual({ message: 'No authenticationScheme was specified.' });
    }
  });

  it('answers 401 for a wrong password or an unknown identifier (rule 5: a lost credential means a new key)', async () => {
    for (const authorization of [basic('admin', 'wrong'), basic('nobody'), 'Basic bm9jb2xvbg==']) {
      const a = await call(sb, RISK, { authorization });
      expect(a.status).toBe(401);
      expect(a.body).toEqual(INVALID);
      expect(a.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  it('answers 401 for an expired key (rule 8, errors table row 2)', async () => {
    expect(await call(sb, RISK, { as: 'expired' })).toMatchObject({ status: 401, body: INVALID });
  });

  it('answers 401 for a key of the other environment (rule 12)', async () => {
    expect(await call(sb, RISK, { as: 'prd' })).toMatchObject({ status: 401, body: INVALID });
  });

  it('answers 401 for a revoked (recreated) key (rule 6, errors table row 2)', async () => {
    const own = await startSandbox({ scale: 5, keys: [key('old'), key('successor')] });
    try {
      expect((await call(own, RISK, { as: 'old' })).status).toBe(200);
      own.admin.revokeKey('old');
      expect(await call(own, RISK, { as: 'old' })).toMatchObject({ status: 401, body: INVALID });
      expect((await call(own, RISK, { as: 'successor' })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('refuses a caller address that is not allowed with 401, records it as requested, and accepts it once approved (rule 7, soft IP allowlisting)', async () => {
    expect(await call(sb, RISK, { as: 'far-away' })).toMatchObject({ status: 401, body: INVALID });
    const requested = sb.admin.requestedIps().filter((r) => r.identifier === 'far-away');
    expect(requested).toHaveLength(1);
    const ip = requested[0]!.ip;
    expect(['127.0.0.1', '::1']).toContain(ip);
    // Approval goes through the documented admin route, outside the API root.
    const approve = await fetch(sb.url.replace(/\/api$/, '/_sandbox/requested-ips/approve'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'far-away', ip }),
    });
    expect(approve.status).toBe(200);
    expect((await call(sb, RISK, { as: 'far-away' })).status).toBe(200);
    expect(sb.admin.requestedIps().filter((r) => r.identifier === 'far-away')).toHaveLength(0);
  });

  it('with pinFirstIp, refuses an address other than the first one used with 401 and records it as requested (errors table: calling IP different from the one used earlier)', async () => {
    const own = await startSandbox({
      scale: 5,
      keys: [
        key('pinned', { allowedIps: ['127.0.0.1', '127.0.0.2'], pinFirstIp: true }),
        key('loose', { allowedIps: ['127.0.0.1', '127.0.0.2'] }),
      ],
    });
    // Linux routes all of 127/8 to loopback: binding the client to 127.0.0.2 gives a second caller address.
    const first = '127.0.0.2';
    const second = '127.0.0.1';
    const { port } = new URL(own.url);
    const get = (as: string, localAddress: string) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        httpGet(
          {
            host: '127.0.0.1',
            port,
            path: `/api${RISK}`,
            localAddress,
            headers: { authorization: basic(as) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
          },
        ).on('error', reject);
      });
    try {
      expect((await get('pinned', first)).status).toBe(200);
      expect(await get('pinned', second)).toEqual({ status: 401, body: INVALID });
      expect((await get('pinned', first)).status).toBe(200);
      expect(own.admin.requestedIps().filter((r) => r.identifier === 'pinned')).toMatchObject([
        { ip: '127.0.0.1', count: 1 },
      ]);
      expect(own.admin.keys().find((k) => k.identifier === 'pinned')).toMatchObject({
        pinnedIp: '127.0.0.2',
      });
      // Without the flag, any allowed address goes through.
      expect((await get('loose', first)).status).toBe(200);
      expect((await get('loose', second)).status).toBe(200);
      // Approving the new address moves the pin to it.
      expect(own.admin.approveIp('pinned', '127.0.0.1')).toBe(true);
      expect((await get('pinned', second)).status).toBe(200);
      expect((await get('pinned', first)).status).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('answers 403 "Forbidden to execute action." for DirectData without Get direct data (rule 9)', async () => {
    expect(await call(sb, RISK, { as: 'no-directdata' })).toMatchObject({
      status: 403,
      body: { message: 'Forbidden to execute action.' },
    });
  });

  it('answers 403 for DirectData with a key whose owner is not an Application Administrator (rule 9)', async () => {
    expect((await call(sb, RISK, { as: 'not-admin' })).status).toBe(403);
  });

  it('lets Get direct data reach the DirectData of every module (rule 9: cannot be limited to one module)', async () => {
    for (const id of ['risk', 'incidents', 'audit', 'thirdparty', 'control', 'tasks', 'kri'])
      expect((await call(sb, catalog.dataset(id).path)).status).toBe(200);
  });

  it('lets a selected module API reach that module reads only (rules 7 and 10)', async () => {
    expect((await call(sb, catalog.dataset('incidenttypes').path, { as: 'incidents-only' })).status).toBe(
      200,
    );
    expect(
      (await call(sb, catalog.dataset('findingreportassessments').path, { as: 'incidents-only' })).status,
    ).toBe(403);
  });

  it('serves finding report assessments as DirectData (rule 9), not by a module API', async () => {
    const path = catalog.dataset('findingreportassessments').path;
    expect((await call(sb, path, { as: 'admin' })).status).toBe(200);
    expect((await call(sb, path, { as: 'findingreports-only' })).status).toBe(403);
    expect((await call(sb, path, { as: 'no-directdata' })).status).toBe(403);
  });

  it('refuses writes with a key whose owner is not an Application Administrator (rule 10)', async () => {
    const a = await call(sb, catalog.operation('task-create').path, {
      as: 'not-admin',
      body: { Name: 'x', ResponsibleUser: 'Anna de Vries' },
    });
    expect(a).toMatchObject({ status: 403, body: { message: 'Forbidden to execute action.' } });
  });

  it('answers 404 for a path outside the catalogue and 405 for a wrong method', async () => {
    expect((await call(sb, '/directdata/v3/nothing')).status).toBe(404);
    expect((await call(sb, '/directdata/v3/%2e%2e/risk')).status).toBe(404);
    const a = await call(sb, RISK, { method: 'POST', body: {} });
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('GET');
  });
});

describe('sandbox keys file (spec: API key, Authentication rules 4 and 8)', () => {
  it('accepts the suite keys', () => {
    expect(buildKeys(KEYS)).toHaveLength(KEYS.length);
  });

  it('refuses a key that expires more than one year after its creation, naming the key', () => {
    const bad = key('long', {
      name: 'Reporting key',
      createdAt: '2026-01-01T00:00:00Z',
      expiresAt: '2027-01-02T00:00:00Z',
    });
    expect(() => buildKeys([key('ok'), bad])).toThrow(/key 2 \("Reporting key"\).*more than one year/);
    expect(() =>
      buildKeys([key('edge', { createdAt: '2026-01-01T00:00:00Z', expiresAt: '2027-01-01T00:00:00Z' })]),
    ).not.toThrow();
  });

  it('refuses a key whose owner has no e-mail address, naming the key', () => {
    const bad = key('noemail', { name: 'Bot key' });
    bad.owner = { name: 'Bot', roles: ['ApplicationAdministrator'] };
    expect(() => buildKeys([bad])).toThrow(/"Bot key".*no e-mail address/);
  });

  it('refuses an unknown API name, naming the key and the known names', () => {
    expect(() => buildKeys([key('x', { name: 'Typo key', apis: ['GetDirectdata'] })])).toThrow(
      /"Typo key".*unknown API name "GetDirectdata".*GetDirectData/,
    );
  });

  it('refuses to start with a bad key', async () => {
    await expect(
      startSandbox({ scale: 5, keys: [key('x', { environment: 'TST' as 'ACC' })] }),
    ).rejects.toThrow(/environment/);
  });

  it('accepts a very large allowlist (limits: no maximum stated)', async () => {
    const many = Array.from(
      { length: 20_000 },
      (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    );
    const sb = await startSandbox({
      scale: 5,
      keys: [key('big', { allowedIps: [...many, '127.0.0.1', '::1'] })],
    });
    try {
      expect((await call(sb, RISK, { as: 'big' })).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
