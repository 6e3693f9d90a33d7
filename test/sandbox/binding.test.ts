import { catalog, type ExtraColumn } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { at, customerBinding, dataset, operation } from './customer-binding';
import { call, post, start } from './helpers';

/**
 * A sandbox shaped by a binding alone (its API file not at hand): the binding's paths, names and encodings,
 * and the properties it marks required. With the file, the file's own schemas decide (customer-file.test.ts).
 */
const severity: ExtraColumn = {
  key: 'body:/severity',
  header: 'severity',
  in: 'body',
  at: '/severity',
  fileName: 'severity',
  cell: 'text',
  values: ['Low', 'High'],
  encoding: { kind: 'plain' },
  required: true,
};

function shaped(reportingOrganization = at('ReportingOrganization', '/reporting/organization')) {
  return customerBinding({
    'incident-create': operation(
      'POST',
      '/incidentdata/v1/incidents',
      [
        { ...at('Name', '/title'), required: true },
        { ...reportingOrganization, required: true },
      ],
      { in: 'body', at: '/guid' },
      [severity],
    ),
    incidents: dataset('/incidentdata/v1/incidents/all', [
      at('Id', '/guid'),
      at('Name', '/title'),
      at('ReportingOrganization', '/reporting/organization'),
    ]),
  });
}

describe('a sandbox started from a binding', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({ binding: shaped() });
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

  it("takes a body in the file's names, stores it in the catalogue's, and answers where the binding reads the id", async () => {
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

  it('refuses, as the service would, a body missing a property the binding marks required (400, the field named)', async () => {
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
    expect(catalogueNames.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'title',
      'reporting.organization',
    ]);
  });
});

describe('a sandbox whose binding sends the reporting organization as a GUID', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start({
      binding: shaped(
        at('ReportingOrganization', '/reporting/organization/guid', {
          kind: 'guid',
          list: 'organizations',
          value: 'name',
        }),
      ),
    });
  });
  afterAll(() => sb.close());

  it("reads the organization's GUID back to its name for the spec's rules, and refuses one it does not know", async () => {
    const finance = sb.store
      .list<{ Id: string; Name: string }>('organizations')
      .find((o) => o.Name === 'Finance')!;
    const a = await post(sb, '/incidentdata/v1/incidents', {
      title: 'y',
      reporting: { organization: { guid: finance.Id } },
      severity: 'Low',
    });
    expect(a.status).toBe(201);
    expect(sb.store.find('incidents', a.body.guid)).toMatchObject({ ReportingOrganization: 'Finance' });
    const unknown = await post(sb, '/incidentdata/v1/incidents', {
      title: 'y',
      reporting: { organization: { guid: 'Finance' } },
      severity: 'Low',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { field: 'reporting.organization.guid', message: 'The value is not a valid GUID.' },
    ]);
    const stranger = await post(sb, '/incidentdata/v1/incidents', {
      title: 'y',
      reporting: { organization: { guid: '00000000-0000-4000-8000-00000000abcd' } },
      severity: 'Low',
    });
    expect(stranger.body.errors.map((e: { field: string }) => e.field)).toEqual(['ReportingOrganization']);
  });
});
