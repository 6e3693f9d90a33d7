import {
  binding,
  boundFor,
  catalog,
  createCatalog,
  fromWire,
  identityMap,
  missingRequired,
  pathSource,
  toWire,
  unmappedFields,
  wireShape,
  writeAvailability,
  bodies,
  type Binding,
  type WireShape,
} from '../../src/catalog';
import { bindPaths } from './bind-paths';

const G = '0f8fad5b-d9cb-469f-a165-70867728950e';

const incidentShape: WireShape = {
  properties: {
    Name: 'title',
    ReportingOrganization: 'Organization.Name',
    RootCauseCategory: 'RootCause.Category.Guid',
    AffectedOrganizations: 'Affected[].Name',
    CustomFields: {
      path: 'Fields',
      items: {
        properties: { CustomFieldGuid: 'Field.Guid', Value: 'value' },
        required: ['Field.Guid'],
        enums: {},
        formats: {},
      },
    },
    Status: 'state',
  },
  required: ['title', 'Organization.Name', 'Fields[].Field.Guid', 'Severity'],
  extra: [{ name: 'Severity', type: 'string', enum: ['Low', 'High'], default: 'Low' }],
  enums: { Status: { values: ['OPEN', 'CLOSED'], map: { Open: 'OPEN', Closed: 'CLOSED' } } },
  formats: { RootCauseCategory: 'uuid' },
};

describe('wire: property maps', () => {
  it('builds nested objects, arrays of reference objects and mapped array entries', () => {
    const wire = toWire(incidentShape, {
      Name: 'Leak',
      ReportingOrganization: 'Finance',
      RootCauseCategory: G,
      AffectedOrganizations: ['A', 'B'],
      CustomFields: [{ CustomFieldGuid: G, Value: 3 }],
      Status: 'Open',
      Unknown: 'dropped',
    });
    expect(wire).toEqual({
      title: 'Leak',
      Organization: { Name: 'Finance' },
      RootCause: { Category: { Guid: G } },
      Affected: [{ Name: 'A' }, { Name: 'B' }],
      Fields: [{ Field: { Guid: G }, value: 3 }],
      state: 'OPEN',
      Severity: 'Low',
    });
    expect(unmappedFields(incidentShape, { Name: 'x', Unknown: 1 })).toEqual(['Unknown']);
    expect(toWire(incidentShape, { Name: 'x' }, { Severity: 'High' }).Severity).toBe('High');
  });

  it('reads a wire object back into catalogue fields, keeping others on request', () => {
    const wire = {
      title: 'Leak',
      Organization: { Name: 'Finance' },
      Affected: [{ Name: 'A' }],
      Fields: [{ Field: { Guid: G }, value: 'v' }],
      state: 'CLOSED',
      Extra: 1,
    };
    expect(fromWire(incidentShape, wire)).toEqual({
      Name: 'Leak',
      ReportingOrganization: 'Finance',
      AffectedOrganizations: ['A'],
      CustomFields: [{ CustomFieldGuid: G, Value: 'v' }],
      Status: 'Closed',
    });
    expect(fromWire(incidentShape, wire, true).Extra).toBe(1);
    expect(fromWire(incidentShape, wire, true).title).toBeUndefined();
  });

  it('names the required wire paths a body lacks, nested ones only under a present parent', () => {
    expect(missingRequired(incidentShape, { title: 'x' })).toEqual(['Severity']);
    expect(
      missingRequired(incidentShape, {
        title: 'x',
        Organization: {},
        Severity: 'Low',
        Fields: [{ value: 1 }],
      }),
    ).toEqual(['Organization.Name', 'Fields[].Field.Guid']);
    const shape = { ...incidentShape, required: ['Organization.Name'] };
    expect(missingRequired(shape, {})).toEqual([]);
  });

  it('maps a catalogue schema to itself with its required fields, enums and formats', () => {
    const id = identityMap(bodies.createContract);
    expect(id.properties.Name).toBe('Name');
    expect(id.properties.CustomFields).toMatchObject({
      path: 'CustomFields',
      items: { properties: { CustomFieldGuid: 'CustomFieldGuid' } },
    });
    expect(id.required).toEqual(
      expect.arrayContaining([
        'ThirdPartyGuid',
        'Name',
        'NoticePeriodUnit',
        'CustomFields[].CustomFieldGuid',
      ]),
    );
    expect(id.enums.NoticePeriodUnit!.values).toEqual(['Months', 'Weeks', 'Days', 'None']);
    expect(id.formats).toMatchObject({ ThirdPartyGuid: 'uuid', StartDate: 'date' });
    const body = {
      ThirdPartyGuid: G,
      Name: 'c',
      NoticePeriodUnit: 'Days',
      CustomFields: [{ CustomFieldGuid: G, Value: 'x' }],
    };
    expect(toWire(id, body)).toEqual(body);
    expect(fromWire(id, body)).toEqual(body);
    expect(wireShape.safeParse(id).success).toBe(true);
  });

  it('refuses a property path ending in []', () => {
    expect(
      wireShape.safeParse({ properties: { A: 'A[]' }, required: [], enums: {}, formats: {} }).success,
    ).toBe(false);
  });
});

function withEntries(patch: Partial<Binding>): Binding {
  const b = bindPaths();
  return { ...b, ...patch };
}

