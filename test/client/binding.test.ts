import { createCatalog } from '../../src/catalog';
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
      extra: { severity: 'High' },
    });
    expect(JSON.parse(fake.server.received.at(-1)!.body)).toMatchObject({ severity: 'High' });
  });

  it('refuses, before sending, a body missing a property the file requires, naming it and the fix', async () => {
    const b = shapedBinding();
    b.endpoints['incident-create']!.body!.extra = [{ name: 'severity', type: 'string' }];
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(b) });
    const before = fake.server.received.length;
    const e = await failureOf(
      client.call('incident-create', { body: { Name: 'Fire', ReportingOrganization: 'Ops' } }),
    );
    expect(e).toMatchObject({ code: 'invalid-body', sent: 'no', details: [{ field: 'severity' }] });
    expect(e.message).toContain('"severity"');
    expect(e.message).toMatch(/column|default/);
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
    b.missing.push('contract-create');
    const client = createClient({ baseUrl: fake.server.baseUrl, credentials, catalog: createCatalog(b) });
    const before = fake.server.received.length;
    const e = await failureOf(client.call('contract-create', { body: {} }));
    expect(e).toMatchObject({ code: 'not-found', sent: 'no' });
    expect(e.message).toContain('not available on this environment');
    expect(fake.server.received.length).toBe(before);
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
