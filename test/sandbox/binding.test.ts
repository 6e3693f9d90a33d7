import { catalog } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { shapedBinding } from '../support/shaped-binding';
import { call, post, start } from './helpers';

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
    // The catalogue's own (assumed) path is not the service's: nothing answers there.
    expect((await post(sb, catalog.operation('incident-create').path, { title: 'x' })).status).toBe(404);
  });

  it("takes a body in the file's names, stores it in the catalogue's, and answers in the file's names", async () => {
    const a = await post(sb, '/incidentdata/v1/incidents', {
      title: 'Flooded basement',
      reporting: { organization: 'Finance' },
      severity: 'Low',
    });
    expect(a.status).toBe(201);
    expect(typeof a.body.guid).toBe('string');
    expect(sb.store.find('incidents', a.body.guid)).toMatchObject({
      Name: 'Flooded basement',
      ReportingOrganization: 'Finance',
    });
  });

  it('refuses, as the service would, a body missing a property the file requires (400, the field named)', async () => {
    const missing = await post(sb, '/incidentdata/v1/incidents', {
      title: 'x',
      reporting: { organization: 'Finance' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'severity', message: expect.any(String) }]);
    const catalogueNames = await post(sb, '/incidentdata/v1/incidents', {
      Name: 'x',
      ReportingOrganization: 'Finance',
      severity: 'Low',
    });
    expect(catalogueNames.status).toBe(400);
    expect(catalogueNames.body.errors.map((e: { field: string }) => e.field)).toEqual(['title', 'reporting']);
  });
});

describe('a sandbox whose file wants a GUID for the reporting organization', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    const b = shapedBinding();
    const body = b.endpoints['incident-create']!.body!;
    body.properties = { ...body.properties, ReportingOrganization: 'reporting.organization.guid' };
    body.formats = { ...body.formats, ReportingOrganization: 'uuid' };
    sb = await start({ binding: b });
  });
  afterAll(() => sb.close());

  it("refuses a name where the file's format is uuid (400, the property named), and takes the organization's GUID", async () => {
    const named = await post(sb, '/incidentdata/v1/incidents', {
      title: 'x',
      reporting: { organization: { guid: 'Finance' } },
      severity: 'Low',
    });
    expect(named.status).toBe(400);
    expect(named.body.errors).toEqual([
      { field: 'reporting.organization.guid', message: 'The value is not a valid GUID.' },
    ]);
    const finance = sb.store
      .list<{ Id: string; Name: string }>('organizations')
      .find((o) => o.Name === 'Finance')!;
    const a = await post(sb, '/incidentdata/v1/incidents', {
      title: 'y',
      reporting: { organization: { guid: finance.Id } },
      severity: 'Low',
    });
    expect(a.status).toBe(201);
    expect(sb.store.find('incidents', a.body.guid)).toMatchObject({ ReportingOrganization: finance.Id });
  });
});
