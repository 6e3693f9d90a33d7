import { bodies, records } from '../../src/catalog';
import type { Binding } from '../../src/catalog/binding';
import { identityMap, type WireShape } from '../../src/catalog/wire';
import type { Sandbox } from '../../src/sandbox';
import { bindPaths } from '../catalog/bind-paths';
import { call, post, start } from './helpers';

/** A service whose file names the incident's properties in camelCase, under other paths, with one more required property. */
function shapedBinding(): Binding {
  const b = structuredClone(bindPaths({ 'incident-create': '/incidentdata/v1/incidents', incidents: '/incidentdata/v1/incidents/all' }));
  const record: WireShape = identityMap(records.incident);
  record.properties = { ...record.properties, Id: 'guid', Name: 'title', ReportingOrganization: 'reporting.organization' };
  const body: WireShape = identityMap(bodies.createIncident);
  body.properties = { ...body.properties, Name: 'title', ReportingOrganization: 'reporting.organization' };
  body.required = ['title', 'reporting.organization', 'severity'];
  body.extra = [{ name: 'severity', type: 'string', enum: ['Low', 'High'], default: 'Low' }];
  const answer: WireShape = identityMap(bodies.created);
  answer.properties = { Id: 'guid' };
  b.endpoints['incident-create'] = { ...b.endpoints['incident-create']!, body, answer };
  b.endpoints.incidents = { ...b.endpoints.incidents!, record };
  return b;
}

describe('a sandbox started from a binding', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ binding: shapedBinding() });
  });
  afterAll(() => sb.close());

  it("answers a dataset at the bound path with the file's property names", async () => {
    const a = await call(sb, '/incidentdata/v1/incidents/all');
    expect(a.status).toBe(200);
    const first = a.body[0];
    expect(typeof first.guid).toBe('string');
    expect(typeof first.title).toBe('string');
    expect(typeof first.reporting.organization).toBe('string');
    expect(first).not.toHaveProperty('Name');
    expect((await call(sb, '/incidents')).status).toBe(405);
  });

  it("takes a body in the file's names, stores it in the catalogue's, and answers in the file's names", async () => {
    const a = await post(sb, '/incidentdata/v1/incidents', {
      title: 'Flooded basement',
      reporting: { organization: 'Finance' },
      severity: 'Low',
    });
    expect(a.status).toBe(201);
    expect(typeof a.body.guid).toBe('string');
    expect(sb.store.find('incidents', a.body.guid)).toMatchObject({ Name: 'Flooded basement', ReportingOrganization: 'Finance' });
  });

  it('refuses, as the service would, a body missing a property the file requires (400, the field named)', async () => {
    const missing = await post(sb, '/incidentdata/v1/incidents', { title: 'x', reporting: { organization: 'Finance' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'severity', message: expect.any(String) }]);
    const catalogueNames = await post(sb, '/incidentdata/v1/incidents', { Name: 'x', ReportingOrganization: 'Finance', severity: 'Low' });
    expect(catalogueNames.status).toBe(400);
    expect(catalogueNames.body.errors.map((e: { field: string }) => e.field)).toEqual(['title', 'reporting.organization']);
  });
});
