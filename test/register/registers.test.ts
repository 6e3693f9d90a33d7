import { createClient, type DataRecord } from '../../src/client';
import { readLoadRecords } from '../../src/loading/loadrecords';
import { fingerprinter } from '../../src/loading/fingerprint';
import { loadDataset, refreshTable, type LoadOutcome, type LoadSuccess } from '../../src/loading/load';
import { offeredDatasets, datasetFor } from '../../src/register';
import { catalog } from '../../src/catalog';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { isoToSerial } from '../../src/sheet';
import { createMemoryWorkbook, type MemoryWorkbook } from '../../src/workbook/memory';
import { expectedRegister, inWords, sandboxAdmin, type Expected } from './expected';

/**
 * The registers in the preview's workbook (the memory adapter), against the real sandbox and client:
 * every register's columns, types, values and resolved names, computed here from the raw datasets; a
 * custom field added and one removed at the source across a refresh; the include-invisible option; a
 * refusal of one of a register's datasets naming it.
 */
describe('registers in the preview', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 40 });
  });
  afterAll(() => sandbox.close());

  const client = () => createClient({ baseUrl: sandbox.url, credentials: { identifier: sandbox.demoKey!.identifier, password: sandbox.demoKey!.password } });
  const raw = async (id: string): Promise<DataRecord[]> => (await client().download(id, {})).records;
  const load = (workbook: MemoryWorkbook, datasetId: string) =>
    loadDataset({ client: client(), workbook, datasetId, environment: 'ACC', source: 'sandbox', target: { kind: 'new-sheet' }, fingerprints: fingerprinter });
  const ok = (o: LoadOutcome): LoadSuccess => {
    if (!o.ok) throw new Error(`${o.error.code}: ${o.error.message}`);
    return o;
  };
  const formats = (workbook: MemoryWorkbook, table: string) => {
    const t = workbook.snapshot().tables.find((x) => x.name === table)!;
    return Object.fromEntries(t.specs.map((s) => [s.name, s.format]));
  };

  /** The table as the register expects it: every column, every custom value, typed (headers in words: inWords). */
  async function check(workbook: MemoryWorkbook, table: string, inFields: Expected) {
    const want = inWords(inFields);
    const { columns, rows } = await workbook.readRows(table);
    expect(columns).toEqual(want.columns);
    const f = formats(workbook, table);
    for (const [name, format] of Object.entries(want.formats)) expect([name, f[name]]).toEqual([name, format]);
    expect(rows).toHaveLength(want.rows.size);
    const idAt = columns.indexOf('GUID');
    for (const row of rows) {
      const expected = want.rows.get(row[idAt] as string)!;
      for (const [name, value] of Object.entries(expected)) expect([row[idAt], name, row[columns.indexOf(name)]]).toEqual([row[idAt], name, value]);
    }
  }

  it('lists one register per area beside the datasets, with the datasets each reads', () => {
    const offered = offeredDatasets(catalog);
    expect(offered.slice(0, catalog.datasets.length)).toEqual([...catalog.datasets]);
    expect(offered.slice(catalog.datasets.length).map((d) => [d.id, d.area, d.title])).toEqual([
      ['register:risks', 'Risks', 'Risk register'],
      ['register:incidents', 'Incidents', 'Incident register'],
      ['register:thirdparties', 'Third parties', 'Third party register'],
      ['register:contracts', 'Third parties', 'Contract register'],
      ['register:controls', 'Controls', 'Control register'],
      ['register:audits', 'Audits', 'Audit register'],
    ]);
    expect(datasetFor(catalog, 'register:risks')!.description).toMatch(/Reads risk, riskcustomfieldvalues, riskcustomfields, riskrootcausecategory, control\.$/);
    expect(datasetFor(catalog, 'register:risks+invisible')!.id).toBe('register:risks');
  });

  it.each(['risks', 'incidents', 'thirdparties', 'contracts', 'controls', 'audits'])('loads the %s register: custom fields as typed columns, names for GUIDs, GUIDs last', async (area) => {
    const workbook = createMemoryWorkbook();
    const result = ok(await load(workbook, `register:${area}`));
    const want = await expectedRegister(area, raw, { invisible: false });
    expect(result.table.name).toBe(`tbl_register_${area}`);
    await check(workbook, result.table.name, want);
    // Every type of custom field shows up somewhere, and the resolved names are really names.
    for (const sample of want.samples) expect(sample).toBeTruthy();
    const binding = (await readLoadRecords(workbook)).get(result.table.name)!;
    expect(binding).toMatchObject({ datasetId: `register:${area}`, rowCount: want.rows.size, fingerprint: { count: want.rows.size } });
  });

  it('shows the invisible custom fields as columns when asked (register:risks+invisible)', async () => {
    const workbook = createMemoryWorkbook();
    const result = ok(await load(workbook, 'register:risks+invisible'));
    const want = await expectedRegister('risks', raw, { invisible: true });
    expect(want.invisible).toEqual(['Internal scoring']);
    await check(workbook, result.table.name, want);
    expect(result.table.name).toBe('tbl_register_risks_invisible');
  });

  it('types the columns by the definitions, joins multi-selects and shows root causes as Parent > Child', async () => {
    const workbook = createMemoryWorkbook();
    const { table } = ok(await load(workbook, 'register:risks'));
    const f = formats(workbook, table.name);
    expect([f['Risk appetite'], f['Regulatory'], f['Next assessment'], f['Impacted processes'], f['Review note']]).toEqual(['text', 'text', 'date', 'text', 'text']);
    const { columns, rows } = await workbook.readRows(table.name);
    const cells = (name: string) => rows.map((r) => r[columns.indexOf(name)]);
    expect(cells('Impacted processes').some((v) => typeof v === 'string' && v.split('; ').length === 2)).toBe(true);
    expect(cells('Regulatory').every((v) => v === null || v === 'Yes' || v === 'No')).toBe(true);
    expect(cells('Next assessment').some((v) => typeof v === 'number')).toBe(true);
    expect(cells('Root cause categories').every((v) => typeof v === 'string' && /^(People|Process|Systems|External events) > /.test(v))).toBe(true);
    expect(cells('Controls').every((v) => typeof v === 'string' && /^C-\d{6}(; C-\d{6})*$/.test(v))).toBe(true);
    expect(columns.slice(-3)).toEqual(['GUID', 'Root cause category GUIDs', 'Control GUIDs']);
  });

  it('adds a custom field added at the source at the end, keeps a removed one empty, and says so', async () => {
    const workbook = createMemoryWorkbook();
    const first = ok(await load(workbook, 'register:risks'));
    const { columns: before } = await workbook.readRows(first.table.name);
    const same = ok(await refreshTable({ client: client(), workbook, environment: 'ACC', table: first.table.name, fingerprints: fingerprinter }));
    expect(same.changes).toMatchObject({ text: 'no changes', columnsAdded: [], columnsEmptied: [] });

    const admin = sandboxAdmin(sandbox.url);
    const reviewNote = (await raw('riskcustomfieldvalues')).find((d) => d.Name === 'Review note')!;
    await admin.addField('riskcustomfieldvalues', { Name: 'Customer segment', Type: 'MultiSelect', Options: ['Retail', 'SME', 'Corporate'] });
    await admin.removeField(reviewNote.Id as string);
    const hadNotes = (await workbook.readRows(first.table.name)).rows.filter((r) => r[before.indexOf('Review note')] !== null).length;
    expect(hadNotes).toBeGreaterThan(0);

    const refreshed = ok(await refreshTable({ client: client(), workbook, environment: 'ACC', table: first.table.name, fingerprints: fingerprinter }));
    const { columns, rows } = await workbook.readRows(first.table.name);
    // No shift: every column where it was, the new one at the end, the removed one empty.
    expect(columns).toEqual([...before, 'Customer segment']);
    expect(rows.every((r) => r[columns.indexOf('Review note')] === null)).toBe(true);
    expect(refreshed.changes).toMatchObject({ columnsAdded: ['Customer segment'], columnsEmptied: ['Review note'] });
    expect(refreshed.changes!.text).toMatch(/new column "Customer segment" added at the end; "Review note" no longer sent: kept, empty$/);
    // The record-by-record comparison is over the columns both loads have; the columns that came and went are the notes.
    expect(refreshed.changes!.summary).toMatchObject({ added: 0, removed: 0 });
    // The values of the new field, by record, as the values dataset has them (one pair per option).
    const want = await expectedRegister('risks', raw, { invisible: false });
    expect(want.columns.at(-4)).toBe('Customer segment');
    const idAt = columns.indexOf('GUID');
    for (const row of rows) expect(row[columns.indexOf('Customer segment')]).toEqual(want.rows.get(row[idAt] as string)!['Customer segment']);
    expect(rows.some((r) => String(r[columns.indexOf('Customer segment')]).includes('; '))).toBe(true);
    const binding = (await readLoadRecords(workbook)).get(first.table.name)!;
    expect(binding.columns).not.toContain('Review note');
    expect(binding.fingerprint!.sha256).not.toBe(same.record.fingerprint!.sha256);

    // Loaded afresh, the register simply has the new field among the custom fields and not the removed one.
    const fresh = createMemoryWorkbook();
    ok(await load(fresh, 'register:risks'));
    await check(fresh, 'tbl_register_risks', want);
  });

  it('compares a refreshed register record by record: a third party created with custom fields is one added row', async () => {
    const workbook = createMemoryWorkbook();
    const { table } = ok(await load(workbook, 'register:thirdparties'));
    const defs = await raw('thirdpartycustomfields');
    const field = (name: string) => defs.find((d) => d.Name === name)!.Id as string;
    const created = (await client().call('thirdparty-create', {
      body: {
        Name: 'Register test supplier',
        CustomFields: [
          { CustomFieldGuid: field('Criticality'), Value: 'High' },
          { CustomFieldGuid: field('Services provided'), Value: 'Payroll' },
          { CustomFieldGuid: field('Services provided'), Value: 'Consulting' },
          { CustomFieldGuid: field('Outsourcing'), Value: false },
          { CustomFieldGuid: field('Last due diligence'), DateValue: '2025-06-30' },
        ],
      },
    })) as { Id: string };
    const refreshed = ok(await refreshTable({ client: client(), workbook, environment: 'ACC', table: table.name, fingerprints: fingerprinter }));
    expect(refreshed.changes).toMatchObject({ summary: { added: 1, removed: 0, changed: 0 }, columnsAdded: [], columnsEmptied: [] });
    const { columns, rows } = await workbook.readRows(table.name);
    const row = rows.find((r) => r[columns.indexOf('GUID')] === created.Id)!;
    const cell = (name: string) => row[columns.indexOf(name)];
    expect([cell('Name'), cell('Criticality'), cell('Services provided'), cell('Outsourcing'), cell('Last due diligence'), cell('Account manager')]).toEqual([
      'Register test supplier',
      'High',
      'Payroll; Consulting',
      'No',
      isoToSerial('2025-06-30'),
      null,
    ]);
  });

  it('cancels while reading the values and lists: nothing is left behind', async () => {
    const workbook = createMemoryWorkbook();
    const ctl = new AbortController();
    let bytesSeen = 0;
    const out = await loadDataset({
      client: client(),
      workbook,
      datasetId: 'register:risks',
      environment: 'ACC',
      target: { kind: 'new-sheet' },
      signal: ctl.signal,
      onProgress: (p) => {
        // The first bytes counted are those of the values or the lists (the definitions are read before).
        if (p.phase === 'downloading' && p.bytes > 0 && !bytesSeen) {
          bytesSeen = p.bytes;
          ctl.abort();
        }
      },
    });
    expect(bytesSeen).toBeGreaterThan(0);
    expect(out).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await workbook.listTables()).toEqual([]);
    expect(workbook.snapshot().sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });

  it('refuses a register one of whose datasets the key may not read, naming that dataset', async () => {
    const limited = await startSandbox({
      port: 0,
      environment: 'ACC',
      scale: 5,
      keys: [{ ...(await import('../../src/sandbox/keys')).demoKey('ACC'), identifier: 'no-incidents', password: 'pw-no-incidents-1234567', apis: ['GetDirectData'] }],
    });
    try {
      const workbook = createMemoryWorkbook();
      const out = await loadDataset({
        client: createClient({ baseUrl: limited.url, credentials: { identifier: 'no-incidents', password: 'pw-no-incidents-1234567' } }),
        workbook,
        datasetId: 'register:incidents',
        environment: 'ACC',
        target: { kind: 'new-sheet' },
      });
      expect(out).toMatchObject({ ok: false, error: { code: 'api', apiCode: 'forbidden' } });
      if (out.ok) return;
      expect(out.error.message).toMatch(/^The Incident register reads the dataset Incident type custom fields \(incidenttypecustomfields\), and reading it failed: /);
      expect(await workbook.listTables()).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});