describe('binding file', () => {
  it('accepts a full binding and refuses an id listed twice or a pick outside the candidates', () => {
    expect(binding.safeParse(bindPaths()).success).toBe(true);
    const b = bindPaths();
    const twice = { ...b, missing: ['risk'] };
    expect(binding.safeParse(twice).error?.issues[0]!.message).toMatch(
      /"risk" is in both endpoints and missing/,
    );
    const { 'incident-create': _dropped, ...rest } = b.endpoints;
    const badPick = {
      ...b,
      endpoints: rest,
      ambiguous: { 'incident-create': { candidates: ['POST /a', 'POST /b'], pick: 'POST /c' } },
    };
    expect(binding.safeParse(badPick).error?.issues[0]!.message).toMatch(/not one of the candidates/);
  });

  it('resolves an admin pick of an ambiguous endpoint', () => {
    const b = bindPaths();
    delete b.endpoints['incident-create'];
    b.ambiguous['incident-create'] = { candidates: ['POST /a', 'POST /b'], pick: null };
    expect(boundFor(b, 'incident-create')).toBeUndefined();
    b.ambiguous['incident-create'].pick = 'POST /b';
    expect(boundFor(b, 'incident-create')).toMatchObject({ method: 'POST', path: '/b', how: 'picked' });
  });
});

describe('catalogue with a binding', () => {
  it('moves endpoints to bound paths and matches them only there', () => {
    const c = createCatalog(bindPaths({ 'incident-create': '/incidentdata/v2/incidents' }));
    expect(c.operation('incident-create').path).toBe('/incidentdata/v2/incidents');
    expect(c.match('POST', '/incidentdata/v2/incidents')).toMatchObject({ ok: true });
    expect(c.match('POST', '/incidents')).toMatchObject({ ok: false, reason: 'not-found' });
    expect(pathSource(c.operation('incident-create'))).toBe('bound');
    expect(pathSource(c.dataset('risk'))).toBe('documented');
    expect(pathSource(catalog.operation('incident-create'))).toBe('assumed');
  });

  it('marks missing and unpicked ambiguous endpoints unavailable and never matches them', () => {
    const b = bindPaths();
    delete b.endpoints['thirdparty-create'];
    delete b.endpoints['incident-create'];
    delete b.endpoints['tasks'];
    b.missing = ['thirdparty-create', 'tasks'];
    b.ambiguous['incident-create'] = { candidates: ['POST /incidents', 'POST /incidents/v2'], pick: null };
    const c = createCatalog(b);
    const tp = c.operation('thirdparty-create');
    expect(tp.unavailable).toMatchObject({ reason: 'missing' });
    expect(tp.unavailable!.message).toMatch(/Create a third party.*docs\/binding\.md/);
    expect(c.match('POST', tp.path).ok).toBe(false);
    expect(c.match('GET', c.dataset('tasks').path).ok).toBe(false);
    expect(c.operation('incident-create').unavailable).toMatchObject({ reason: 'ambiguous' });
    expect(c.operation('incident-create').unavailable!.message).toMatch(
      /POST \/incidents, POST \/incidents\/v2/,
    );
    expect(writeAvailability(tp, { production: false })).toMatchObject({ kind: 'unavailable' });
  });

  it('appends extra datasets as untyped text datasets under Other', () => {
    const c = createCatalog(
      withEntries({
        extraDatasets: [
          { id: 'x-assets', path: '/directdata/v1/assets', title: 'Assets', properties: ['Id', 'Name'] },
        ],
      }),
    );
    const x = c.dataset('x-assets');
    expect(x).toMatchObject({ area: 'Other', documented: false, access: { kind: 'directdata' } });
    expect(Object.keys(x.record.shape)).toEqual(['Id', 'Name']);
    expect(x.record.parse({ Id: 'a', Name: null, More: 1 })).toEqual({ Id: 'a', Name: null, More: 1 });
    expect(c.match('GET', '/directdata/v1/assets')).toMatchObject({ ok: true });
  });

  it('refuses a binding naming an endpoint the catalogue lacks, or binding a POST as a GET', () => {
    const b = bindPaths();
    b.endpoints['nope'] = { method: 'GET', path: '/x', how: 'exact' };
    expect(() => createCatalog(b)).toThrow(/"nope".*re-import/);
    const g = bindPaths();
    g.endpoints['incident-create'] = { method: 'GET', path: '/x', how: 'name' };
    expect(() => createCatalog(g)).toThrow(/POST endpoint/);
  });
});

describe('no blind posts', () => {
  it('needs a confirmation for an assumed path off production and refuses it on production', () => {
    const op = catalog.operation('incident-create');
    expect(writeAvailability(op, { production: false })).toMatchObject({
      kind: 'confirm',
      message: expect.stringMatching(/assumed/),
    });
    const prd = writeAvailability(op, { production: true });
    expect(prd).toMatchObject({ kind: 'unavailable' });
    expect(prd.kind === 'unavailable' && prd.message).toMatch(/binding import/);
    expect(writeAvailability(catalog.operation('task-create'), { production: true })).toEqual({ kind: 'ok' });
    const bound = createCatalog(bindPaths()).operation('incident-create');
    expect(writeAvailability(bound, { production: true })).toEqual({ kind: 'ok' });
  });
});
