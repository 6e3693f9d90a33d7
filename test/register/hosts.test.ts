import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type DataRecord } from '../../src/client';
import { run as refresh } from '../../src/cli/refresh';
import { readLoadRecords } from '../../src/loading/loadrecords';
import { fingerprinter } from '../../src/loading/fingerprint';
import { loadDataset, refreshTable, type LoadOutcome, type LoadSuccess } from '../../src/loading/load';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { serialToIso, type Cell } from '../../src/sheet';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { openFileWorkbook, writeEmptyWorkbook } from '../../src/workbook/file';
import { openpyxl } from '../support/outside-readers';
import { cliIo } from '../support/sandbox';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';
import { expectedRegister, inWords, sandboxAdmin, type Expected } from './expected';

const AREAS = ['risks', 'incidents', 'thirdparties', 'contracts', 'controls', 'audits'];

/**
 * The registers in the two other hosts: Excel (through Office.js batching, the fake Excel) and a saved
 * workbook refreshed headless by `grc-sheets refresh`, read back by openpyxl. Every register's columns,
 * custom field cells and resolved names in each; custom fields added and removed at the source between
 * two refreshes: no column moves.
 */
describe('registers in Excel and in a saved workbook', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 20 });
    dir = mkdtempSync(join(tmpdir(), 'grc-register-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const client = () => createClient({ baseUrl: sandbox.url, credentials: { identifier: sandbox.demoKey!.identifier, password: sandbox.demoKey!.password } });
  const raw = async (id: string): Promise<DataRecord[]> => (await client().download(id, {})).records;
  const ok = (o: LoadOutcome): LoadSuccess => {
    if (!o.ok) throw new Error(`${o.error.code}: ${o.error.message}`);
    return o;
  };
  const base = { environment: 'ACC', source: 'sandbox', fingerprints: fingerprinter };
  const fieldId = async (definitions: string, name: string) => (await raw(definitions)).find((d) => d.Name === name)!.Id as string;
  // As a new load shows them: headers in words, Identifier and Name first, yes/no as "Yes"/"No" (inWords).
  const expectedAll = async () => Object.fromEntries(await Promise.all(AREAS.map(async (a) => [a, inWords(await expectedRegister(a, raw, { invisible: false }))] as const)));

  it('in Excel: every register as typed cells; the control register refreshes with a new field after the user column and an emptied one in place', async () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(13), { maxBytes: 100_000 });
    const want = await expectedAll();
    for (const area of AREAS) {
      const { table } = ok(await loadDataset({ ...base, client: client(), workbook, datasetId: `register:${area}`, target: { kind: 'new-sheet' } }));
      const header = xl.header(table.name);
      expect(header).toEqual(want[area]!.columns);
      // Dates are serials, checkboxes Yes/No, numbers numbers, multi-selects joined: the cells Excel holds ("" for empty).
      const idAt = header.indexOf('GUID');
      for (const row of xl.body(table.name)) {
        const cells = want[area]!.rows.get(row[idAt] as string)!;
        for (const name of Object.keys(want[area]!.formats)) expect([area, name, row[header.indexOf(name)]]).toEqual([area, name, cells[name] ?? '']);
      }
    }
    const table = 'tbl_register_controls';
    const at = (name: string) => xl.header(table).indexOf(name);
    const body = () => xl.body(table);
    expect(body().some((r) => typeof r[at('Key control score')] === 'number' && (r[at('Automated')] === 'Yes' || r[at('Automated')] === 'No') && String(r[at('Assertions')]).includes('; '))).toBe(true);

    xl.addUserColumn(table, 'Mine', '=[@Name]');
    const admin = sandboxAdmin(sandbox.url);
    await admin.addField('controlcustomfields', { Name: 'Evidence location', Type: 'Text' });
    await admin.removeField(await fieldId('controlcustomfields', 'Frequency'));
    const before = xl.header(table);
    const refreshed = ok(await refreshTable({ ...base, client: client(), workbook, table }));
    expect(refreshed.changes).toMatchObject({ columnsAdded: ['Evidence location'], columnsEmptied: ['Frequency'] });
    expect(xl.header(table)).toEqual([...before, 'Evidence location']);
    expect(body().every((r) => r[at('Frequency')] === '' && r[at('Mine')] === '=[@Name]' && String(r[at('Evidence location')]).startsWith('Note '))).toBe(true);
  });

  it('headless: every register in a saved workbook, fields changed at the source, grc-sheets refresh, read by openpyxl as typed columns', async () => {
    const book = join(dir, 'registers.xlsx');
    writeEmptyWorkbook(book);
    const workbook = openFileWorkbook(book);
    for (const area of AREAS) ok(await loadDataset({ ...base, client: client(), workbook, datasetId: `register:${area}`, target: { kind: 'new-sheet' } }));
    workbook.saveTo(book);
    workbook.close();
    const before = await expectedAll();

    // Custom fields change in three areas: a name/value-pair-free area, incident types, and the audit context.
    const admin = sandboxAdmin(sandbox.url);
    await admin.addField('thirdpartycontractcustomfields', { Name: 'Termination date', Type: 'Date' });
    await admin.removeField(await fieldId('thirdpartycontractcustomfields', 'Contract owner'));
    const dataBreach = (await raw('incidenttypes')).find((t) => t.Name === 'Data breach')!.Id as string;
    await admin.addField('incidenttypecustomfields', { Name: 'Records affected', Type: 'Number', IncidentTypeId: dataBreach });
    await admin.removeField(await fieldId('incidenttypecustomfields', 'Police report number'));
    await admin.addField('auditcontextcustomfields', { Name: 'Regions', Type: 'MultiSelect', Options: ['EU', 'UK', 'US'] });
    const added: Record<string, string[]> = { contracts: ['Termination date'], incidents: ['Records affected'], audits: ['Regions'] };
    const removed: Record<string, string[]> = { contracts: ['Contract owner'], incidents: ['Police report number'] };

    const { io, out, err } = cliIo(sandbox);
    expect(await refresh([book, '--base-url', sandbox.url, '--env', 'ACC', '--json'], io)).toBe(0);
    expect(err).toEqual([]);
    const summary = JSON.parse(out.join('\n')) as { tables: { table: string; ok: boolean; changes: { text: string; columnsAdded: string[]; columnsEmptied: string[] } }[] };
    for (const area of AREAS) {
      const t = summary.tables.find((x) => x.table === `tbl_register_${area}`)!;
      expect([area, t.ok, t.changes.columnsAdded, t.changes.columnsEmptied]).toEqual([area, true, added[area] ?? [], removed[area] ?? []]);
    }
    expect(summary.tables.find((x) => x.table === 'tbl_register_contracts')!.changes.text).toMatch(/new column "Termination date" added at the end; "Contract owner" no longer sent: kept, empty$/);

    type Seen = Record<string, { columns: string[]; rows: Record<string, unknown>[] }>;
    const seen = openpyxl<Seen>(
      book,
      `import datetime
wb = load_workbook(sys.argv[1])
def show(v):
    if isinstance(v, datetime.datetime): return 'date:' + v.date().isoformat()
    if isinstance(v, bool): return 'bool:' + str(v)
    if isinstance(v, (int, float)): return 'num:' + repr(float(v))
    return None if v == '' else v
out = {}
for ws in wb.worksheets:
    for name in ws.tables:
        cells = ws[ws.tables[name].ref]
        header = [c.value for c in cells[0]]
        out[name] = {'columns': header, 'rows': [dict(zip(header, [show(c.value) for c in row])) for row in cells[1:]]}
print(json.dumps(out))`,
    );
    const after = await expectedAll();
    // What openpyxl shows for the cell the register should hold, by the column's format.
    const py = (v: Cell, format: string | undefined): unknown => {
      if (v === null || v === '') return null;
      if (format === 'date') return `date:${serialToIso(v as number, 'date')!.slice(0, 10)}`;
      if (format === 'boolean') return `bool:${v ? 'True' : 'False'}`;
      if (format === 'number') return `num:${Number.isInteger(v) ? `${v as number}.0` : String(v)}`;
      return v;
    };
    const check = (area: string, want: Expected, columns: string[]) => {
      const table = seen[`tbl_register_${area}`]!;
      expect([area, table.columns]).toEqual([area, columns]);
      expect([area, table.rows.length]).toEqual([area, want.rows.size]);
      for (const row of table.rows) {
        const cells = want.rows.get(row.GUID as string)!;
        for (const [name, format] of Object.entries(want.formats)) expect([area, name, row[name]]).toEqual([area, name, py(cells[name] ?? null, format)]);
        for (const name of removed[area] ?? []) expect([area, name, row[name]]).toEqual([area, name, null]);
      }
    };
    for (const area of AREAS) check(area, after[area]!, [...before[area]!.columns, ...(added[area] ?? [])]);
    expect(seen.tbl_register_incidents!.rows.some((r) => typeof r['Records affected'] === 'string')).toBe(true);
    expect(seen.tbl_register_audits!.rows.some((r) => String(r.Regions).includes('; '))).toBe(true);

    const reopened = openFileWorkbook(book);
    expect((await readLoadRecords(reopened)).get('tbl_register_contracts')).toMatchObject({ datasetId: 'register:contracts', fingerprint: { count: after.contracts!.rows.size } });
    reopened.close();
  }, 60_000);
});
