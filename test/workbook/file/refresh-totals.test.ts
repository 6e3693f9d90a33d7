import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../../src/client';
import { refreshAll } from '../../../src/loading/load';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { openFileWorkbook } from '../../../src/workbook/file';
import { ZipReader } from '../../../src/workbook/file/zip';
import { entryHashes, libreOfficeSheets, openpyxl } from '../../support/outside-readers';

const FIXTURE = join(__dirname, 'fixtures', 'totals.xlsx');

interface TableSeen {
  ref: string;
  totals: number;
  filter: string;
  columns: { name: string; label: string | null; fn: string | null; formula: string | null }[];
  total: unknown[];
  below: unknown[];
}

/**
 * A table with a total row (fixtures/make-totals-fixture.py: openpyxl made it, as Excel's Table Design >
 * Total Row does) refreshed by the same use case as the taskpane, growing from 10 rows to 300 and then
 * shrinking to 50. LibreOffice recalculates the totals; openpyxl reads the table part; every entry a
 * refresh does not change is compared byte for byte.
 */
describe('refreshing a saved workbook whose table has a total row', () => {
  let many: Sandbox;
  let fewer: Sandbox;
  let dir: string;
  beforeAll(async () => {
    many = await startSandbox({ port: 0, environment: 'ACC', scale: 300 });
    fewer = await startSandbox({ port: 0, environment: 'ACC', scale: 50 });
    dir = mkdtempSync(join(tmpdir(), 'grc-file-totals-'));
  });
  afterAll(async () => {
    await many.close();
    await fewer.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const client = (s: Sandbox) => createClient({ baseUrl: s.url, credentials: { identifier: s.demoKey!.identifier, password: s.demoKey!.password } });

  async function refresh(s: Sandbox, input: string, output: string) {
    const workbook = openFileWorkbook(input);
    const results = await refreshAll({ client: client(s), workbook, environment: 'ACC', source: 'sandbox' });
    const report = workbook.saveTo(output);
    workbook.close();
    expect(results.map((r) => [r.table, r.outcome.ok])).toEqual([['tbl_risk', true]]);
    const outcome = results[0]!.outcome;
    return { report, changes: outcome.ok ? outcome.changes : undefined };
  }

  const tableSeen = (file: string) =>
    openpyxl<TableSeen>(
      file,
      `wb = load_workbook(sys.argv[1])
ws = wb['Risks']
t = ws.tables['tbl_risk']
last = int(''.join(ch for ch in t.ref.split(':')[1] if ch.isdigit()))
cols = [{'name': c.name, 'label': c.totalsRowLabel, 'fn': c.totalsRowFunction, 'formula': c.totalsRowFormula.attr_text if c.totalsRowFormula else None} for c in t.tableColumns]
row = lambda r: [ws.cell(row=r, column=i + 1).value for i in range(len(cols))]
print(json.dumps({'ref': t.ref, 'totals': t.totalsRowCount, 'filter': t.autoFilter.ref, 'columns': cols, 'total': row(last), 'below': row(last + 1)}))`,
    );

  /** The total row's formula cells as the refreshed sheet holds them. */
  const totalCells = (file: string, row: number) => {
    const zip = ZipReader.open(file);
    try {
      const sheet = zip.text('xl/worksheets/sheet1.xml');
      return [...sheet.matchAll(new RegExp(`<c r="[A-Z]+${row}"[^>]*?(?:/>|>[\\s\\S]*?</c>)`, 'g'))].map((m) => m[0]);
    } finally {
      zip.close();
    }
  };

  it('moves the total row under the new last row as the table grows and shrinks; the totals add up the new rows', async () => {
    const input = join(dir, 'book.xlsx');
    const grown = join(dir, 'grown.xlsx');
    copyFileSync(FIXTURE, input);
    const first = await refresh(many, input, grown);
    expect(first.report.rewritten.sort()).toEqual(
      ['[Content_Types].xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/tables/table1.xml', 'xl/webextensions/webextension1.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml'].sort(),
    );
    const before = entryHashes(input);
    const afterGrow = entryHashes(grown);
    const untouched = Object.keys(before).filter((n) => !first.report.rewritten.includes(n));
    expect(untouched).toEqual(expect.arrayContaining(['xl/charts/chart1.xml', 'xl/drawings/drawing1.xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/_rels/sheet1.xml.rels', 'xl/webextensions/taskpanes.xml']));
    for (const name of untouched) expect([name, afterGrow[name]]).toEqual([name, before[name]]);

    const records300 = (await client(many).download('risk', {})).records;
    const sum = (rs: typeof records300) => rs.reduce((n, r) => n + Number(r.GrossImpact ?? 0), 0);
    const scores = 550; // the user's own column: its ten values stay with their rows (make-totals-fixture.py)

    // openpyxl: the table's range holds the total row, the autoFilter does not; the total row's definitions stay.
    const grownTable = tableSeen(grown);
    const last = grownTable.ref.split(':')[1]!.replace(/\d+/, '');
    expect([grownTable.ref, grownTable.totals, grownTable.filter]).toEqual([`A1:${last}302`, 1, `A1:${last}301`]);
    expect(grownTable.columns.slice(0, 5)).toEqual([
      { name: 'Identifier', label: 'Total', fn: null, formula: null },
      { name: 'Name', label: null, fn: 'count', formula: null },
      { name: 'Organization', label: null, fn: null, formula: null },
      { name: 'GrossImpact', label: null, fn: 'sum', formula: null },
      { name: 'My score', label: null, fn: 'custom', formula: 'SUM(E2:E301)' },
    ]);
    // New dataset fields came at the right: their total cells are empty, and nothing of them has a total.
    expect(grownTable.columns.length).toBeGreaterThan(5);
    expect(grownTable.columns.slice(5).every((c) => c.fn === null && c.label === null)).toBe(true);
    expect(grownTable.total).toEqual(['Total', '=SUBTOTAL(103,tbl_risk[Name])', null, '=SUBTOTAL(109,tbl_risk[GrossImpact])', '=SUM(E2:E301)', ...grownTable.columns.slice(5).map(() => null)]);
    expect(grownTable.below.every((v) => v === null)).toBe(true);
    // The stored results of the moved totals are dropped (they summed the ten old rows); the workbook recalculates on open.
    const moved = totalCells(grown, 302).filter((c) => c.includes('<f>'));
    expect(moved).toHaveLength(3);
    for (const c of moved) expect(c).not.toMatch(/<v>|\st="/);
    expect(totalCells(grown, 302)[0]).toMatch(/^<c r="A302" s="\d+"/);

    // LibreOffice: the total row right under the data, recalculated over the 300 new rows; nothing below it.
    const grownCalc = libreOfficeSheets(grown);
    const risks = grownCalc.get('Risks')!;
    expect(risks.length).toBe(302);
    expect(risks[300]![0]).toBe(records300[299]!.Identifier);
    expect(risks[301]!.slice(0, 5).map((v, i) => (i === 3 ? Number(v) : v))).toEqual(['Total', '300', '', expect.closeTo(sum(records300), 6), String(scores)]);
    // Formulas naming the table and its total row, on a sheet the refresh does not touch, follow it.
    const notes = grownCalc.get('Notes')!;
    expect(Number(notes[1]![1])).toBeCloseTo(sum(records300), 6);
    expect(Number(notes[2]![1])).toBeCloseTo(sum(records300), 6);

    // A second refresh of the same data reads the table's 300 rows, not the total row: no changes, no hand edits.
    const again = join(dir, 'again.xlsx');
    const second = await refresh(many, grown, again);
    expect(second.changes!.text).toBe('no changes');
    expect(tableSeen(again).ref).toBe(grownTable.ref);

    // Shrunk to 50 rows: the total row moves up under row 51, and nothing of the old total row is left.
    const shrunk = join(dir, 'shrunk.xlsx');
    const third = await refresh(fewer, again, shrunk);
    expect(third.changes!.summary.removed).toBeGreaterThan(0);
    const records50 = (await client(fewer).download('risk', {})).records;
    const shrunkTable = tableSeen(shrunk);
    expect([shrunkTable.ref, shrunkTable.totals, shrunkTable.filter]).toEqual([`A1:${last}52`, 1, `A1:${last}51`]);
    expect(shrunkTable.columns[4]!.formula).toBe('SUM(E2:E51)');
    expect(shrunkTable.total.slice(0, 5)).toEqual(['Total', '=SUBTOTAL(103,tbl_risk[Name])', null, '=SUBTOTAL(109,tbl_risk[GrossImpact])', '=SUM(E2:E51)']);
    const shrunkCalc = libreOfficeSheets(shrunk);
    const rows = shrunkCalc.get('Risks')!;
    expect(rows.length).toBe(52);
    expect(rows[50]![0]).toBe(records50[49]!.Identifier);
    expect(rows[51]!.slice(0, 5).map((v, i) => (i === 3 ? Number(v) : v))).toEqual(['Total', '50', '', expect.closeTo(sum(records50), 6), String(scores)]);
    expect(Number(shrunkCalc.get('Notes')![2]![1])).toBeCloseTo(sum(records50), 6);

    // Through both refreshes, every part a refresh does not change is the fixture's, byte for byte.
    const afterShrink = entryHashes(shrunk);
    for (const name of untouched) expect([name, afterShrink[name]]).toEqual([name, before[name]]);
  }, 180_000);
});
