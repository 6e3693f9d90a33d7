import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type DataRecord } from '../../src/client';
import { run as refresh } from '../../src/cli/refresh';
import { readBindings } from '../../src/loading/bindings';
import { fingerprinter } from '../../src/loading/fingerprint';
import { loadDataset, refreshTable, type LoadOutcome, type LoadSuccess } from '../../src/loading/load';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { openFileWorkbook, writeEmptyWorkbook } from '../../src/workbook/file';
import { openpyxl } from '../support/outside-readers';
import { cliIo } from '../support/sandbox';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';
import { expectedRegister, inWords, sandboxAdmin } from './expected';

/**
 * The same registers in the two other hosts: Excel (through Office.js batching, the fake Excel) and a
 * saved workbook refreshed headless by `grc-sheets refresh`, read back by openpyxl. In each, a custom
 * field is added and another removed at the source between two refreshes: no column moves.
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

  it('in Excel: the control register refreshes with a new field after the user column and an emptied one in place', async () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(13), { maxBytes: 100_000 });
    const { table } = ok(await loadDataset({ ...base, client: client(), workbook, datasetId: 'register:controls', target: { kind: 'new-sheet' } }));
    const want = inWords(await expectedRegister('controls', raw, { invisible: false }));
    expect(xl.header(table.name)).toEqual(want.columns);
    const body = () => xl.body(table.name);
    const at = (name: string) => xl.header(table.name).indexOf(name);
    // Dates are serials, checkboxes booleans, numbers numbers, multi-selects joined: the cells Excel holds.
    const idAt = at('GUID');
    for (const row of body()) {
      const cells = want.rows.get(row[idAt] as string)!;
      for (const name of ['Control type', 'Automated', 'Frequency', 'Last tested', 'Assertions', 'Key control score', 'Risks']) expect([name, row[at(name)]]).toEqual([name, cells[name] ?? '']);
    }
    expect(body().some((r) => typeof r[at('Key control score')] === 'number' && (r[at('Automated')] === 'Yes' || r[at('Automated')] === 'No') && String(r[at('Assertions')]).includes('; '))).toBe(true);

    xl.addUserColumn(table.name, 'Mine', '=[@Name]');
    const admin = sandboxAdmin(sandbox.url);
    await admin.addField('controlcustomfields', { Name: 'Evidence location', Type: 'Text' });
    await admin.removeField(await fieldId('controlcustomfields', 'Frequency'));
    const before = xl.header(table.name);
    const refreshed = ok(await refreshTable({ ...base, client: client(), workbook, table: table.name }));
    expect(refreshed.changes).toMatchObject({ columnsAdded: ['Evidence location'], columnsEmptied: ['Frequency'] });
    expect(xl.header(table.name)).toEqual([...before, 'Evidence location']);
    expect(body().every((r) => r[at('Frequency')] === '' && r[at('Mine')] === '=[@Name]' && String(r[at('Evidence location')]).startsWith('Note '))).toBe(true);
  });

  it('headless: a contract register in a saved workbook, refreshed by grc-sheets refresh, read by openpyxl with typed columns', async () => {
    const book = join(dir, 'contracts.xlsx');
    writeEmptyWorkbook(book);
    const workbook = openFileWorkbook(book);
    const { table } = ok(await loadDataset({ ...base, client: client(), workbook, datasetId: 'register:contracts', target: { kind: 'new-sheet' } }));
    workbook.saveTo(book);
    workbook.close();
    const want = inWords(await expectedRegister('contracts', raw, { invisible: false }));

    const admin = sandboxAdmin(sandbox.url);
    await admin.addField('thirdpartycontractcustomfields', { Name: 'Termination date', Type: 'Date' });
    await admin.removeField(await fieldId('thirdpartycontractcustomfields', 'Contract owner'));
    const { io, out, err } = cliIo(sandbox);
    expect(await refresh([book, '--base-url', sandbox.url, '--env', 'ACC', '--json'], io)).toBe(0);
    expect(err).toEqual([]);
    const summary = JSON.parse(out.join('\n')) as { tables: { table: string; ok: boolean; changes: { text: string } }[] };
    expect(summary.tables).toMatchObject([{ table: table.name, ok: true }]);
    expect(summary.tables[0]!.changes.text).toMatch(/new column "Termination date" added at the end; "Contract owner" no longer sent: kept, empty$/);

    type Seen = { columns: string[]; rows: Record<string, unknown>[] };
    const seen = openpyxl<Seen>(
      book,
      `import datetime
wb = load_workbook(sys.argv[1])
t = None
for ws in wb.worksheets:
    if '${table.name}' in ws.tables:
        t = ws.tables['${table.name}']
        break
cells = ws[t.ref]
header = [c.value for c in cells[0]]
def show(v):
    if isinstance(v, datetime.datetime): return 'date:' + v.date().isoformat()
    if isinstance(v, bool): return 'bool:' + str(v)
    if isinstance(v, (int, float)): return 'num:' + repr(float(v))
    return v
print(json.dumps({'columns': header, 'rows': [dict(zip(header, [show(c.value) for c in row])) for row in cells[1:]]}))`,
    );
    expect(seen.columns).toEqual([...want.columns, 'Termination date']);
    expect(seen.rows).toHaveLength(want.rows.size);
    for (const row of seen.rows) {
      const cells = want.rows.get(row.GUID as string)!;
      expect(row['Contract owner']).toBeNull();
      expect(row['Termination date']).toMatch(/^date:\d{4}-\d{2}-\d{2}$/);
      expect(row['Contract value (EUR)']).toBe(`num:${(cells['Contract value (EUR)'] as number).toFixed(1)}`);
      expect(row['Auto renewal']).toBe(cells['Auto renewal']);
      expect(row['Exit regions']).toBe(cells['Exit regions']);
      expect(row['Third party']).toBe(cells['Third party']);
      expect(row['Renewal date']).toMatch(/^date:/);
    }
    const reopened = openFileWorkbook(book);
    expect((await readBindings(reopened)).get(table.name)).toMatchObject({ datasetId: 'register:contracts', fingerprint: { count: want.rows.size } });
    reopened.close();
  }, 60_000);
});
