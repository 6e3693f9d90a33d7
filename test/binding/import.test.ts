import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSwagger, formatReport, importBinding, relativePath } from '../../src/binding';
import {
  createCatalog,
  DATASETS_AND_OPERATIONS,
  identityBound,
  toWire,
  fromWire,
  missingRequired,
} from '../../src/catalog';

const FIX = join(__dirname, 'fixtures');
const G = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('the base path rule', () => {
  it.each([
    ['/api', '/directdata/v3/risk', '/directdata/v3/risk'],
    ['/', '/api/directdata/v3/risk', '/directdata/v3/risk'],
    ['/grc/api/', '/incidents/{incidentId}/status', '/incidents/{guid}/status'],
    ['/', '/directdata/v1/audit', '/directdata/v1/audit'],
    ['/api', '/', '/'],
  ])('basePath %s + %s binds %s', (basePath, path, expected) => {
    expect(relativePath(basePath, path)).toBe(expected);
  });
});

describe('round trip: the catalogue export', () => {
  it('binds every catalogue endpoint exactly with identity property maps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    const file = join(dir, 'catalogue.swagger.json');
    writeFileSync(file, JSON.stringify(exportSwagger()));
    const r = await importBinding(file);
    expect(r.binding.missing).toEqual([]);
    expect(r.binding.ambiguous).toEqual({});
    expect(r.binding.extraDatasets).toEqual([]);
    expect(Object.keys(r.binding.endpoints).sort()).toEqual(DATASETS_AND_OPERATIONS.map((e) => e.id).sort());
    for (const e of DATASETS_AND_OPERATIONS) {
      const b = r.binding.endpoints[e.id]!;
      const id = identityBound(e);
      expect({ id: e.id, how: b.how, method: b.method, path: b.path }).toEqual({
        id: e.id,
        how: 'exact',
        method: e.method,
        path: e.path,
      });
      expect({
        id: e.id,
        body: b.body?.properties,
        record: b.record?.properties,
        answer: b.answer?.properties,
      }).toEqual({
        id: e.id,
        body: id.body?.properties,
        record: id.record?.properties,
        answer: id.answer?.properties,
      });
      expect({ id: e.id, required: b.body?.required.sort() }).toEqual({
        id: e.id,
        required: id.body?.required.sort(),
      });
      expect({ id: e.id, enums: b.body?.enums }).toEqual({ id: e.id, enums: id.body?.enums });
    }
    const text = formatReport(r);
    expect(text).toMatch(new RegExp(`same method and path: ${DATASETS_AND_OPERATIONS.length}\\b`));
    expect(text).toMatch(/Differences that matter:\n {2}none/);
  });
});

