import { catalog, fillPath } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { call, plainKey, post, start, userKey } from './helpers';

const CREATE = catalog.operation('incident-create').path;
const INCIDENTS = catalog.dataset('incidents').path;
const VALUES = catalog.dataset('incidenttypecustomfieldvalues').path;
const status = (guid: string) => fillPath(catalog.operation('incident-status').path, { guid });
const doc = (guid: string) => fillPath(catalog.operation('incident-document').path, { guid });
const link = (guid: string) => fillPath(catalog.operation('incident-hyperlink').path, { guid });
const PDF = { FileName: 'report.pdf', ContentBase64: Buffer.from('%PDF-1.4 test').toString('base64') };

describe('sandbox incidents (spec: Incident rules 1-9, Errors)', () => {
  let sb: Sandbox;
  let st: Sandbox['store']['ctx']['st'];
  const type = (name: string) => st.incidentTypes.find((t) => t.Name === name)!;
  const field = (name: string) => st.incidentTypeFields.find((f) => f.Name === name)!;
  const read = async (guid: string) =>
    (await call<Record<string, unknown>[]>(sb, INCIDENTS)).body.find((i) => i.Id === guid)!;
  /** An incident with every configured required field filled (Operational incident). */
  const complete = async () => {
    const a = await post(sb, CREATE, {
      Name: 'Complete incident',
      ReportingOrganization: 'Finance',
      IncidentTypes: [type('Operational incident').Id],
      Description: 'All there.',
      Assessors: ['Bram Jansen'],
      Responsible: ['Chloe Martin'],
      CustomFields: [{ CustomFieldGuid: field('Estimated loss (EUR)').Id, Value: 1200 }],
    });
    expect(a.status).toBe(201);
    return a.body.Id as string;
  };

  beforeAll(async () => {
    sb = await start();
    st = sb.store.ctx.st;
  });
  afterAll(() => sb.close());

  it('rule 1: creates an incident from a name and a reporting organization only, and returns its GUID', async () => {
    const a = await post(sb, CREATE, {
      Name: 'Payment file sent twice',
      ReportingOrganization: 'Retail Banking',
    });
    expect(a.status).toBe(201);
    expect(a.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await read(a.body.Id)).toMatchObject({
      Name: 'Payment file sent twice',
      ReportingOrganization: 'Retail Banking',
      Status: 'New',
    });
  });

  it('rule 1 / errors table: rejects an incident without a name or without a reporting organization', async () => {
    const noName = await post(sb, CREATE, { Name: ' ', ReportingOrganization: 'Finance' });
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual([{ field: 'Name', message: expect.any(String) }]);
    const noOrg = await post(sb, CREATE, { Name: 'x', ReportingOrganization: '' });
    expect(noOrg.body.errors).toEqual([{ field: 'ReportingOrganization', message: expect.any(String) }]);
    const missing = await post(sb, CREATE, { Name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('ReportingOrganization');
  });

  it('rule 2: enforces required fields on the move to Waiting for acceptance, naming each missing one', async () => {
    const a = await post(sb, CREATE, {
      Name: 'Incomplete',
      ReportingOrganization: 'Finance',
      IncidentTypes: [type('Operational incident').Id],
    });
    const refused = await post(sb, status(a.body.Id), { Status: 'Waiting for acceptance' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'Assessors',
      'Responsible',
      'Description',
      `CustomFields[${field('Estimated loss (EUR)').Id}]`,
    ]);
    const id = await complete();
    expect((await post(sb, status(id), { Status: 'Waiting for acceptance' })).status).toBe(200);
    expect((await read(id)).Status).toBe('Waiting for acceptance');
  });

  it('rule 3: sets the reporter to the key owner, whatever the body says', async () => {
    const a = await post(
      sb,
      CREATE,
      { Name: 'x', ReportingOrganization: 'Finance', Reporter: 'Somebody Else' },
      userKey('Eva Visser'),
    );
    expect((await read(a.body.Id)).Reporter).toBe('Eva Visser');
  });

  it('rule 4: defaults the detection date to today and keeps a given one', async () => {
    const a = await post(sb, CREATE, { Name: 'x', ReportingOrganization: 'Finance' });
    expect((await read(a.body.Id)).DateDetected).toBe(new Date().toISOString().slice(0, 10));
    const b = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      DateDetected: '2026-02-03',
    });
    expect((await read(b.body.Id)).DateDetected).toBe('2026-02-03');
  });

  it('rule 5 / errors table: rejects values for custom fields of incident types that are not selected', async () => {
    const a = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [type('Operational incident').Id],
      CustomFields: [{ CustomFieldGuid: field('Personal data involved').Id, Value: true }],
    });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([
      { field: 'CustomFields[0]', message: expect.stringMatching(/Data breach.*not selected/) },
    ]);
  });

  it('errors table: rejects a create that sends a required field of a selected type empty', async () => {
    const a = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [type('Fraud').Id],
      CustomFields: [
        { CustomFieldGuid: field('Police report number').Id, Value: '' },
        { CustomFieldGuid: field('Fraud scheme').Id, Value: '' },
      ],
    });
    expect(a.status).toBe(400);
    expect(a.body.errors[0].field).toBe('CustomFields[1]');
  });

  it('rule 6: stores a checkbox sent as false as false, and shows the values in the values dataset', async () => {
    const a = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [type('Operational incident').Id, type('Data breach').Id],
      CustomFields: [
        { CustomFieldGuid: field('Reported to regulator').Id, Value: false },
        { CustomFieldGuid: field('Business line affected').Id, Value: 'Lending' },
        { CustomFieldGuid: field('Date reported to authority').Id, DateValue: '2026-03-04' },
      ],
    });
    expect(a.status).toBe(201);
    const values = (await call<Record<string, unknown>[]>(sb, VALUES)).body.filter(
      (v) => v.IncidentId === a.body.Id,
    );
    expect(values).toEqual([
      { IncidentId: a.body.Id, CustomFieldId: field('Reported to regulator').Id, Value: 'false' },
      { IncidentId: a.body.Id, CustomFieldId: field('Business line affected').Id, Value: 'Lending' },
      { IncidentId: a.body.Id, CustomFieldId: field('Date reported to authority').Id, Value: '2026-03-04' },
    ]);
  });

  it('checks custom field values against their type and answer options', async () => {
    const a = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [type('Operational incident').Id],
      CustomFields: [
        { CustomFieldGuid: field('Reported to regulator').Id, Value: 'no' },
        { CustomFieldGuid: field('Business line affected').Id, Value: 'Mortgages' },
      ],
    });
    expect(a.body.errors.map((e: { message: string }) => e.message)).toEqual([
      expect.stringMatching(/true or false/),
      expect.stringMatching(/one of: Payments, Lending, Savings/),
    ]);
  });

  it('rule 7: keeps the Assessor, Responsible, Informed and Reporter roles, and shows deleted users with an asterisk', async () => {
    const a = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      Assessors: ['Bram Jansen'],
      Responsible: ['Grace Lee'],
      Informed: ['Hugo Meijer'],
    });
    expect(await read(a.body.Id)).toMatchObject({
      Assessors: ['Bram Jansen'],
      Responsible: ['Grace Lee'],
      Informed: ['Hugo Meijer'],
      Reporter: 'Anna de Vries',
    });
    const all = (await call<Record<string, string[]>[]>(sb, INCIDENTS)).body;
    expect(
      all.some((i) =>
        [...i.Assessors!, ...i.Responsible!, ...i.Informed!].some((n) =>
          /^(Iris de Boer|Jonas Mulder)\*$/.test(n),
        ),
      ),
    ).toBe(true);
    const deleted = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      Assessors: ['Iris de Boer'],
    });
    expect(deleted.body.errors).toEqual([
      { field: 'Assessors[0]', message: expect.stringMatching(/deleted/) },
    ]);
  });

  it('rule 8: adds documents and hyperlinks after creation and records them in the incident history', async () => {
    const id = await complete();
    expect((await post(sb, doc(id), PDF)).status).toBe(200);
    expect(
      (await post(sb, link(id), { Url: 'https://intranet.example.com/evidence/1', Description: 'Evidence' }))
        .status,
    ).toBe(200);
    const res = await fetch(sb.url.replace(/\/api$/, `/_sandbox/incidents/${id}`));
    const full = await res.json();
    expect(full.documents).toEqual([expect.objectContaining({ FileName: 'report.pdf', Size: 13 })]);
    expect(full.hyperlinks).toEqual([
      expect.objectContaining({ Url: 'https://intranet.example.com/evidence/1' }),
    ]);
    expect(full.history.map((h: { action: string }) => h.action)).toEqual([
      'Incident created',
      'Document added: report.pdf',
      'Hyperlink added: https://intranet.example.com/evidence/1',
    ]);
  });

  it('errors table: a document or hyperlink cannot be added while required fields are unfilled', async () => {
    const a = await post(sb, CREATE, { Name: 'x', ReportingOrganization: 'Finance' });
    const d = await post(sb, doc(a.body.Id), PDF);
    expect(d.status).toBe(400);
    expect(d.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'Assessors',
      'Responsible',
      'Description',
    ]);
    expect((await post(sb, link(a.body.Id), { Url: 'https://x.example.com' })).status).toBe(400);
  });

  it('rule 11 / errors table: answers a warning when the caller may not add documents, and lets assessors and responsibles add them', async () => {
    const id = await complete();
    const outsider = await post(sb, doc(id), PDF, plainKey('Daan Bakker'));
    expect(outsider.status).toBe(200);
    expect(outsider.body.Warning).toMatch(/may not add documents/);
    expect((await post(sb, doc(id), PDF, plainKey('Bram Jansen'))).body).toEqual({ Id: expect.any(String) });
    expect((await post(sb, doc(id), PDF, plainKey('Chloe Martin'))).body).toEqual({ Id: expect.any(String) });
  });

  it('rule 9: lists the standard types, refuses new incidents of an archived type, and keeps it on existing ones', async () => {
    const archived = st.incidentTypes.find((t) => t.Archived)!;
    const a = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [archived.Id],
    });
    expect(a.status).toBe(400);
    expect(a.body.errors[0].message).toMatch(/archived/);
    const all = (await call<Record<string, string[]>[]>(sb, INCIDENTS)).body;
    expect(all.some((i) => i.IncidentTypes!.includes(archived.Name))).toBe(true);
  });

  it('rule 9 / errors table: refuses a hyperlink with an empty or unknown type GUID', async () => {
    const id = await complete();
    expect((await post(sb, link(id), { Url: 'https://x.example.com', HyperlinkTypeGuid: '' })).status).toBe(
      400,
    );
    const unknown = await post(sb, link(id), {
      Url: 'https://x.example.com',
      HyperlinkTypeGuid: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.body.errors).toEqual([{ field: 'HyperlinkTypeGuid', message: expect.any(String) }]);
    expect(
      (
        await post(sb, link(id), {
          Url: 'https://x.example.com',
          HyperlinkTypeGuid: st.hyperlinkTypes[0]!.Id,
        })
      ).status,
    ).toBe(200);
  });

  it('answers 404 for an incident GUID that does not exist', async () => {
    expect((await post(sb, doc('00000000-0000-4000-8000-000000000000'), PDF)).status).toBe(404);
  });

  it('limits: accepts a hyperlink of 32,767 characters and refuses 32,768 or any whitespace', async () => {
    const id = await complete();
    const url = (n: number) => 'https://x.example.com/' + 'a'.repeat(n - 22);
    expect((await post(sb, link(id), { Url: url(32_767) })).status).toBe(200);
    const long = await post(sb, link(id), { Url: url(32_768) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ field: 'Url', message: expect.stringMatching(/32,767/) }]);
    for (const bad of [
      'https://x.example.com/a b',
      'https://x.example.com/a\nb',
      'https://x.example.com/\ta',
    ])
      expect((await post(sb, link(id), { Url: bad })).body.errors[0].message).toMatch(/whitespace/);
  });

  it('checks the body against the catalogue schema first (400 with field errors)', async () => {
    const a = await post(sb, CREATE, {
      Name: 5,
      ReportingOrganization: 'Finance',
      IncidentTypes: ['not-a-guid'],
    });
    expect(a.status).toBe(400);
    expect(a.body.errors.map((e: { field: string }) => e.field)).toEqual(['Name', 'IncidentTypes.0']);
    const bad = await fetch(sb.url + CREATE, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from('admin:pw-admin').toString('base64'),
        'content-type': 'application/json',
      },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/not valid JSON/);
  });
});
