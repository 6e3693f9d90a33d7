import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BindingInputError, exportSwagger, importBinding, relativePath } from '../../src/binding';
import { formatReport } from '../../src/binding-report';
import {
  DATASETS_AND_OPERATIONS,
  createCatalog,
  decodeRecord,
  encodeRequest,
  getAt,
  identityBound,
  indexList,
  readCreatedId,
  type BoundDataset,
  type BoundOperation,
  type Operation,
} from '../../src/catalog';
import { sampleValues } from './sample-values';

const FIX = join(__dirname, 'fixtures');
const G = '0f8fad5b-d9cb-469f-a165-70867728950e';
const G2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const tmp = () => mkdtempSync(join(tmpdir(), 'binding-import-'));
const op = (r: { binding: { endpoints: Record<string, unknown> } }, id: string) => r.binding.endpoints[id] as BoundOperation;
const placementOf = (o: BoundOperation, field: string) => o.placements.find((p) => p.field === field);

describe('the base path rule', () => {
  it.each([
    ['/api', '/directdata/v3/risk', '/directdata/v3/risk'],
    ['/', '/api/directdata/v3/risk', '/directdata/v3/risk'],
    ['/grc/api/', '/incidents/{incidentId}/status', '/incidents/{incidentId}/status'],
    ['/', '/directdata/v1/audit', '/directdata/v1/audit'],
    ['/api', '/', '/'],
  ])('basePath %s + %s binds %s', (basePath, path, expected) => {
    expect(relativePath(basePath, path)).toBe(expected);
  });
});

test("an OpenAPI server URL's variables take their defaults", async () => {
  const file = join(tmp(), 'vars.json');
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'vars', version: '1' },
      servers: [{ url: 'https://{host}/{root}/v{major}', variables: { host: { default: 'grc.example' }, root: { default: 'api' }, major: { default: '2' } } }],
      paths: { '/incidents': { get: { responses: { '200': { description: 'ok' } } } } },
    }),
  );
  const r = await importBinding(file);
  expect(r.binding.source.basePath).toBe('/api/v2');
  expect(r.parsed.operations[0]).toMatchObject({ path: '/v2/incidents', filePath: '/api/v2/incidents' });
});

describe('round trip: the catalogue export', () => {
  let r: Awaited<ReturnType<typeof importBinding>>;
  beforeAll(async () => {
    const file = join(tmp(), 'catalogue.swagger.json');
    writeFileSync(file, JSON.stringify(exportSwagger()));
    r = await importBinding(file);
  });

  it('binds every catalogue endpoint exactly, with the placements the catalogue itself has', () => {
    expect(r.binding.missing).toEqual({});
    expect(r.binding.decisions).toEqual({});
    expect(r.binding.extraDatasets).toEqual([]);
    for (const e of DATASETS_AND_OPERATIONS) {
      const b = r.binding.endpoints[e.id]!;
      const id = identityBound(e);
      const where = (x: typeof b) => x.placements.map((p) => `${p.field} ${p.in} ${p.at}`).sort();
      expect({ id: e.id, how: b.how, method: b.method, path: b.path, at: where(b) }).toEqual({
        id: e.id,
        how: 'exact',
        method: e.method,
        path: e.path,
        at: where(id),
      });
      if (b.kind === 'operation' && id.kind === 'operation') expect({ id: e.id, answer: b.answer, extras: b.extras }).toEqual({ id: e.id, answer: id.answer, extras: [] });
    }
    expect(formatReport(r)).toMatch(/DECISIONS FOR THE ADMIN: 0/);
  });

  it('sends exactly what the catalogue sends, operation by operation', () => {
    for (const e of DATASETS_AND_OPERATIONS.filter((x): x is Operation => x.kind === 'operation')) {
      const values = sampleValues(e);
      const imported = encodeRequest(op(r, e.id), values, {});
      const own = encodeRequest(identityBound(e) as BoundOperation, values, {});
      expect({ id: e.id, imported }).toEqual({ id: e.id, imported: own });
      expect(own.ok).toBe(true);
    }
  });
});

