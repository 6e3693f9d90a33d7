import { createCatalog, type BoundOperation } from '../../src/catalog';
import { createClient, type DataRecord } from '../../src/client';
import { bindPaths } from '../catalog/bind-paths';
import { failureOf } from '../support/api-error';
import { shapedBinding } from '../support/shaped-binding';
import { fakeForFile, GUID, json, writeChunks } from './fake-server';

const credentials = { identifier: 'id', password: 'pw' };
const fake = fakeForFile();
const bound = () =>
  createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(shapedBinding()) });

describe('client with a binding', () => {
  it("sends the body in the file's names and nesting, with the binding's default for its extra required property", async () => {
    fake.answer = (_req, res) => json(res, 201, { guid: GUID(1) });
    const answer = await bound().call('incident-create', {
      body: { Name: 'Fire', ReportingOrganization: 'Ops', Description: 'smoke' },
    });
    expect(answer).toEqual({ Id: GUID(1) });
    const sent = fake.server.received.at(-1)!;
    expect(sent.url).toBe('/api/incidentdata/v1/incidents');
    expect(JSON.parse(sent.body)).toEqual({
      title: 'Fire',
      reporting: { organization: 'Ops' },
      Description: 'smoke',
      severity: 'Low',
    });
  });

  it('takes a value for the extra property over its default', async () => {
    fake.answer = (_req, res) => json(res, 201, { guid: GUID(2) });
    await bound().call('incident-create', {
      body: { Name: 'Fire', ReportingOrganization: 'Ops' },
      extra: { 'body:/severity': 'High' },
    });
    expect(JSON.parse(fake.server.received.at(-1)!.body)).toMatchObject({ severity: 'High' });
  });

  it('refuses, before sending, a body missing a property the file requires, naming it and the fix', async () => {
    const b = shapedBinding();
    delete (b.endpoints['incident-create'] as BoundOperation).extras[0]!.default;
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(b) });
    const before = fake.server.received.length;
    const e = await failureOf(
      client.call('incident-create', { body: { Name: 'Fire', ReportingOrganization: 'Ops' } }),
    );
    expect(e).toMatchObject({ code: 'invalid-body', sent: 'no', details: [{ field: 'body:/severity' }] });
    expect(e.message).toContain('fill in severity');
    expect(fake.server.received.length).toBe(before);
  });

  it("reads dataset records back into the catalogue's fields, batch by batch as they stream", async () => {
    const wire = Array.from({ length: 3 }, (_, i) => ({
      guid: GUID(10 + i),
      title: `incident ${i}`,
      reporting: { organization: 'Finance' },
      Status: 'Open',
    }));
    const text = JSON.stringify(wire);
    fake.answer = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const bytes = Buffer.from(text);
      await writeChunks(res, [bytes.subarray(0, 40), bytes.subarray(40)]);
      res.end();
    };
    const batches: DataRecord[][] = [];
    const result = await bound().download('incidents', { onBatch: (b) => void batches.push(b) });
    expect(fake.server.received.at(-1)!.url).toBe('/api/incidentdata/v1/incidents/all');
    expect(result.count).toBe(3);
    expect(batches.flat()).toEqual(
      wire.map((w) =>
        expect.objectContaining({
          Id: w.guid,
          Name: w.title,
          ReportingOrganization: 'Finance',
          Status: 'Open',
        }),
      ),
    );
  });

  it('refuses, before sending, an operation the binding lacks', async () => {
    const b = structuredClone(bindPaths({}));
    delete b.endpoints['contract-create'];
    b.missing['contract-create'] = 'no operation of the file fits';
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(b) });
    const before = fake.server.received.length;
    const e = await failureOf(client.call('contract-create', { body: {} }));
    expect(e).toMatchObject({ code: 'not-found', sent: 'no' });
    expect(e.message).toContain('not available on this environment');
    expect(fake.server.received.length).toBe(before);
  });

  it('refuses, before sending, a typed value the file has no place for, naming it (nothing dropped)', async () => {
    const b = shapedBinding();
    const op = b.endpoints['incident-create'] as BoundOperation;
    op.placements = op.placements.filter((p) => p.field !== 'DateDetected');
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(b) });
    const before = fake.server.received.length;
    const e = await failureOf(
      client.call('incident-create', { body: { Name: 'Fire', ReportingOrganization: 'Ops', DateDetected: '2026-01-02' } }),
    );
    expect(e).toMatchObject({ code: 'invalid-body', sent: 'no', details: [{ field: 'DateDetected' }] });
    expect(e.message).toMatch(/DateDetected: this environment's API file has no place for it/);
    expect(fake.server.received.length).toBe(before);
  });

  it('sends a bound PUT to a path with several parameters and reads the id from the Location header', async () => {
    const b = shapedBinding();
    const op = b.endpoints['incident-create'] as BoundOperation;
    b.endpoints['incident-create'] = {
      ...op,
      method: 'PUT',
      path: '/orgs/{org}/incidents',
      extras: [
        ...op.extras,
        { key: 'path:org', header: 'org', in: 'path', at: 'org', fileName: 'org', cell: 'text', encoding: { kind: 'plain' }, required: true },
      ],
      answer: { in: 'header', at: 'location' },
    };
    fake.answer = (_req, res) => {
      res.writeHead(201, { location: `/api/orgs/o1/incidents/${GUID(4)}` });
      res.end();
    };
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(b) });
    const answer = await client.call('incident-create', { body: { Name: 'Fire', ReportingOrganization: 'Ops' }, extra: { 'path:org': 'o1' } });
    expect(answer).toEqual({ Id: GUID(4) });
    const sent = fake.server.received.at(-1)!;
    expect([sent.method, sent.url]).toEqual(['PUT', '/api/orgs/o1/incidents']);
  });

  it('changes nothing without a binding: the catalogue names go out as they are', async () => {
    fake.answer = (_req, res) => json(res, 200, { Id: GUID(3) });
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials });
    await client.call('incident-create', { body: { Name: 'Fire', ReportingOrganization: 'Ops' } });
    expect(JSON.parse(fake.server.received.at(-1)!.body)).toEqual({
      Name: 'Fire',
      ReportingOrganization: 'Ops',
    });
  });
});
