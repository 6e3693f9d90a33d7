/* eslint-disable @typescript-eslint/no-explicit-any -- answers are arbitrary JSON that the assertions inspect */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { ApiFileError, loadApiFile, startSandbox, type ApiFile, type Sandbox } from '../../src/sandbox';
import { basic, start } from './helpers';
import {
  at,
  corpusFile,
  customerBinding,
  dataset,
  initechBinding,
  inPath,
  operation,
} from './customer-binding';

/**
 * The bound sandbox as the customer's stand-in: it checks bodies against the customer's own file with ajv
 * (OpenAPI 3.0 nullable, 3.1 type arrays, Swagger 2.0 x-nullable, readOnly in requests, oneOf), answers in
 * the file's documented shape and serves records with the file's properties.
 */
async function send(sb: Sandbox, method: string, path: string, body?: unknown) {
  const res = await request(`${sb.url}${path}`, {
    method: method as 'POST',
    headers: {
      authorization: basic('admin'),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    location: res.headers.location as string | undefined,
    text,
    body: text ? (JSON.parse(text) as any) : undefined,
  };
}

const fieldsOf = (a: { body: any }) => (a.body.errors as { field: string }[]).map((e) => e.field);

describe('a sandbox bound to initech.openapi.json (OpenAPI 3.0, references as {Guid, Name})', () => {
  let sb: Sandbox;
  let file: ApiFile;
  let finance: { Id: string; Name: string };
  beforeAll(async () => {
    file = await loadApiFile(corpusFile('initech.openapi.json'));
    sb = await start({ binding: initechBinding(), apiFile: file });
    finance = sb.store.list<{ Id: string; Name: string }>('organizations').find((o) => o.Name === 'Finance')!;
  });
  afterAll(() => sb.close());

  it("takes the body the file describes, stores the catalogue's values, answers 201 {Guid} as the file documents", async () => {
    const type = sb.store
      .list<{ Id: string; Name: string; Archived: boolean }>('incidenttypes')
      .find((t) => !t.Archived)!;
    const body = {
      IncidentTitle: 'Server room flooded',
      ReportingOrganisation: { Guid: finance.Id, Name: 'Finance' },
      AffectedOrganisations: [{ Guid: finance.Id }],
      IncidentTypes: [{ Guid: type.Id }],
      DetectionDate: '2026-03-01T00:00:00Z',
    };
    const a = await send(sb, 'POST', '/v1/Incidents', body);
    expect(a.status).toBe(201);
    expect(Object.keys(a.body)).toEqual(['Guid']);
    expect(file.checkAnswer(file.find('POST', '/v1/Incidents')!.answer.schema)(a.body)).toBe(true);
    expect(sb.store.find('incidents', a.body.Guid)).toMatchObject({
      Name: 'Server room flooded',
      ReportingOrganization: 'Finance',
      AffectedOrganizations: ['Finance'],
      IncidentTypes: [type.Name],
      DateDetected: '2026-03-01',
    });
    expect(sb.store.received.at(-1)).toEqual({
      endpoint: 'incident-create',
      method: 'POST',
      path: '/v1/Incidents',
      query: '',
      body,
      id: a.body.Guid,
    });
  });

  it('refuses the wrong shape (a GUID string where the file wants an object), naming the property', async () => {
    const before = sb.store.counts().incidents;
    const a = await send(sb, 'POST', '/v1/Incidents', {
      IncidentTitle: 'x',
      ReportingOrganisation: finance.Id,
    });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([{ field: 'ReportingOrganisation', message: 'The value must be object.' }]);
    expect(sb.store.counts().incidents).toBe(before);
  });

  it("refuses the catalogue's own names and a malformed GUID inside a reference", async () => {
    const names = await send(sb, 'POST', '/v1/Incidents', { Name: 'x', ReportingOrganization: 'Finance' });
    expect(names.status).toBe(400);
    expect(fieldsOf(names)).toEqual(['IncidentTitle', 'ReportingOrganisation']);
    const bad = await send(sb, 'POST', '/v1/Incidents', {
      IncidentTitle: 'x',
      ReportingOrganisation: { Guid: 'Finance' },
    });
    expect(bad.body.errors).toEqual([
      { field: 'ReportingOrganisation.Guid', message: 'The value is not a valid uuid.' },
    ]);
  });

  it("applies the spec's rules after the file's: an unknown organisation is refused by name", async () => {
    const a = await send(sb, 'POST', '/v1/Incidents', {
      IncidentTitle: 'x',
      ReportingOrganisation: { Guid: '00000000-0000-4000-8000-00000000abcd' },
    });
    expect(a.status).toBe(400);
    expect(fieldsOf(a)).toContain('ReportingOrganization');
  });

  it('takes null where the file says nullable (OpenAPI 3.0) and answers 204 without a body where it documents one', async () => {
    const user = sb.store.list<{ Id: string; Deleted: boolean }>('users').find((u) => !u.Deleted)!;
    const made = await send(sb, 'POST', '/v1/Incidents', {
      IncidentTitle: 'with a link',
      Description: 'Ready for links',
      ReportingOrganisation: { Guid: finance.Id },
      Assessors: [{ Guid: user.Id }],
      Responsible: [{ Guid: user.Id }],
    });
    const a = await send(sb, 'POST', `/v1/Incidents/${made.body.Guid}/Hyperlinks`, {
      Link: 'https://intranet.initech.example/x',
      HyperlinkType: null,
    });
    expect([a.status, a.text]).toEqual([204, '']);
    const bad = await send(sb, 'POST', `/v1/Incidents/${made.body.Guid}/Hyperlinks`, {
      Link: 'has spaces in it',
    });
    expect(bad.body.errors).toEqual([{ field: 'Link', message: 'The value must match pattern "^\\S+$".' }]);
  });

  it('serves the incidents dataset with every property the file documents for a record, valid against the file', async () => {
    const a = await send(sb, 'GET', '/v1/Incidents');
    expect(a.status).toBe(200);
    const schema = file.find('GET', '/v1/Incidents')!.record;
    const check = file.checkAnswer(schema);
    for (const r of a.body.slice(0, 20)) expect([check(r), check.errors]).toEqual([true, null]);
    const first = a.body[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        'Classification',
        'DetectionDate',
        'Guid',
        'Identifier',
        'IncidentTitle',
        'ReportingOrganisation',
        'Status',
      ].sort(),
    );
    const stored = sb.store.find('incidents', first.Guid)!;
    expect(first).toMatchObject({
      IncidentTitle: stored.Name,
      ReportingOrganisation: { Guid: expect.any(String), Name: stored.ReportingOrganization },
    });
  });

  it("serves each record's own GUID where the file keeps it, even when the binding did not place it", async () => {
    const a = await send(sb, 'GET', '/v1/Organisations');
    const stored = sb.store.list<{ Id: string; Name: string }>('organizations');
    expect(a.body.map((o: any) => [o.Guid, o.Name])).toEqual(stored.map((o) => [o.Id, o.Name]));
  });
});

describe('a sandbox bound to soylent.openapi.yaml (OpenAPI 3.0: wrapper member, oneOf, readOnly in the request schema)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({
      apiFile: corpusFile('soylent.openapi.yaml'),
      binding: customerBinding({
        'incident-create': operation(
          'POST',
          '/orm/v4/incidents',
          [
            at('Name', '/incident/name'),
            at('ReportingOrganization', '/incident/reporting_organisation', {
              kind: 'ref',
              list: 'organizations',
              value: 'name',
              nameAt: '/name',
            }),
          ],
          { in: 'body', at: '/record/id' },
        ),
        thirdparty: dataset('/orm/v4/third_parties', [
          at('Id', '/id'),
          at('Name', '/name'),
          at('LeiCode', '/lei_code'),
        ]),
      }),
    });
  });
  afterAll(() => sb.close());

  it('answers {"status": "ok", "record": {"id"}} and takes either alternative of the oneOf', async () => {
    const byName = await send(sb, 'POST', '/orm/v4/incidents', {
      incident: { name: 'Laptop stolen', reporting_organisation: { name: 'Finance' } },
    });
    expect(byName.status).toBe(201);
    expect(byName.body).toEqual({ status: 'ok', record: { id: expect.any(String) } });
    expect(sb.store.find('incidents', byName.body.record.id)).toMatchObject({
      ReportingOrganization: 'Finance',
    });
  });

  it('refuses a read-only property sent in a request and a value that fits no alternative', async () => {
    const a = await send(sb, 'POST', '/orm/v4/incidents', {
      incident: { id: '00000000-0000-4000-8000-000000000001', name: 'x', reporting_organisation: 'Finance' },
    });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([
      {
        field: 'incident.id',
        message: 'The property is read-only: the service sets it, so it may not be sent.',
      },
      {
        field: 'incident.reporting_organisation',
        message: 'The value matches none of the shapes the API file allows here (oneOf).',
      },
    ]);
  });

  it("serves the file's writeOnly-free record: created_at filled, custom answers never shown", async () => {
    const a = await send(sb, 'GET', '/orm/v4/third_parties');
    expect(Object.keys(a.body[0]).sort()).toEqual([
      'created_at',
      'framework_dimensions',
      'id',
      'lei_code',
      'name',
    ]);
  });
});