describe('acme.swagger.json (Swagger 2.0, camelCase, moved paths, nested references)', () => {
  let r: Awaited<ReturnType<typeof importBinding>>;
  beforeAll(async () => {
    r = await importBinding(join(FIX, 'acme.swagger.json'));
  });

  it('binds the documented paths exactly and finds the moved operations by name', () => {
    expect(r.binding.source).toMatchObject({ spec: 'swagger-2.0', basePath: '/api', title: 'ACME GRC integration API' });
    expect(r.binding.endpoints.risk).toMatchObject({ how: 'exact', path: '/directdata/v3/risk' });
    expect(op(r, 'incident-create')).toMatchObject({ method: 'POST', path: '/incidentdata/v1/incidents', file: { operationId: 'Incidents_Create' } });
    expect(op(r, 'thirdparty-create')).toMatchObject({ path: '/thirdpartydata/v2/thirdparty' });
    expect(op(r, 'task-update-v2')).toMatchObject({ path: '/taskdata/v2/tasks/{taskId}/update' });
    expect(placementOf(op(r, 'task-update-v2'), '{guid}')).toMatchObject({ in: 'path', at: 'taskId' });
    expect(Object.keys(r.binding.missing)).toEqual(['contract-create']);
    expect(r.binding.decisions).toEqual({});
    expect(r.binding.extraDatasets).toEqual([
      { id: 'x-assets', path: '/directdata/v1/assets', title: 'Assets', operationId: 'DirectData_Assets', records: '', properties: ['id', 'name', 'owner', 'value'] },
    ]);
  });

  it("encodes names and GUIDs as the file's reference objects, dates in its format, and its required extra", () => {
    const incident = op(r, 'incident-create');
    expect(placementOf(incident, 'ReportingOrganization')!.encoding).toEqual({ kind: 'ref', list: 'organizations', value: 'name', idAt: '/guid' });
    expect(placementOf(incident, 'IncidentTypes')!.encoding).toMatchObject({ kind: 'ref', idAt: '/guid', many: true });
    expect(placementOf(incident, 'DateDetected')!.encoding).toEqual({ kind: 'date', format: 'date-time' });
    expect(incident.extras).toEqual([
      expect.objectContaining({ key: 'body:/channel', header: 'channel', values: ['Excel', 'Web', 'Mail'], required: true }),
    ]);
    const lists = { organizations: indexList([{ id: G, name: 'Finance' }]) };
    const encoded = encodeRequest(
      incident,
      { Name: 'Leak', ReportingOrganization: 'Finance', RootCauseCategory: G2, IncidentTypes: [G, G2], DateDetected: '2026-01-02', CustomFields: [{ CustomFieldGuid: G, Value: 'x' }], 'body:/channel': 'Excel' },
      lists,
    );
    expect(encoded).toEqual({
      ok: true,
      request: {
        method: 'POST',
        path: '/incidentdata/v1/incidents',
        query: [],
        body: {
          name: 'Leak',
          reportingOrganization: { guid: G },
          rootCauseCategory: { guid: G2 },
          incidentTypes: [{ guid: G }, { guid: G2 }],
          dateDetected: '2026-01-02T00:00:00Z',
          customFields: [{ customFieldGuid: G, value: 'x' }],
          channel: 'Excel',
        },
      },
    });
    const record = r.binding.endpoints.incidents as BoundDataset;
    expect(decodeRecord(record, { id: G, name: 'Leak', dateDetected: '2026-01-02' })).toEqual({ Id: G, Name: 'Leak', DateDetected: '2026-01-02' });
  });

  it('reports the decision (the required extra), the mapping in the file\'s words, and the missing operation by consequence', () => {
    const text = formatReport(r, { overrides: 'acme.overrides' });
    expect(text).toMatch(/DECISIONS FOR THE ADMIN: 1\n {2}1\. Create an incident: the file requires channel \(one of Excel, Web, Mail\)/);
    expect(text).toMatch(/default incident-create body:\/channel = "Excel"/);
    expect(text).toMatch(/Create an incident \(incident-create\) {2}-> {2}POST \/api\/incidentdata\/v1\/incidents {2}\[Incidents_Create\]/);
    expect(text).toMatch(/body \/reportingOrganization +ReportingOrganization +name -> \{guid: GUID\} \(organizations\)/);
    expect(text).toMatch(/Write-backs affected:\n {4}Contracts: Create a third party contract: no operation of the file fits/);
    expect(text).toMatch(/x-assets: "Assets" GET \/directdata\/v1\/assets \(4 columns/);
    expect(text).toMatch(/Result: every endpoint is bound or its consequence is listed \(exit status 0\)/);
  });
});

describe('globex.openapi.yaml (OpenAPI 3.0, /api in the paths, a near-tie)', () => {
  let r: Awaited<ReturnType<typeof importBinding>>;
  beforeAll(async () => {
    r = await importBinding(join(FIX, 'globex.openapi.yaml'));
  });

  it('honours the server URL, leaves the near-tie to the admin with reasons, and lists the missing operations', () => {
    expect(r.binding.source).toMatchObject({ spec: 'openapi-3.0', basePath: '/' });
    expect(r.binding.decisions['thirdparty-create']).toMatchObject({
      reason: '2 operations fit almost equally well',
      candidates: [
        { ref: 'POST /thirdpartydata/v1/thirdparties/save', operationId: 'ThirdParties_Save', reasons: expect.arrayContaining(['4 of 4 fields placed']) },
        { ref: 'POST /thirdpartydata/v1/thirdparties/submit', operationId: 'ThirdParties_Submit' },
      ],
    });
    expect(r.binding.endpoints['thirdparty-create']).toBeUndefined();
    expect(r.unresolved).toEqual(['thirdparty-create']);
    expect(Object.keys(r.binding.missing).sort()).toEqual(['samples-generate', 'task-score-status']);
    expect(r.binding.extraDatasets.map((x) => x.id)).toEqual(['x-policy']);
    expect(createCatalog(r.binding).operation('thirdparty-create').unavailable?.reason).toBe('ambiguous');
  });

  it('places ThirdPartyGuid in the nested ThirdParty reference, Currency as a required extra, and widens the unit dropdown', () => {
    const contract = op(r, 'contract-create');
    expect(contract).toMatchObject({ path: '/contractdata/v1/contracts', file: { operationId: 'Contracts_Create' } });
    expect(placementOf(contract, 'ThirdPartyGuid')).toMatchObject({ at: '/ThirdParty', encoding: { kind: 'ref', idAt: '/Guid', value: 'guid' } });
    expect(contract.extras.map((x) => [x.header, x.required])).toEqual([['Currency', true]]);
    const unit = createCatalog(r.binding).operation('contract-create').body!;
    expect(unit.safeParse({ ThirdPartyGuid: G, Name: 'c', NoticePeriodUnit: 'Years' }).success).toBe(true);
    const text = formatReport(r, { binding: 'b.json', overrides: 'b.overrides' });
    expect(text).toMatch(/1\. Create a third party \(thirdparty-create\): 2 operations fit almost equally well; unavailable until you choose\.\n {5}a\) POST \/api\/thirdpartydata\/v1\/thirdparties\/save \[ThirdParties_Save\]/);
    expect(text).toMatch(/To choose, add to b\.overrides: {2}use thirdparty-create = POST \/thirdpartydata\/v1\/thirdparties\/save/);
    expect(text).toMatch(/Steps skipped \(the flow posts without them\): the score and status update step of Task updates/);
    expect(text).toMatch(/Result: 1 decision open \(exit status 1\)/);
  });

  it('resolves the near-tie with a "use" line, or with --accept', async () => {
    const overrides = join(tmp(), 'globex.overrides');
    writeFileSync(overrides, 'use thirdparty-create = POST /thirdpartydata/v1/thirdparties/submit  # the one that submits\n');
    const again = await importBinding(join(FIX, 'globex.openapi.yaml'), { overrides });
    expect(op(again, 'thirdparty-create')).toMatchObject({ how: 'admin', path: '/thirdpartydata/v1/thirdparties/submit' });
    expect(again.unresolved).toEqual([]);
    expect(again.binding.source.overrides).toMatchObject({ file: overrides });
    const accepted = await importBinding(join(FIX, 'globex.openapi.yaml'), { accept: true });
    expect(op(accepted, 'thirdparty-create').path).toMatch(/^\/thirdpartydata\/v1\/thirdparties\/(save|submit)$/);
    expect(formatReport(accepted)).toMatch(/taken with --accept/);
  });
});

