import { catalog } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import type { Sandbox } from '../../src/sandbox';
import { failureOf } from '../support/api-error';
import { clearFaults } from '../support/sandbox';
import { start } from './helpers';

/** The project's client against the sandbox: the two were written apart and must agree. */
describe('client against the sandbox', () => {
  let sb: Sandbox;
  const client = (identifier = 'admin', password = `pw-${identifier}`): GrcClient =>
    createClient({ baseUrl: sb.url, credentials: { identifier, password } });

  beforeAll(async () => {
    sb = await start({ scale: 2000 });
  });
  afterEach(() => clearFaults(sb));
  afterAll(() => sb.close());

  it('downloads every catalogue dataset without a schema complaint', async () => {
    for (const ds of catalog.datasets) {
      const params = ds.path.includes('{guid}')
        ? { guid: ds.id === 'formresults' ? sb.store.ctx.st.forms[0]!.Id : sb.store.ctx.guid('testPlan', 0) }
        : undefined;
      const r = await client().download(ds.id, { params });
      expect(r.count).toBe(r.records.length);
    }
  });

  it('streams 2,000 risks in batches with progress', async () => {
    let batches = 0;
    let last = { bytes: 0, records: 0 };
    const r = await client().download('risk', {
      onBatch: () => void batches++,
      onProgress: (p) => (last = p),
    });
    expect(r.count).toBe(2000);
    expect(batches).toBeGreaterThan(0);
    expect(last.records).toBe(2000);
    expect(last.bytes).toBe(r.bytes);
  });

  it('proves a key with testConnection', async () => {
    expect((await client().testConnection()).count).toBeGreaterThan(0);
  });

  it('turns the sandbox error answers into the typed errors', async () => {
    expect((await failureOf(client('admin', 'wrong').download('risk'))).code).toBe('invalid-credentials');
    expect((await failureOf(client('far-away').download('risk'))).code).toBe('invalid-credentials');
    expect((await failureOf(client('no-directdata').download('risk'))).code).toBe('forbidden');
    const rejected = await failureOf(
      client().call('incident-create', { body: { Name: 'x', ReportingOrganization: 'Nowhere' } }),
    );
    expect(rejected.code).toBe('rejected');
    expect(rejected.details).toEqual([{ field: 'ReportingOrganization', message: expect.any(String) }]);
    sb.admin.setFaults({ errorRate: 1 });
    expect((await failureOf(client().download('audittype'))).code).toBe('unavailable');
  });

  it('creates an incident and reads it back through the client', async () => {
    const created = (await client().call('incident-create', {
      body: { Name: 'From the client', ReportingOrganization: 'Finance' },
    })) as { Id: string };
    const { records } = await client().download('incidents');
    expect(records.find((r) => r.Id === created.Id)).toMatchObject({
      Name: 'From the client',
      Reporter: 'Anna de Vries',
    });
  });

  it('reports an unknown outcome when the answer to a POST is dropped after the commit', async () => {
    sb.admin.setFaults({ dropRate: 1 });
    const e = await failureOf(
      client().call('incident-create', { body: { Name: 'Half answer', ReportingOrganization: 'Finance' } }),
    );
    expect(e.code).toBe('outcome-unknown');
    sb.admin.setFaults({ dropRate: 0 });
    expect((await client().download('incidents')).records.some((r) => r.Name === 'Half answer')).toBe(true);
  });
});
