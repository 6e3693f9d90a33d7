import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/cli/template';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { tableRecords } from '../../../src/writeback';
import { openFileWorkbook } from '../../../src/workbook/file';
import { ZipReader } from '../../../src/workbook/file/zip';
import { entryHashes, libreOfficeSheets, openpyxl } from '../../support/outside-readers';
import { cliIo } from '../../support/sandbox';

/**
 * `grc-sheets template` against the real sandbox: the add-in's template in a new workbook and in an
 * existing one, read by openpyxl and LibreOffice, filled by openpyxl and read back by the file adapter.
 */
describe('grc-sheets template', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 60 });
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-template-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const io = () => cliIo(sandbox);

  it('makes a new workbook with the template: table, dropdowns from standing data, hidden row key, the task pane', async () => {
    const book = join(dir, 'incidents.xlsx');
    const cli = io();
    expect([await run(['--flow', 'incidents', '--base-url', sandbox.url, '--env', 'ACC', '--json', book], cli.io), cli.err]).toEqual([0, []]);
    const made = JSON.parse(cli.out.join('\n')) as { table: string; sheet: string; columns: string[] };
    expect(made.sheet).toBe('Incidents');
    expect(made.columns).toEqual(expect.arrayContaining(['Result', 'Result GUID']));

    const seen = openpyxl<{ sheets: [string, string][]; ref: string; columns: string[]; validations: [string, string, boolean][]; hidden: string[]; lists: string[] }>(
      book,
      `wb = load_workbook(sys.argv[1])
ws = wb['Incidents']
t = ws.tables['${made.table}']
hidden = [k for k, d in ws.column_dimensions.items() if d.hidden]
lists = [c.value for c in wb['GRC lists'][1] if c.value]
print(json.dumps({'sheets': [[s.title, s.sheet_state] for s in wb.worksheets], 'ref': t.ref, 'columns': [c.name for c in t.tableColumns],
  'validations': [[dv.type, dv.formula1, dv.showErrorMessage] for dv in ws.data_validations.dataValidation], 'hidden': hidden, 'lists': lists}))`,
    );
    expect(seen.sheets).toEqual([['GRC lists', 'hidden'], ['Incidents', 'visible']]);
    expect(seen.columns).toEqual(made.columns);
    expect(seen.ref).toMatch(/^A1:[A-Z]+2$/);
    expect(seen.validations.length).toBeGreaterThan(0);
    for (const [type, formula] of seen.validations) {
      expect(type).toBe('list');
      expect(formula).toMatch(/^'GRC lists'!\$[A-Z]+\$2:\$[A-Z]+\$\d+$/);
    }
    // The add-in's own columns (the row key last) are hidden.
    const letter = (i: number): string => (i >= 26 ? letter(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
    expect(seen.hidden.length).toBeGreaterThan(0);
    expect(seen.hidden).toContain(letter(made.columns.length - 1));
    expect(seen.lists.every((l) => l.endsWith('(ACC)'))).toBe(true);

    // LibreOffice opens it: the lookup lists hold the sandbox's standing data.
    const lo = libreOfficeSheets(book);
    expect(lo.get('Incidents')![0]).toEqual(made.columns);
    expect(lo.get('GRC lists')!.length).toBeGreaterThan(1);

    // The add-in's part: the task pane opens with the file; the template's record is in its settings.
    const zip = ZipReader.open(book);
    const we = zip.text('xl/webextensions/webextension1.xml');
    const panes = zip.text('xl/webextensions/taskpanes.xml');
    zip.close();
    expect(we).toContain('<we:reference id="e72bdb8c-8554-43e4-8a33-9a76f151db89"');
    expect(we).toContain('<we:property name="Office.AutoShowTaskpaneWithDocument" value="true"/>');
    expect(panes).toContain('r:id="rId1"');
    const again = openFileWorkbook(book);
    const records = await tableRecords(again);
    again.close();
    expect(records[made.table]).toMatchObject({ flow: 'incidents', environment: 'ACC' });
  }, 60_000);

  it('fills by openpyxl and reads back through the file adapter', async () => {
    const book = join(dir, 'filled.xlsx');
    const cli = io();
    expect(await run(['--flow', 'incidents', '--base-url', sandbox.url, '--env', 'ACC', book], cli.io)).toBe(0);
    const table = (await (async () => {
      const wb = openFileWorkbook(book);
      try {
        return (await wb.listTables()).find((t) => t.sheet === 'Incidents')!;
      } finally {
        wb.close();
      }
    })());
    expect(table.rowCount).toBe(0);
    openpyxl(
      book,
      `wb = load_workbook(sys.argv[1])
ws = wb['Incidents']
t = ws.tables['${table.name}']
ws.cell(row=2, column=1, value='First incident')
ws.cell(row=3, column=1, value='Second incident')
t.ref = t.ref[:-1] + '3'
t.autoFilter.ref = t.ref
wb.save(sys.argv[1])
print('null')`,
    );
    const wb = openFileWorkbook(book);
    const { columns, rows } = await wb.readRows(table.name);
    wb.close();
    expect(columns).toEqual(table.columns);
    expect(rows.map((r) => r[0])).toEqual(['First incident', 'Second incident']);
  }, 60_000);

  it('adds a second template beside the first: its lists rewritten in place on the existing lookup sheet', async () => {
    const book = join(dir, 'twice.xlsx');
    expect(await run(['--flow', 'incidents', '--base-url', sandbox.url, '--env', 'ACC', book], io().io)).toBe(0);
    const once = openpyxl<string[]>(book, "print(json.dumps([c.value for c in load_workbook(sys.argv[1])['GRC lists'][1] if c.value]))");
    const cli = io();
    expect([await run(['--flow', 'incidents', '--base-url', sandbox.url, '--env', 'ACC', book], cli.io), cli.err]).toEqual([0, []]);
    const seen = openpyxl<{ lists: string[]; tables: string[]; sheets: string[] }>(
      book,
      `wb = load_workbook(sys.argv[1])
print(json.dumps({'lists': [c.value for c in wb['GRC lists'][1] if c.value], 'sheets': wb.sheetnames, 'tables': sorted(n for ws in wb.worksheets for n in ws.tables)}))`,
    );
    expect(seen.lists).toEqual(once);
    expect(seen.sheets).toEqual(['GRC lists', 'Incidents', 'Incidents_2']);
    expect(seen.tables).toEqual(['GrcIncidents', 'GrcIncidents2']);
  }, 60_000);

  it('adds the template to an existing workbook and leaves its other parts as they were', async () => {
    const book = join(dir, 'existing.xlsx');
    copyFileSync(join(__dirname, 'fixtures', 'pivot-chart.xlsx'), book);
    const before = entryHashes(book);
    const cli = io();
    expect(await run(['--flow', 'incidents', '--base-url', sandbox.url, '--env', 'ACC', book], cli.io)).toBe(0);
    const after = entryHashes(book);
    const changed = Object.keys(before).filter((n) => after[n] !== before[n]).sort();
    expect(changed).toEqual(['[Content_Types].xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/webextensions/webextension1.xml', 'xl/workbook.xml'].sort());
    const wb = openFileWorkbook(book);
    expect((await wb.listTables()).map((t) => t.name)).toEqual(['tbl_risk', 'GrcIncidents']);
    wb.close();
    expect([...libreOfficeSheets(book).keys()].sort()).toEqual(['GRC lists', 'Incidents', 'Notes', 'Pivot', 'Risks'].sort());
  }, 60_000);
});