describe("umbrella.openapi.json (OpenAPI 3.1: the issue's unseen file)", () => {
  let r: Awaited<ReturnType<typeof importBinding>>;
  beforeAll(async () => {
    r = await importBinding(join(FIX, 'umbrella.openapi.json'));
  });

  it("matches the British and synonym names, the {Guid, Name} references, and never places a readOnly property", () => {
    const incident = op(r, 'incident-create');
    expect(incident).toMatchObject({ method: 'POST', path: '/v2/incidents', answer: { in: 'body', at: '/Guid' } });
    expect(placementOf(incident, 'Name')).toMatchObject({ at: '/Title', how: 'synonym' });
    expect(placementOf(incident, 'ReportingOrganization')).toMatchObject({
      at: '/ReportingOrganisation',
      encoding: { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid', nameAt: '/Name' },
    });
    expect(placementOf(incident, 'Classification')!.encoding).toMatchObject({ kind: 'ref', idAt: '/Guid', nameAt: '/Name' });
    expect(placementOf(incident, 'DateDetected')).toMatchObject({ at: '/DetectionDate', encoding: { kind: 'date', format: 'date-time' } });
    expect(placementOf(incident, 'CustomFields')!.encoding).toEqual({
      kind: 'custom-fields',
      style: 'entries',
      guidAt: '/CustomField/Guid',
      valueAt: '/Answer',
      dateAt: '/AnswerDate',
      valueAs: 'string',
      // One text answer per field: a multi-select's options joined, never one entry each (docs/binding.md).
      multi: 'join',
    });
    expect(incident.placements.some((p) => p.at === '/Id')).toBe(false);
    expect(incident.extras.map((x) => [x.header, x.cell, x.required])).toEqual([
      ['Severity', 'text', true],
      ['Regulator (GUID)', 'guid', false],
    ]);
    expect(placementOf(op(r, 'incident-hyperlink'), 'Url')).toMatchObject({ at: '/Link', how: 'synonym' });
    expect(op(r, 'thirdparty-create')).toMatchObject({ answer: { in: 'header', at: 'location' } });
    expect(placementOf(op(r, 'thirdparty-create'), 'LeiCode')).toMatchObject({ at: '/LegalEntityIdentifier' });
  });

  it('binds the contract under its third party, never the deprecated twin, and names the twin', () => {
    const contract = op(r, 'contract-create');
    expect(contract).toMatchObject({ path: '/v2/thirdparties/{id}/contracts', answer: { in: 'body', at: '/data/guid' } });
    expect(placementOf(contract, 'ThirdPartyGuid')).toMatchObject({ in: 'path', at: 'id' });
    expect(placementOf(contract, 'NoticePeriodUnit')!.encoding).toMatchObject({ kind: 'enum', map: { Months: 'MONTHS', Weeks: 'WEEKS', Days: 'DAYS', None: 'NONE' } });
    expect(formatReport(r)).toMatch(/not chosen: POST \/api\/v2\/contracts \[Contracts_CreateOld\] \(deprecated\)/);
  });

  it('binds the task updates by PATCH and PUT at a path with two parameters', () => {
    expect(op(r, 'task-update')).toMatchObject({ method: 'PATCH', path: '/v2/projects/{projectId}/tasks/{taskId}' });
    expect(op(r, 'task-update-v2')).toMatchObject({ method: 'PUT', path: '/v2/projects/{projectId}/tasks/{taskId}' });
    expect(placementOf(op(r, 'task-update'), '{guid}')).toMatchObject({ in: 'path', at: 'taskId' });
    expect(placementOf(op(r, 'task-update'), 'Comment')).toMatchObject({ at: '/Remark', how: 'synonym' });
    expect(op(r, 'task-update').extras).toEqual([expect.objectContaining({ key: 'path:projectId', required: true })]);
    const c = createCatalog(r.binding);
    expect(c.match('PATCH', `/v2/projects/p1/tasks/${G}`)).toMatchObject({ ok: true, endpoint: { id: 'task-update' } });
  });

  it('NOTHING DROPPED: every non-empty value of a full row lands where the file wants it', () => {
    const lists = {
      organizations: indexList([{ id: G, name: 'Finance' }, { id: G2, name: 'Legal' }]),
      incidenttypes: indexList([{ id: G2, name: 'Outage' }]),
    };
    const values = {
      Name: 'Leak',
      ReportingOrganization: 'Finance',
      AffectedOrganizations: ['Legal'],
      IncidentTypes: [G2],
      Classification: G,
      RootCauseCategory: G2,
      DateDetected: '2026-03-01',
      Description: 'details',
      CustomFields: [{ CustomFieldGuid: G, Value: 3 }, { CustomFieldGuid: G2, DateValue: '2026-03-02' }],
      'body:/Severity': 'High',
      'body:/Regulator': G2,
    };
    const encoded = encodeRequest(op(r, 'incident-create'), values, lists);
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    const body = encoded.request.body;
    expect(getAt(body, '/Title')).toBe('Leak');
    expect(getAt(body, '/ReportingOrganisation')).toEqual({ Guid: G, Name: 'Finance' });
    expect(getAt(body, '/AffectedOrganisations')).toEqual([{ Guid: G2, Name: 'Legal' }]);
    expect(getAt(body, '/IncidentTypes')).toEqual([{ Guid: G2, Name: 'Outage' }]);
    expect(getAt(body, '/Classification')).toEqual({ Guid: G });
    expect(getAt(body, '/DetectionDate')).toBe('2026-03-01T00:00:00Z');
    expect(getAt(body, '/CustomFieldAnswers')).toEqual([
      { CustomField: { Guid: G }, Answer: '3' },
      { CustomField: { Guid: G2 }, AnswerDate: '2026-03-02' },
    ]);
    expect(getAt(body, '/Severity')).toBe('High');
    expect(getAt(body, '/Regulator')).toEqual({ Guid: G2 });
    // A value the file has no room for (DateOccurred) is a problem naming it, never silently left out.
    const more = encodeRequest(op(r, 'incident-create'), { ...values, DateOccurred: '2026-02-28' }, lists);
    expect(more).toMatchObject({ ok: false, problems: [{ field: 'DateOccurred', code: 'not-placed' }] });
    // The new id is read from the file's {"Guid"} answer.
    expect(readCreatedId(op(r, 'incident-create'), { status: 201, headers: {}, body: { Guid: G } })).toMatchObject({ ok: true, id: G });
  });
});

describe("the admin's overrides", () => {
  const umbrella = join(FIX, 'umbrella.openapi.json');
  const write = (text: string) => {
    const file = join(tmp(), 'umbrella.overrides');
    writeFileSync(file, text);
    return file;
  };

  it('assigns any operation to any flow, overrides a placement, an answer and a default; what they change is used', async () => {
    const overrides = write(
      [
        '# the admin knows better',
        'use incident-status = POST /v2/incidents/{IncidentGuid}/links   # scored nowhere near',
        'none thirdparty-create',
        'place incident-create DateOccurred = body /Description',
        'unplace incident-create Description',
        'place contract-create Services = body /AgreementName {"kind":"plain","as":"string"}',
        'unplace contract-create Name',
        'answer contract-create = header location',
        'default incident-create body:/Severity = "Low"',
      ].join('\n'),
    );
    const r = await importBinding(umbrella, { overrides });
    expect(r.applied).toBe(8);
    expect(r.dropped).toEqual([]);
    expect(op(r, 'incident-status')).toMatchObject({ how: 'admin', path: '/v2/incidents/{IncidentGuid}/links' });
    // The operation the admin took is no longer incident-hyperlink's.
    expect(r.binding.missing['incident-hyperlink']).toMatch(/used for incident-status by the admin/);
    expect(r.binding.missing['thirdparty-create']).toMatch(/the admin's overrides bind nothing/);
    expect(placementOf(op(r, 'incident-create'), 'DateOccurred')).toMatchObject({ at: '/Description', how: 'admin' });
    expect(placementOf(op(r, 'incident-create'), 'Description')).toBeUndefined();
    expect(op(r, 'contract-create').answer).toEqual({ in: 'header', at: 'location' });
    expect(op(r, 'incident-create').extras.find((x) => x.key === 'body:/Severity')!.default).toBe('Low');
    // With a default, Severity is no longer a decision; the flow the admin bound to a link operation now asks for Link.
    const text = formatReport(r);
    expect(text).not.toMatch(/requires Severity/);
    expect(text).toMatch(/Change an incident status: the file requires Link/);
  });

  it('keeps on re-import what the newer file still supports and says which lines it dropped', async () => {
    const overrides = write(
      ['use contract-create = POST /v2/contracts', 'place incident-create Name = body /Headline', 'default task-update path:projectId = "p1"'].join('\n'),
    );
    const r = await importBinding(umbrella, { overrides });
    expect(op(r, 'contract-create')).toMatchObject({ how: 'admin', path: '/v2/contracts', file: { deprecated: true } });
    expect(r.dropped).toEqual([{ line: 2, text: 'place incident-create Name = body /Headline', reason: 'POST /v2/incidents has no property /Headline' }]);
    expect(op(r, 'task-update').extras[0]!.default).toBe('p1');
    expect(r.binding.consequences).toContainEqual(expect.objectContaining({ kind: 'dropped-override' }));
    expect(formatReport(r, { overrides: 'umbrella.overrides' })).toMatch(
      /umbrella\.overrides line 2 "place incident-create Name = body \/Headline" no longer applies: POST \/v2\/incidents has no property \/Headline/,
    );
  });

  it.each([
    ['use incident-create POST /incidents', /:1: not an overrides line/],
    ['use nope = POST /v2/incidents', /:1: "nope" is not a catalogue endpoint id/],
    ['place incident-create Name = body /Title {"kind":"sideways"}', /:1: not an encoding/],
    ['default incident-create body:/Severity = Low', /:1: the default is not a JSON value/],
  ])('refuses a bad line with one message naming the file and line: %s', async (line, message) => {
    const overrides = write(`# ok\n${line}`.replace('# ok\n', ''));
    await expect(importBinding(umbrella, { overrides })).rejects.toThrow(BindingInputError);
    await expect(importBinding(umbrella, { overrides })).rejects.toThrow(message);
  });
});

describe('deprecated operations', () => {
  it('are never chosen, not even with --accept, and the report says how to take one anyway', async () => {
    const file = join(tmp(), 'old.json');
    const body = { type: 'object', properties: { Name: { type: 'string' }, Description: { type: 'string' }, Score: { type: 'number' } } };
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'old', version: '1' },
        servers: [{ url: '/api' }],
        paths: {
          '/tasks/{taskId}': {
            post: {
              operationId: 'Tasks_Update',
              deprecated: true,
              parameters: [{ name: 'taskId', in: 'path', required: true, schema: { type: 'string' } }],
              requestBody: { content: { 'application/json': { schema: body } } },
              responses: { '204': { description: 'ok' } },
            },
          },
        },
      }),
    );
    for (const accept of [false, true]) {
      const r = await importBinding(file, { accept });
      expect(r.binding.endpoints['task-update']).toBeUndefined();
      expect(r.binding.endpoints['task-update-v2']).toBeUndefined();
      expect(r.binding.missing['task-update']).toMatch(/only deprecated operations fit \(POST \/tasks\/\{taskId\}\); to use one anyway: use task-update = POST \/tasks\/\{taskId\}/);
    }
  });
});

