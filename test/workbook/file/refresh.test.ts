import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../../src/client';
import { readLoadRecords } from '../../../src/loading/loadrecords';
import { refreshAll } from '../../../src/loading/load';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { openFileWorkbook } from '../../../src/workbook/file';
import { ZipReader } from '../../../src/workbook/file/zip';
import { entryHashes, libreOfficeSheets, openpyxl } from '../../support/outside-readers';

const FIXTURE = join(__dirname, 'fixtures', 'pivot-chart.xlsx');

/**
 * The saved-workbook adapter driven by the same refresh use case as the taskpane, against the real
 * sandbox, on a workbook LibreOffice made (fixtures/make-fixture.py): a table with a pivot table and a
 * chart on it. The result is read back by LibreOffice and openpyxl, and compared part by part.
 */
describe('refreshing a saved workbook', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 300 });
    dir = mkdtempSync(join(tmpdir(), 'grc-file-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const client = () => createClient({ baseUrl: sandbox.url, credentials: { identifier: sandbox.demoKey!.identifier, password: sandbox.demoKey!.password } });

  it('rewrites only the table, its sheet and what must change with them; pivot and chart stay', async () => {
    const input = join(dir, 'book.xlsx');
    const output = join(dir, 'out.xlsx');
    copyFileSync(FIXTURE, input);
    const workbook = openFileWorkbook(input);
    const results = await refreshAll({ client: client(), workbook, environment: 'ACC', source: 'sandbox' });
    expect(results.map((r) => [r.table, r.outcome.ok])).toEqual([['tbl_risk', true]]);
    const report = workbook.saveTo(output);
    workbook.close();

    // The refresh's change report adds the Changes sheet, and its evidence the Evidence sheet (new sheets
    // and tables: the package's content types and the workbook's relationships list them).
    expect(report.rewritten.sort()).toEqual(
      ['[Content_Types].xml', 'xl/_rels/workbook.xml.rels', 'xl/pivotCache/pivotCacheDefinition1.xml', 'xl/styles.xml', 'xl/tables/table1.xml', 'xl/webextensions/webextension1.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml'].sort(),
    );
    expect(report.added.sort()).toEqual(['xl/tables/table2.xml', 'xl/tables/table3.xml', 'xl/worksheets/_rels/sheet4.xml.rels', 'xl/worksheets/_rels/sheet5.xml.rels', 'xl/worksheets/sheet4.xml', 'xl/worksheets/sheet5.xml']);
    expect(report.removed).toEqual([]);
    const before = entryHashes(input);
    const after = entryHashes(output);
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before), ...report.added].sort());
    const untouched = Object.keys(before).filter((n) => !report.rewritten.includes(n));
    expect(untouched).toEqual(expect.arrayContaining(['xl/charts/chart1.xml', 'xl/drawings/drawing1.xml', 'xl/pivotTables/pivotTable1.xml', 'xl/pivotCache/pivotCacheRecords1.xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/sheet3.xml', 'xl/sharedStrings.xml']));
    for (const name of untouched) expect([name, after[name]]).toEqual([name, before[name]]);

    // The pivot cache rebuilds when the file opens, over the table's new range.
    const downloaded = (await client().download('risk', {})).records;
    const cache = readZipText(output, 'xl/pivotCache/pivotCacheDefinition1.xml');
    expect(cache).toMatch(/<pivotCacheDefinition [^>]*refreshOnLoad="1"/);

    // openpyxl: the table's range, columns and cells.
    const seen = openpyxl<{ ref: string; columns: string[]; first: unknown[]; last: unknown[]; note: unknown }>(
      output,
      `wb = load_workbook(sys.argv[1])
ws = wb['Risks']
t = ws.tables['tbl_risk']
print(json.dumps({'ref': t.ref, 'columns': [c.name for c in t.tableColumns], 'first': [c.value for c in ws[2]][:5], 'last': [c.value for c in ws[301]][:5], 'note': ws['E2'].value}))`,
    );
    const width = seen.columns.length;
    expect(seen.columns.slice(0, 5)).toEqual(['Identifier', 'Name', 'Organization', 'GrossImpact', 'My note']);
    expect(seen.columns).toContain('Id');
    expect(seen.ref).toBe(`A1:${columnName(width - 1)}301`);
    expect(cache).toContain(`<worksheetSource ref="A1:${columnName(width - 1)}301" sheet="Risks"/>`);
    const r0 = downloaded[0]!;
    expect(seen.first.slice(0, 4)).toEqual([r0.Identifier, r0.Name, r0.Organization, r0.GrossImpact]);
    // The user's own column is theirs: kept.
    expect(seen.note).toBe('note 1');

    // LibreOffice: every sheet opens; the table's rows and the formula beside it, the pivot rebuilt.
    const sheets = libreOfficeSheets(output);
    const risks = sheets.get('Risks')!;
    expect(risks.length).toBe(301);
    expect(risks[300]!.slice(0, 2)).toEqual([downloaded[299]!.Identifier, downloaded[299]!.Name]);
    // Formulas that name the table (on a sheet the refresh did not touch) follow it as it grows.
    const total = downloaded.reduce((n, r) => n + Number(r.GrossImpact ?? 0), 0);
    const notes = sheets.get('Notes')!;
    expect(notes[0]![0]).toBe('This sheet is not touched by a refresh.');
    expect(Number(notes[1]![1])).toBeCloseTo(total, 6);
    expect(notes[2]![1]).toBe('300');
    const pivot = sheets.get('Pivot')!;
    // The pivot table, marked to refresh on open, is rebuilt from the new rows.
    expect(Number(pivot.find((r) => r[0] === 'Total Result')![1])).toBeCloseTo(total, 6);

    // The add-in, opening the file again, finds its binding updated.
    const again = openFileWorkbook(output);
    const binding = (await readLoadRecords(again)).get('tbl_risk')!;
    again.close();
    expect(binding.rowCount).toBe(300);
    expect(binding.environment).toBe('ACC');
  }, 120_000);
});

function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function readZipText(file: string, part: string): string {
  const zip = ZipReader.open(file);
  try {
    return zip.text(part);
  } finally {
    zip.close();
  }
}
