import { catalog, isGuid } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { Store } from '../../src/sandbox/store';
import { call, start } from './helpers';

describe('sandbox datasets', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await start();
  });
  afterAll(() => sb.close());

  const all = async (id: string, guid?: string) => {
    const path = catalog.dataset(id).path.replace('{guid}', guid ?? '');
    const a = await call<Record<string, unknown>[]>(sb, path);
    expect(a.status).toBe(200);
    return a.body;
  };

  it('serves every catalogue dataset, and every record passes the catalogue record schema', async () => {
    const form = sb.store.ctx.st.forms[0]!.Id;
    const plan = sb.store.ctx.guid('testPlan', 0);
    for (const ds of catalog.datasets) {
      const records = await all(
        ds.id,
        ds.path.includes('{guid}') ? (ds.id === 'formresults' ? form : plan) : undefined,
      );
      expect(records.length).toBeGreaterThan(0);
      for (const [i, r] of records.entries()) {
        const parsed = ds.record.safeParse(r);
        if (!parsed.success) throw new Error(`${ds.id}[${i}]: ${parsed.error.message}`);
      }
    }
  });

  it('links incidents to real risks, controls and MOIs', async () => {
    const risks = new Set((await all('risk')).map((r) => r.Id));
    const controls = new Set((await all('control')).map((r) => r.Id));
    const mois = new Set((await all('moi-incident')).map((r) => r.Id));
    const incidents = await all('incidents');
    for (const inc of incidents) {
      for (const g of inc.RiskGuids as string[]) expect(risks.has(g)).toBe(true);
      for (const g of inc.ControlGuids as string[]) expect(controls.has(g)).toBe(true);
      for (const g of inc.MoiGuids as string[]) expect(mois.has(g)).toBe(true);
    }
    expect(incidents.some((i) => (i.MoiGuids as string[]).length > 0)).toBe(true);
    for (const r of await all('risk'))
      for (const g of r.ControlGuids as string[]) expect(controls.has(g)).toBe(true);
  });

  it('points custom field values at real definitions', async () => {
    const pairs: [string, string, string][] = [
      ['controlcustomfields', 'controlcustomfieldvalues', 'ControlGuid'],
      ['thirdpartycustomfields', 'thirdpartycustomfieldvalues', 'ThirdPartyGuid'],
      ['thirdpartycontractcustomfields', 'thirdpartycontractcustomfieldvalues', 'ContractGuid'],
      ['incidenttypecustomfields', 'incidenttypecustomfieldvalues', 'IncidentId'],
    ];
    for (const [defs, values, owner] of pairs) {
      const ids = new Set((await all(defs)).map((d) => d.Id));
      for (const v of await all(values)) {
        expect(ids.has(v.CustomFieldId)).toBe(true);
        expect(isGuid(v[owner] as string)).toBe(true);
      }
    }
    const riskFieldNames = new Set((await all('riskcustomfieldvalues')).map((d) => d.Name));
    for (const v of await all('riskcustomfields'))
      for (const f of v.CustomFields as { Name: string }[]) expect(riskFieldNames.has(f.Name)).toBe(true);
  });

  it('forms the root cause categories into a tree', async () => {
    const cats = await all('riskrootcausecategory');
    const byGuid = new Map(cats.map((c) => [c.GUID, c]));
    expect(cats.filter((c) => c.ParentGUID === null).length).toBeGreaterThan(1);
    for (const c of cats) {
      const seen = new Set<unknown>();
      let at: Record<string, unknown> | undefined = c;
      while (at && at.ParentGUID !== null) {
        expect(seen.has(at.GUID)).toBe(false);
        seen.add(at.GUID);
        at = byGuid.get(at.ParentGUID);
        expect(at).toBeDefined();
      }
    }
  });

  it('points findings at audits and contracts at third parties', async () => {
    const audits = new Set((await all('audit')).map((a) => a.Id));
    for (const f of await all('auditfinding')) expect(audits.has(f.AuditId)).toBe(true);
    const tps = new Set((await all('thirdparty')).map((t) => t.Id));
    for (const c of await all('thirdpartycontract')) expect(tps.has(c.ThirdPartyGuid)).toBe(true);
  });

  it('has the standing data the write-back needs', async () => {
    const types = await all('incidenttypes');
    expect(types.filter((t) => t.Standard).map((t) => t.Name)).toEqual([
      'Operational incident',
      'Data breach',
    ]);
    expect(types.some((t) => t.Archived)).toBe(true);
    const fields = await all('incidenttypecustomfields');
    expect(new Set(fields.map((f) => f.Type))).toEqual(
      new Set(['Number', 'Dropdown', 'Checkbox', 'Date', 'MultiSelect', 'Text']),
    );
    expect(fields.some((f) => f.Required)).toBe(true);
    expect(fields.find((f) => f.Type === 'Dropdown')!.AnswerOptions).not.toHaveLength(0);
    for (const defs of ['thirdpartycustomfields', 'thirdpartycontractcustomfields'])
      expect(
        (await all(defs)).some((f) => f.Type === 'MultiSelect' && (f.AnswerOptions as unknown[]).length > 1),
      ).toBe(true);
    expect((await all('thirdpartycustomfields')).some((f) => f.Visible === false)).toBe(true);
    const tasks = await all('tasks');
    expect(new Set(tasks.map((t) => t.Status))).toEqual(
      new Set(['To do', 'Rejected', 'Ready for review', 'In review']),
    );
    expect(tasks.every((t) => t.ResponsibleUser && t.Reviewer)).toBe(true);
    const plans = await all('controltestplan');
    expect(plans.some((p) => p.Status === 'Testing - awaiting conclusion')).toBe(true);
    expect(new Set(plans.map((p) => p.Status)).size).toBeGreaterThan(2);
    const dm = await all('datamanagement');
    expect(dm.find((d) => d.System === 'No system')!.Note).toMatch(/No system/);
  });

  it('generates the same data for the same seed and other data for another seed', () => {
    const a = [...new Store(3, 20).records('risk')];
    const b = [...new Store(3, 20).records('risk')];
    const c = [...new Store(4, 20).records('risk')];
    expect(a).toEqual(b);
    expect(c[0]!.Id).not.toBe(a[0]!.Id);
  });

  it('gives tasks their documents and hyperlinks (spec, Task known fields)', async () => {
    const tasks = await all('tasks');
    for (const t of tasks) {
      expect(Array.isArray(t.Documents)).toBe(true);
      expect(Array.isArray(t.Hyperlinks)).toBe(true);
    }
    const withBoth = tasks.filter(
      (t) => (t.Documents as unknown[]).length && (t.Hyperlinks as unknown[]).length,
    );
    expect(withBoth.length).toBeGreaterThan(0);
    expect(withBoth[0]!.Documents).toEqual([expect.objectContaining({ FileName: expect.any(String) })]);
  });

  it('serves the audit context and audit risk assessment custom fields with their values', async () => {
    for (const kind of ['auditcontext', 'auditriskassessment']) {
      const definitions = new Set((await all(`${kind}customfields`)).map((d) => d.Id));
      const audits = new Set((await all('audit')).map((a) => a.Id));
      const values = await all(`${kind}customfieldvalues`);
      expect(values.length).toBeGreaterThan(0);
      for (const v of values) {
        expect(definitions.has(v.CustomFieldId)).toBe(true);
        expect(audits.has(v.AuditGuid)).toBe(true);
      }
      expect(catalog.dataset(`${kind}customfields`).documented).toBe(false);
    }
  });

  it('scales the big datasets and keeps the standing data the same', () => {
    const small = new Store(1, 5).counts();
    const big = new Store(1, 20_000).counts();
    expect(big.risk).toBe(20_000);
    expect(big.incidents).toBeGreaterThan(small.incidents! * 100);
    for (const id of [
      'incidenttypes',
      'incidenttypecustomfields',
      'tasks',
      'controltestplan',
      'thirdpartycustomfields',
      'riskrootcausecategory',
    ])
      expect(big[id]).toBe(small[id]);
  });

  it('gives every generated record a unique GUID', () => {
    const s = new Store(1, 2000);
    const seen = new Set<string>();
    for (const id of [
      'risk',
      'control',
      'incidents',
      'thirdparty',
      'thirdpartycontract',
      'moi-risk',
      'moi-bim',
      'tasks',
      'controltestplan',
    ])
      for (const r of s.records(id)) {
        expect(seen.has(r.Id as string)).toBe(false);
        seen.add(r.Id as string);
      }
  });
});