describe('operations grc-sheets cannot send', () => {
  it('are listed under "Not bindable" with why: a body that is neither JSON nor a form', async () => {
    const file = join(tmp(), 'xml.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'xml', version: '1' },
        paths: {
          '/incidents/{id}/document': {
            post: {
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              requestBody: { content: { 'application/xml': { schema: { type: 'object', properties: { file: { type: 'string' } } } } } },
              responses: { '204': { description: 'ok' } },
            },
          },
        },
      }),
    );
    const r = await importBinding(file);
    expect(r.parsed.skipped).toEqual(['POST /incidents/{id}/document: its body is neither JSON nor a form (application/xml)']);
    expect(formatReport(r)).toMatch(/Not bindable:\n {2}POST \/incidents\/\{id\}\/document: its body is neither JSON nor a form/);
    expect(r.binding.endpoints['incident-document']).toBeUndefined();
  });
});

describe('security schemes as ASP.NET writes them', () => {
  it('reads a 3.0 file whose HTTP scheme is "Bearer" beside a bearerFormat (the name is case-insensitive; Digdir\'s Dialogporten file has it)', async () => {
    const file = join(tmp(), 'bearer.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'bearer', version: '1' },
        components: { securitySchemes: { JWTBearerAuth: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' } } },
        paths: { '/risks': { get: { responses: { '200': { description: 'ok' } } } } },
      }),
    );
    const r = await importBinding(file);
    expect(r.parsed.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /risks']);
  });
});

describe('form bodies', () => {
  it('binds a multipart document upload: the content as a file part named by the file name', async () => {
    const file = join(tmp(), 'forms.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'forms', version: '1' },
        paths: {
          '/incidents/{id}/document': {
            post: {
              summary: 'Add a document to an incident',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } } } },
              responses: { '204': { description: 'ok' } },
            },
          },
        },
      }),
    );
    const r = await importBinding(file);
    expect(r.parsed.skipped).toEqual([]);
    const doc = op(r, 'incident-document');
    expect(doc).toMatchObject({ form: 'multipart' });
    expect(placementOf(doc, 'ContentBase64')).toMatchObject({ at: '/file', encoding: { kind: 'file', nameField: 'FileName' } });
    const sent = encodeRequest(doc, { '{guid}': '0f8fad5b-d9cb-469f-a165-70867728950e', FileName: 'a.txt', ContentBase64: 'aGk=' }, {});
    expect(sent).toEqual({
      ok: true,
      request: expect.objectContaining({ form: 'multipart', body: { file: { filename: 'a.txt', base64: 'aGk=' } } }),
    });
  });
});