describe('a sandbox bound to vandelay.swagger.json (Swagger 2.0, Location-only answers, x-nullable)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({
      apiFile: corpusFile('vandelay.swagger.json'),
      binding: customerBinding({
        'incident-create': operation(
          'POST',
          '/Incidents',
          [
            at('Name', '/IncidentName'),
            at('ReportingOrganization', '/ReportingOrganisationGuid', {
              kind: 'guid',
              list: 'organizations',
              value: 'name',
            }),
          ],
          { in: 'header', at: 'location' },
        ),
        'task-update-v2': operation('PUT', '/Tasks/{TaskGuid}', [
          inPath('{guid}', 'TaskGuid'),
          at('Name', '/Name'),
          at('Description', '/Description'),
          at('ResponsibleUser', '/ResponsibleUser'),
          at('Reviewer', '/Reviewer'),
          at('ActionDate', '/ActionDate'),
          at('Score', '/Score'),
          at('Comment', '/Remark'),
          at('NotificationPeriods', '/NotificationPeriods'),
        ]),
      }),
    });
  });
  afterAll(() => sb.close());

  it('answers 201 with a Location ending in the new GUID and no body', async () => {
    const finance = sb.store
      .list<{ Id: string; Name: string }>('organizations')
      .find((o) => o.Name === 'Finance')!;
    const a = await send(sb, 'POST', '/Incidents', {
      IncidentName: 'Forklift accident',
      ReportingOrganisationGuid: finance.Id,
      SourceSystem: 'EXCEL',
    });
    expect([a.status, a.text]).toEqual([201, '']);
    const id = a.location!.split('/').pop()!;
    expect(a.location).toBe(`/api/Incidents/${id}`);
    expect(sb.store.find('incidents', id)).toMatchObject({
      Name: 'Forklift accident',
      ReportingOrganization: 'Finance',
    });
  });

  it("a required property no flow fills (SourceSystem) and its enum are the file's to enforce", async () => {
    const a = await send(sb, 'POST', '/Incidents', {
      IncidentName: 'x',
      ReportingOrganisationGuid: '00000000-0000-4000-8000-000000000001',
      SourceSystem: 'FAX',
    });
    expect(a.body.errors).toEqual([
      { field: 'SourceSystem', message: 'The value must be one of: EXCEL, SERVICEDESK, MANUAL.' },
    ]);
  });

  it('takes a PUT task update with nulls where the file says x-nullable, and answers 204', async () => {
    const task = sb.store.list<Record<string, any>>('tasks').find((t) => t.Status === 'To do')!;
    const a = await send(sb, 'PUT', `/Tasks/${task.Id}`, {
      Name: task.Name,
      Description: null,
      ResponsibleUser: task.ResponsibleUser,
      Reviewer: null,
      ActionDate: '2026-05-01',
      Score: null,
      Remark: 'checked',
      NotificationPeriods: [],
    });
    expect([a.status, a.text]).toEqual([204, '']);
    expect(sb.store.find('tasks', task.Id)).toMatchObject({ Comment: 'checked', ActionDate: '2026-05-01' });
  });
});

