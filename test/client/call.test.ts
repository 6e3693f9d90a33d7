import { createHash } from 'node:crypto';
import { createClient } from '../../src/client';
import { createCatalog, type EncodedRequest } from '../../src/catalog';
import { fakeForFile, GUID, json } from './fake-server';
import { failureOf } from '../support/api-error';
import { bindPaths } from '../catalog/bind-paths';

const credentials = { identifier: 'id', password: 'pw' };
const fake = fakeForFile();

const client = () => createClient({ baseUrl: `${fake.server.baseUrl}/`, credentials });

describe('client.call', () => {
  it('POSTs the schema-checked JSON body to the catalogue path and returns the checked answer', async () => {
    fake.answer = (_req, res) => json(res, 200, { Id: GUID(1) });
    const result = await client().call('incident-create', {
      body: { Name: 'Fire', ReportingOrganization: 'Ops', NotInTheSchema: 'dropped' },
    });
    expect(result).toEqual({ Id: GUID(1) });
    const sent = fake.server.received.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/api/incidents' });
    expect(sent.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(sent.body)).toEqual({ Name: 'Fire', ReportingOrganization: 'Ops' });
  });

  it('accepts a bare JSON string GUID, or a plain-text GUID, as the answer to a create', async () => {
    fake.answer = (_req, res) => json(res, 200, GUID(2));
    await expect(
      client().call('incident-create', { body: { Name: 'a', ReportingOrganization: 'b' } }),
    ).resolves.toEqual({ Id: GUID(2) });
    fake.answer = (_req, res) => {
      res.writeHead(201, { 'content-type': 'text/plain' });
      res.end(GUID(3));
    };
    await expect(client().call('thirdparty-create', { body: { Name: 'Acme' } })).resolves.toEqual({
      Id: GUID(3),
    });
  });

  it('refuses a body that fails the operation schema with invalid-body naming each field, and sends nothing', async () => {
    const before = fake.server.received.length;
    const e = await failureOf(() =>
      client().call('contract-create', {
        body: { ThirdPartyGuid: 'nope', Name: 'C', NoticePeriodUnit: 'Fortnights', StartDate: '01/02/2024' },
      }),
    );
    expect(e).toMatchObject({ code: 'invalid-body', sent: 'no', endpoint: 'contract-create' });
    expect(e.details!.map((d) => d.field).sort()).toEqual([
      'NoticePeriodUnit',
      'StartDate',
      'ThirdPartyGuid',
    ]);
    expect(e.message).toMatch(/was not sent/);
    expect(e.message).toMatch(/ThirdPartyGuid: expected a GUID/);
    expect(fake.server.received.length).toBe(before);
  });

  it('refuses a third party with an invalid LEI code before sending it, with the check digits named', async () => {
    const before = fake.server.received.length;
    const e = await failureOf(() =>
      client().call('thirdparty-create', { body: { Name: 'Acme', LeiCode: '5493001KJTIIGC8Y1R13' } }),
    );
    expect(e).toMatchObject({ code: 'invalid-body', sent: 'no', endpoint: 'thirdparty-create' });
    expect(e.details).toMatchObject([{ field: 'LeiCode', message: expect.stringMatching(/check digits/) }]);
    expect(fake.server.received.length).toBe(before);
  });

  it('names nested fields by path (CustomFields[0].CustomFieldGuid)', async () => {
    const e = await failureOf(() =>
      client().call('incident-create', {
        body: { Name: 'a', ReportingOrganization: 'b', CustomFields: [{ CustomFieldGuid: 'x', Value: 'v' }] },
      }),
    );
    expect(e.details).toContainEqual({
      field: 'CustomFields[0].CustomFieldGuid',
      message: 'expected a GUID',
    });
  });

  it('fills {guid} in the path; an operation without a body sends none', async () => {
    fake.answer = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    await expect(client().call('task-advance', { params: { guid: GUID(4) } })).resolves.toBeUndefined();
    const sent = fake.server.received.at(-1)!;
    expect(sent.url).toBe(`/api/taskdata/v2/tasks/${GUID(4)}/workflow/advance`);
    expect(sent.body).toBe('');
    expect(sent.headers['content-type']).toBeUndefined();
    expect(
      await failureOf(() => client().call('task-advance', { params: { guid: GUID(4) }, body: { x: 1 } })),
    ).toMatchObject({ code: 'invalid-body' });
    expect(await failureOf(() => client().call('task-advance'))).toMatchObject({
      code: 'invalid-body',
      sent: 'no',
    });
  });

  it('returns a document warning as the answer { Warning }', async () => {
    fake.answer = (_req, res) => json(res, 200, { Warning: 'You may not add documents to this incident.' });
    await expect(
      client().call('incident-document', {
        params: { guid: GUID(5) },
        body: { FileName: 'a.pdf', ContentBase64: 'AAAA' },
      }),
    ).resolves.toEqual({ Warning: 'You may not add documents to this incident.' });
  });

  it('an answer that does not match the answer schema → bad-answer, sent yes (the write probably happened)', async () => {
    fake.answer = (_req, res) => json(res, 200, { Id: 'not-a-guid' });
    const e = await failureOf(() =>
      client().call('incident-create', { body: { Name: 'a', ReportingOrganization: 'b' } }),
    );
    expect(e).toMatchObject({
      code: 'bad-answer',
      sent: 'yes',
      status: 200,
      details: [{ field: 'Id', message: 'expected a GUID' }],
    });
    expect(e.message).toMatch(/check the record/);
  });

  it('never follows a redirect on a write: outcome unknown (check before resending), nothing sent to where it pointed', async () => {
    for (const status of [302, 307]) {
      fake.answer = (req, res) => {
        if (req.url === '/api/incidents') {
          res.writeHead(status, { location: '/api/elsewhere' });
          res.end();
        } else json(res, 201, { Id: GUID(7) });
      };
      const before = fake.server.received.length;
      const e = await failureOf(() => client().call('incident-create', { body: { Name: 'a', ReportingOrganization: 'b' } }));
      expect(e).toMatchObject({ code: 'outcome-unknown', sent: 'unknown' });
      expect(e.message).toMatch(/answered with a redirect.*check the base URL.*check the record in the service/);
      expect(fake.server.received.slice(before).map((r) => r.url)).toEqual(['/api/incidents']);
    }
  });

  it("hashes a write's body as the service receives its bytes, small (here) and large (crypto.subtle) alike", async () => {
    fake.answer = (_req, res) => json(res, 201, { Id: GUID(8) });
    for (const description of ['Ünïcode \u{1F525} and "quotes"', 'x'.repeat(70 * 1024) + 'é']) {
      const written: { sha256: string; ref: string }[] = [];
      const request: EncodedRequest = { method: 'POST', path: '/incidents', query: [], body: { Name: 'a', ReportingOrganization: 'b', Description: description } };
      const answer = await client().send('incident-create', request, { sent: (w) => written.push(w) });
      const got = fake.server.received.at(-1)!;
      const hash = createHash('sha256').update(Buffer.from(got.body, 'utf8')).digest('hex');
      expect(answer.sentSha256).toBe(hash);
      expect(written).toEqual([{ sha256: hash, ref: answer.writeRef }]);
      expect(got.headers['x-grc-write-ref']).toBe(answer.writeRef);
    }
  });

  it('uses the bound path of an assumed operation from a catalogue built from a binding', async () => {
    fake.answer = (_req, res) => json(res, 200, { Id: GUID(6) });
    const c = createClient({
      baseUrl: fake.server.baseUrl,
      credentials,
      catalog: createCatalog(bindPaths({ 'incident-create': '/incidentdata/v2/incidents' })),
    });
    await c.call('incident-create', { body: { Name: 'a', ReportingOrganization: 'b' } });
    expect(fake.server.received.at(-1)!.url).toBe('/api/incidentdata/v2/incidents');
  });

  it('refuses a base URL with credentials in it, so they cannot leak into logs', () => {
    expect(() => createClient({ baseUrl: 'https://id:pw@grc.example.com/api', credentials })).toThrow(
      /must not contain credentials/,
    );
    expect(() => createClient({ baseUrl: 'grc.example.com/api', credentials })).toThrow(
      /not an absolute URL/,
    );
  });
});
