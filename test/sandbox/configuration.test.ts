import { catalog } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { call, post, start } from './helpers';

const CREATE = catalog.operation('incident-create').path;

describe('sandbox configuration actions (spec: Incident type transitions, Errors)', () => {
  let sb: Sandbox;
  let admin: string;
  const send = async (method: string, path: string) => {
    const res = await fetch(admin + path, { method });
    return { status: res.status, body: await res.json() };
  };
  beforeAll(async () => {
    sb = await start();
    admin = sb.url.replace(/\/api$/, '/_sandbox');
  });
  afterAll(() => sb.close());

  it('errors table: archiving an incident type used by active forms gives a warning asking to close them first', async () => {
    const st = sb.store.ctx.st;
    const operational = st.incidentTypes.find((t) => t.Name === 'Operational incident')!;
    const a = await send('POST', `/incidenttypes/${operational.Id}/archive`);
    expect(a).toEqual({
      status: 200,
      body: { done: false, Warning: expect.stringMatching(/close them first: Incident intake/) },
    });
    expect(
      (
        await post(sb, CREATE, {
          Name: 'x',
          ReportingOrganization: 'Finance',
          IncidentTypes: [operational.Id],
        })
      ).status,
    ).toBe(201);
  });

  it('archives a standard type once its forms are closed: new incidents are refused, existing ones keep it', async () => {
    const st = sb.store.ctx.st;
    const breach = st.incidentTypes.find((t) => t.Name === 'Data breach')!;
    const before = await post(sb, CREATE, {
      Name: 'Before archiving',
      ReportingOrganization: 'Finance',
      IncidentTypes: [breach.Id],
    });
    expect((await send('POST', `/forms/${st.forms[0]!.Id}/close`)).body).toEqual({ done: true });
    expect((await send('POST', `/incidenttypes/${breach.Id}/archive`)).body).toEqual({ done: true });
    const types = (await call<{ Id: string; Archived: boolean }[]>(sb, catalog.dataset('incidenttypes').path))
      .body;
    expect(types.find((t) => t.Id === breach.Id)!.Archived).toBe(true);
    expect(
      (await post(sb, CREATE, { Name: 'x', ReportingOrganization: 'Finance', IncidentTypes: [breach.Id] }))
        .body.errors[0].message,
    ).toMatch(/archived/);
    const incidents = (
      await call<{ Id: string; IncidentTypes: string[] }[]>(sb, catalog.dataset('incidents').path)
    ).body;
    expect(incidents.find((i) => i.Id === before.body.Id)!.IncidentTypes).toEqual(['Data breach']);
  });

  it('errors table: deleting a dropdown option in use gives a warning naming it and keeps it; an unused one is deleted', async () => {
    const st = sb.store.ctx.st;
    const field = st.incidentTypeFields.find((f) => f.Name === 'Business line affected')!;
    const lending = field.AnswerOptions.find((o) => o.Name === 'Lending')!;
    const savings = field.AnswerOptions.find((o) => o.Name === 'Savings')!;
    const operational = st.incidentTypes.find((t) => t.Name === 'Operational incident')!;
    await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [operational.Id],
      CustomFields: [{ CustomFieldGuid: field.Id, Value: 'Lending' }],
    });
    const inUse = await send('DELETE', `/customfields/${field.Id}/options/${lending.Id}`);
    expect(inUse.body).toEqual({ done: false, Warning: expect.stringMatching(/"Lending".*in use/) });
    expect((await send('DELETE', `/customfields/${field.Id}/options/${savings.Id}`)).body).toEqual({
      done: true,
    });
    const defs = (
      await call<{ Id: string; AnswerOptions: { Name: string }[] }[]>(
        sb,
        catalog.dataset('incidenttypecustomfields').path,
      )
    ).body;
    expect(defs.find((d) => d.Id === field.Id)!.AnswerOptions.map((o) => o.Name)).toEqual([
      'Payments',
      'Lending',
    ]);
    const refused = await post(sb, CREATE, {
      Name: 'x',
      ReportingOrganization: 'Finance',
      IncidentTypes: [operational.Id],
      CustomFields: [{ CustomFieldGuid: field.Id, Value: 'Savings' }],
    });
    expect(refused.status).toBe(400);
  });

  it('answers 404 for unknown GUIDs', async () => {
    expect((await send('POST', '/incidenttypes/00000000-0000-4000-8000-000000000000/archive')).status).toBe(
      404,
    );
  });
});