describe('a sandbox bound to hooli.openapi.yaml (OpenAPI 3.1: envelopes, type arrays, allOf)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({
      apiFile: corpusFile('hooli.openapi.yaml'),
      binding: customerBinding({
        'incident-create': operation(
          'POST',
          '/incident-reports',
          [
            at('Name', '/data/subject'),
            at('Description', '/data/narrative'),
            at('ReportingOrganization', '/data/reportingOrganisation', {
              kind: 'ref',
              list: 'organizations',
              value: 'name',
              idAt: '/id',
            }),
          ],
          { in: 'body', at: '/data/id' },
        ),
        // As a binding that missed the list's envelope would have it: records at the top.
        users: dataset('/directory/users', [at('Id', '/id'), at('Name', '/name')], ''),
      }),
    });
  });
  afterAll(() => sb.close());

  it('checks the allOf body inside its data envelope with JSON Schema 2020-12 (type arrays take null)', async () => {
    const finance = sb.store
      .list<{ Id: string; Name: string }>('organizations')
      .find((o) => o.Name === 'Finance')!;
    const a = await send(sb, 'POST', '/incident-reports?api-version=2026-02-01', {
      data: { subject: 'Phishing mail opened', narrative: null, reportingOrganisation: { id: finance.Id } },
    });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ data: { id: expect.any(String) } });
    const missing = await send(sb, 'POST', '/incident-reports?api-version=2026-02-01', {
      data: { narrative: 5 },
    });
    expect(missing.body.errors).toEqual([
      { field: 'data.narrative', message: 'The value must be string,null.' },
      { field: 'data.subject', message: 'The field is required.' },
      { field: 'data.reportingOrganisation', message: 'The field is required.' },
    ]);
  });

  it('refuses a write without the query parameter the file requires, or with a value it does not list', async () => {
    const body = {
      data: { subject: 'x', reportingOrganisation: { id: '00000000-0000-4000-8000-000000000001' } },
    };
    const missing = await send(sb, 'POST', '/incident-reports', body);
    expect([missing.status, missing.body.errors]).toEqual([
      400,
      [{ field: 'api-version', message: 'The query parameter is required.' }],
    ]);
    const wrong = await send(sb, 'POST', '/incident-reports?api-version=2019-01-01', body);
    expect(wrong.body.errors).toEqual([
      { field: 'api-version', message: 'The value must be one of: 2026-02-01, 2025-06-01.' },
    ]);
  });

  it('serves records inside the envelope the file documents, whatever the binding thought', async () => {
    const a = await send(sb, 'GET', '/directory/users');
    expect(Array.isArray(a.body.data)).toBe(true);
    expect(Object.keys(a.body.data[0]).sort()).toEqual(['deleted', 'email', 'id', 'name']);
  });
});

describe('an API file the sandbox cannot use', () => {
  it('is one ApiFileError naming the file and the place, and no sandbox starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-file-'));
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'openapi: 3.0.0\npaths:\n  /x: [unclosed\n');
    const e = await startSandbox({ apiFile: broken, binding: initechBinding() }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiFileError);
    expect((e as Error).message).toContain(broken);
    await expect(loadApiFile(join(dir, 'absent.json'))).rejects.toThrow(
      /absent\.json is not a readable Swagger 2\.0 or OpenAPI 3 file/,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