describe('dataset records in the file\'s spellings', () => {
  it("reads an enum the file spells its own way back into the catalogue's values (NoticePeriodUnit months -> Months)", async () => {
    const file = join(tmp(), 'contracts.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'c', version: '1' },
        paths: {
          '/thirdpartycontract': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, notice_period_unit: { type: 'string', enum: ['months', 'weeks', 'days', 'none'] } } } } } },
                },
              },
            },
          },
        },
      }),
    );
    const r = await importBinding(file);
    const ds = r.binding.endpoints.thirdpartycontract as BoundDataset;
    expect(decodeRecord(ds, { id: G, notice_period_unit: 'months' })).toEqual({ Id: G, NoticePeriodUnit: 'Months' });
  });
});

describe('overrides of forms, dates and custom field answers', () => {
  it('takes the admin\'s form, date pattern and custom field choices from the overrides file, and takes repeated entries for a contract on the admin\'s word', async () => {
    const overrides = join(tmp(), 'pinewood.overrides');
    writeFileSync(
      overrides,
      [
        'form incident-hyperlink = multipart',
        'encode incident-create DateDetected = {"pattern":"yyyyMMdd"}',
        'encode thirdparty-create CustomFields = {"options":"guid"}',
        'encode incident-create CustomFields = {"multi":"join","separator":","}',
        'encode contract-create CustomFields = {"multi":"repeat"}',
      ].join('\n'),
    );
    const r = await importBinding(join(__dirname, 'corpus', 'pinewood.swagger.yaml'), { overrides, accept: true });
    expect(op(r, 'incident-hyperlink').form).toBe('multipart');
    expect(placementOf(op(r, 'incident-create'), 'DateDetected')!.encoding).toEqual({ kind: 'date', format: 'date', pattern: 'yyyyMMdd' });
    expect(placementOf(op(r, 'thirdparty-create'), 'CustomFields')!.encoding).toMatchObject({ multi: 'array', options: 'guid' });
    expect(placementOf(op(r, 'incident-create'), 'CustomFields')!.encoding).toMatchObject({ style: 'map', multi: 'join', separator: ',' });
    expect(placementOf(op(r, 'contract-create'), 'CustomFields')!.encoding).toMatchObject({ multi: 'repeat' });
    expect(r.dropped).toEqual([]);
    const sent = encodeRequest(op(r, 'incident-create'), { Name: 'x', ReportingOrganization: '0f8fad5b-d9cb-469f-a165-70867728950e', DateDetected: '2026-03-02', 'body:/channel': 'email' }, {});
    expect(sent.ok && (sent.request.body as { detected_on: string }).detected_on).toBe('20260302');
  });

  it('refuses a malformed encode or form line with its place in the overrides file', async () => {
    const bad = join(tmp(), 'bad.overrides');
    writeFileSync(bad, 'encode incident-create DateDetected = {"kind":"plain"}\n');
    await expect(importBinding(join(__dirname, 'corpus', 'pinewood.swagger.yaml'), { overrides: bad })).rejects.toThrow(/bad\.overrides:1: .*without "kind"/);
    writeFileSync(bad, 'form incident-hyperlink = xml\n');
    await expect(importBinding(join(__dirname, 'corpus', 'pinewood.swagger.yaml'), { overrides: bad })).rejects.toThrow(/bad\.overrides:1: not an overrides line/);
  });
});