describe('acme.swagger.json (Swagger 2.0, camelCase, moved paths, nested references)', () => {
  let r: Awaited<ReturnType<typeof importBinding>>;
  beforeAll(async () => {
    r = await importBinding(join(FIX, 'acme.swagger.json'));
  });

  it('binds the documented paths exactly and finds the moved operations by name or shape', () => {
    expect(r.binding.source).toMatchObject({
      spec: 'swagger-2.0',
      basePath: '/api',
      title: 'ACME GRC integration API',
    });
    expect(r.binding.endpoints.risk).toMatchObject({ how: 'exact', path: '/directdata/v3/risk' });
    expect(r.binding.endpoints['incident-create']).toMatchObject({
      method: 'POST',
      path: '/incidentdata/v1/incidents',
      operationId: 'Incidents_Create',
    });
    expect(['name', 'shape']).toContain(r.binding.endpoints['incident-create']!.how);
    expect(r.binding.endpoints['thirdparty-create']).toMatchObject({ path: '/thirdpartydata/v2/thirdparty' });
    expect(r.binding.endpoints['task-update-v2']).toMatchObject({
      path: '/taskdata/v2/tasks/{guid}/update',
      how: 'name',
    });
    expect(r.binding.missing).toEqual(['contract-create']);
    expect(r.binding.ambiguous).toEqual({});
    expect(r.binding.extraDatasets).toEqual([
      {
        id: 'x-assets',
        path: '/directdata/v1/assets',
        title: 'Assets',
        operationId: 'DirectData_Assets',
        properties: ['id', 'name', 'owner', 'value'],
      },
    ]);
  });

  it('maps camelCase properties, nested reference objects and arrays of them', () => {
    const body = r.binding.endpoints['incident-create']!.body!;
    expect(body.properties).toMatchObject({
      Name: 'name',
      RootCauseCategory: 'rootCauseCategory.guid',
      Classification: 'classification.guid',
      IncidentTypes: 'incidentTypes[].guid',
      CustomFields: {
        path: 'customFields',
        items: { properties: { CustomFieldGuid: 'customFieldGuid', Value: 'value' } },
      },
    });
    expect(body.extra).toEqual([{ name: 'channel', type: 'string', enum: ['Excel', 'Web', 'Mail'] }]);
    const wire = toWire(
      body,
      {
        Name: 'Leak',
        ReportingOrganization: G,
        RootCauseCategory: G,
        IncidentTypes: [G, G],
        CustomFields: [{ CustomFieldGuid: G, Value: 'x' }],
      },
      { channel: 'Excel' },
    );
    expect(wire).toEqual({
      name: 'Leak',
      reportingOrganization: { guid: G },
      rootCauseCategory: { guid: G },
      incidentTypes: [{ guid: G }, { guid: G }],
      customFields: [{ customFieldGuid: G, value: 'x' }],
      channel: 'Excel',
    });
    expect(missingRequired(body, wire)).toEqual([]);
    expect(missingRequired(body, { name: 'x', reportingOrganization: { guid: G } })).toEqual(['channel']);
    const record = r.binding.endpoints.incidents!.record!;
    expect(fromWire(record, { id: G, name: 'Leak', dateDetected: '2026-01-02' })).toEqual({
      Id: G,
      Name: 'Leak',
      DateDetected: '2026-01-02',
    });
  });

  it('reports the differences that matter and what the missing operation disables', () => {
    const text = formatReport(r);
    expect(text).toMatch(
      /ReportingOrganization: the file wants a GUID at reportingOrganization\.guid; the catalogue has a name there/,
    );
    expect(text).toMatch(/DateDetected: date in the catalogue, date-time in the file/);
    expect(text).toMatch(/channel: the file requires it and no catalogue field fills it .*Excel, Web, Mail/);
    expect(text).toMatch(
      /Missing: 1\n {2}contract-create \(Create a third party contract\): disables the Contracts write-back \(posts to it\)/,
    );
    expect(text).toMatch(/x-assets: "Assets" GET \/directdata\/v1\/assets \(4 columns/);
    expect(text).toMatch(/Result: every endpoint is bound or reported missing \(exit status 0\)/);
  });

  it('gives a catalogue where the missing operation is unavailable and the moved ones are matched at their paths', () => {
    const c = createCatalog(r.binding);
    expect(c.operation('contract-create').unavailable?.reason).toBe('missing');
    expect(c.match('POST', '/incidentdata/v1/incidents')).toMatchObject({
      ok: true,
      endpoint: { id: 'incident-create' },
    });
    expect(c.dataset('x-assets').area).toBe('Other');
  });
});

describe('globex.openapi.yaml (OpenAPI 3, /api in the paths, an ambiguous pair)', () => {
  let r: Awaited<ReturnType<typeof importBinding>>;
  beforeAll(async () => {
    r = await importBinding(join(FIX, 'globex.openapi.yaml'));
  });

  it('honours the server URL, lists the ambiguous pair without picking, and the missing operations', () => {
    expect(r.binding.source).toMatchObject({ spec: 'openapi-3.x', basePath: '/' });
    expect(r.binding.endpoints.risk).toMatchObject({ how: 'exact', path: '/directdata/v3/risk' });
    expect(r.binding.ambiguous['thirdparty-create']).toMatchObject({
      candidates: [
        'POST /thirdpartydata/v1/thirdparties/save',
        'POST /thirdpartydata/v1/thirdparties/submit',
      ],
      pick: null,
    });
    expect(r.binding.endpoints['thirdparty-create']).toBeUndefined();
    expect(r.unresolved).toEqual(['thirdparty-create']);
    expect(r.binding.missing.sort()).toEqual(['samples-generate', 'task-score-status']);
    expect(r.binding.extraDatasets.map((x) => x.id)).toEqual(['x-policy']);
  });

  it('maps ThirdPartyGuid to the nested ThirdParty.Guid and reports Currency and the enum value Years', () => {
    const body = r.binding.endpoints['contract-create']!.body!;
    expect(r.binding.endpoints['contract-create']).toMatchObject({
      path: '/contractdata/v1/contracts',
      operationId: 'Contracts_Create',
    });
    expect(body.properties.ThirdPartyGuid).toBe('ThirdParty.Guid');
    expect(body.required).toEqual(expect.arrayContaining(['ThirdParty', 'ThirdParty.Guid', 'Currency']));
    expect(body.enums.NoticePeriodUnit!.values).toContain('Years');
    const text = formatReport(r, { binding: 'b.json' });
    expect(text).toMatch(/NoticePeriodUnit: the file allows Years, which the template's dropdown lacks/);
    expect(text).toMatch(/Currency: the file requires it/);
    expect(text).toMatch(
      /thirdparty-create \(Create a third party\): candidates\n {4}POST \/thirdpartydata\/v1\/thirdparties\/save/,
    );
    expect(text).toMatch(/set "pick" under ambiguous.<id> in b\.json/);
    expect(text).toMatch(
      /task-score-status \(Update task score and status\): disables the score and status update step of the Task updates write-back \(the flow posts without it\)/,
    );
    expect(text).toMatch(/Result: 1 ambiguous without a pick \(exit status 1\)/);
  });

  it('keeps an admin pick on re-import and takes the best with accept', async () => {
    const previous = structuredClone(r.binding);
    previous.ambiguous['thirdparty-create']!.pick = 'POST /thirdpartydata/v1/thirdparties/submit';
    const again = await importBinding(join(FIX, 'globex.openapi.yaml'), { previous });
    expect(again.binding.endpoints['thirdparty-create']).toMatchObject({
      how: 'picked',
      path: '/thirdpartydata/v1/thirdparties/submit',
    });
    expect(again.unresolved).toEqual([]);
    const third = await importBinding(join(FIX, 'globex.openapi.yaml'), { previous: again.binding });
    expect(third.binding.endpoints['thirdparty-create']).toMatchObject({
      how: 'picked',
      path: '/thirdpartydata/v1/thirdparties/submit',
    });
    const accepted = await importBinding(join(FIX, 'globex.openapi.yaml'), { accept: true });
    expect(accepted.binding.endpoints['thirdparty-create']!.path).toMatch(
      /^\/thirdpartydata\/v1\/thirdparties\/(save|submit)$/,
    );
    expect(accepted.unresolved).toEqual([]);
    expect(formatReport(accepted)).toMatch(/accepted with --accept/);
  });

  it('makes an unpicked ambiguous endpoint unavailable, and a pick in the file resolves it without re-import', () => {
    expect(createCatalog(r.binding).operation('thirdparty-create').unavailable?.reason).toBe('ambiguous');
    const b = structuredClone(r.binding);
    b.ambiguous['thirdparty-create']!.pick = 'POST /thirdpartydata/v1/thirdparties/save';
    const op = createCatalog(b).operation('thirdparty-create');
    expect(op.unavailable).toBeUndefined();
    expect(op.path).toBe('/thirdpartydata/v1/thirdparties/save');
    expect(op.binding?.body?.properties.Name).toBe('Name');
  });
});

describe('an operation the file shows without properties', () => {
  it('is bound without a property map, so the catalogue names are sent as they are, and the report says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bare-'));
    const file = join(dir, 'bare.json');
    writeFileSync(
      file,
      JSON.stringify({
        swagger: '2.0',
        info: { title: 'bare', version: '1' },
        basePath: '/api',
        paths: {
          '/incidents': {
            post: {
              parameters: [{ name: 'body', in: 'body', schema: { type: 'object' } }],
              responses: { '200': { description: 'ok' } },
            },
          },
        },
      }),
    );
    const r = await importBinding(file);
    const e = r.binding.endpoints['incident-create']!;
    expect(e).toMatchObject({ how: 'exact', path: '/incidents' });
    expect(e.body).toBeUndefined();
    expect(e.answer).toBeUndefined();
    expect(formatReport(r)).toMatch(/the file shows no properties for the request body/);
    expect(r.binding.missing).toContain('risk');
  });
});
