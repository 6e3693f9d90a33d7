import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWorkbookError } from '../../../src/workbook/errors';
import { openFileWorkbook } from '../../../src/workbook/file';
import { ZipReader } from '../../../src/workbook/file/zip';
import { libreOfficeSheets, openpyxl } from '../../support/outside-readers';

/** The file adapter's own behaviour, on workbooks openpyxl makes: what a rewrite keeps, clears and writes. */
describe('the saved-workbook adapter', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'grc-file-adapter-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A workbook with table tbl (columns a, b, c; `rows` rows) on sheet Data, plus whatever `extra` adds. */
  const book = (name: string, rows: number, extra = '') => {
    const path = join(dir, name);
    const script = `import sys
from openpyxl import Workbook
from openpyxl.worksheet.table import Table
wb = Workbook(); ws = wb.active; ws.title = 'Data'
ws.append(['a', 'b', 'c'])
for i in range(${rows}): ws.append(['x%d' % i, i, i * 0.5])
ws.add_table(Table(displayName='tbl', ref='A1:C%d' % (${rows} + 1)))
wb.create_sheet('Other')['A1'] = 'other'
${extra}
wb.save(sys.argv[1])`;
    execFileSync('/usr/bin/python3', ['-c', script, path]);
    return path;
  };
  const cells = (path: string, sheet = 'Data') =>
    openpyxl<{ ref: string; rows: unknown[][] }>(path, `wb = load_workbook(sys.argv[1]); ws = wb['${sheet}']
print(json.dumps({'ref': ws.tables['tbl'].ref if 'tbl' in ws.tables else None, 'rows': [[c for c in r] for r in ws.iter_rows(values_only=True)]}))`);

  it('shrinks a table: its old rows are cleared, cells beside and below it stay', async () => {
    const input = book('shrink.xlsx', 10, "ws['E5'] = 'beside'\nws['A14'] = 'below'");
    const output = join(dir, 'shrink-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.writeRows('tbl', 0, [['n0', 1, 2], ['n1', 3, 4], ['n2', 5, 6]]);
    await wb.setRowCount('tbl', 3);
    wb.saveTo(output);
    wb.close();
    const seen = cells(output);
    expect(seen.ref).toBe('A1:C4');
    expect(seen.rows.slice(0, 4).map((r) => r.slice(0, 3))).toEqual([['a', 'b', 'c'], ['n0', 1, 2], ['n1', 3, 4], ['n2', 5, 6]]);
    expect(seen.rows[4]).toEqual([null, null, null, null, 'beside']);
    expect(seen.rows.slice(5, 11).every((r) => r.slice(0, 3).every((v) => v === null))).toBe(true);
    expect(seen.rows[13]![0]).toBe('below');
  });

  it('rewrites two tables side by side on one sheet, one growing and one shrinking, and a name with & in it', async () => {
    const input = book('two.xlsx', 4, "ws.title = 'R&D'\nfor i, v in enumerate(['k', 'v']): ws.cell(row=1, column=5 + i, value=v)\nfor r in range(2, 8): ws.cell(row=r, column=5, value='k%d' % r); ws.cell(row=r, column=6, value=r)\nws.add_table(Table(displayName='side', ref='E1:F7'))");
    const output = join(dir, 'two-out.xlsx');
    const wb = openFileWorkbook(input);
    expect((await wb.listTables()).map((t) => [t.name, t.sheet, t.rowCount])).toEqual([['tbl', 'R&D', 4], ['side', 'R&D', 6]]);
    await wb.writeRows('tbl', 0, Array.from({ length: 9 }, (_, i) => [`g${i}`, i, i]));
    await wb.writeRows('side', 0, [['only', 1]]);
    await wb.setRowCount('side', 1);
    wb.saveTo(output);
    wb.close();
    const seen = openpyxl<{ refs: Record<string, string>; rows: unknown[][] }>(output, `wb = load_workbook(sys.argv[1]); ws = wb['R&D']
print(json.dumps({'refs': {n: ws.tables[n].ref for n in ws.tables}, 'rows': [list(r) for r in ws.iter_rows(min_row=1, max_row=10, values_only=True)]}))`);
    expect(seen.refs).toEqual({ tbl: 'A1:C10', side: 'E1:F2' });
    expect(seen.rows[1]).toEqual(['g0', 0, 0, null, 'only', 1]);
    expect(seen.rows[2]).toEqual(['g1', 1, 1, null, null, null]);
    expect(seen.rows[9]).toEqual(['g8', 8, 8, null, null, null]);
  });

  it('inspects a strip of 300,000 cells without running out of stack', async () => {
    const input = book('big.xlsx', 1);
    const output = join(dir, 'big-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.writeRows('tbl', 0, Array.from({ length: 100_000 }, (_, i) => [`r${i}`, i, i]));
    wb.saveTo(output);
    wb.close();
    const again = openFileWorkbook(output);
    const target = await again.inspectTarget('Data', 'A1', 3);
    expect(target.protected).toBe(false);
    expect(target.used).toBe('A1:C100001');
    again.close();
  }, 60_000);

  it('copies every part it does not change as its original compressed bytes', async () => {
    const input = book('copy.xlsx', 3);
    const output = join(dir, 'copy-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.writeRows('tbl', 0, [['y', 1, 1]]);
    const report = wb.saveTo(output);
    wb.close();
    const a = ZipReader.open(input);
    const b = ZipReader.open(output);
    try {
      expect(report.copied).toBeGreaterThan(5);
      for (const e of a.entries.values()) {
        if (report.rewritten.includes(e.name)) continue;
        const f = b.entries.get(e.name)!;
        expect([e.name, f.method, f.crc, Buffer.concat([...b.raw(f)]).equals(Buffer.concat([...a.raw(e)]))]).toEqual([e.name, e.method, e.crc, true]);
      }
      expect(report.rewritten).toContain('xl/worksheets/sheet1.xml');
      expect(report.rewritten).not.toContain('xl/worksheets/sheet2.xml');
    } finally {
      a.close();
      b.close();
    }
  });

  it('writes untrusted text as text: formula-looking, control characters, escapes, spaces', async () => {
    const input = book('text.xlsx', 1);
    const output = join(dir, 'text-out.xlsx');
    const texts = ['=1+2', '+cmd|calc', '@SUM(A1)', "'=HYPERLINK(\"x\")", 'bell\u0007here', 'literal _x0041_ kept', '  padded  ', 'line\nbreak', '<b>&amp;</b>', 'ü€𝄞'];
    const wb = openFileWorkbook(input);
    await wb.writeRows('tbl', 0, texts.map((t, i) => [t, i, true]));
    wb.saveTo(output);
    wb.close();
    const expected = texts.map((t) => t.replace(/^'(?==)/, ''));
    const lo = libreOfficeSheets(output).get('Data')!;
    expect(lo.slice(1, texts.length + 1).map((r) => r[0])).toEqual(expected);
    expect(lo[1]![2]).toBe('TRUE');
    const again = openFileWorkbook(output);
    expect((await again.readRows('tbl')).rows.map((r) => r[0])).toEqual(expected);
    again.close();
    const py = cells(output);
    expect(py.rows.slice(1, texts.length + 1).map((r) => typeof r[0])).toEqual(texts.map(() => 'string'));
  });

  it('keeps an empty table at its header and one blank row, and reads it as empty', async () => {
    const input = book('empty.xlsx', 4);
    const output = join(dir, 'empty-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.setRowCount('tbl', 0);
    wb.saveTo(output);
    wb.close();
    expect(cells(output).ref).toBe('A1:C2');
    const again = openFileWorkbook(output);
    expect((await again.findTable('tbl'))!.rowCount).toBe(0);
    again.close();
  });

  it('refuses to move a total row, saying how to go on', async () => {
    const input = book('totals.xlsx', 2, "ws.tables['tbl'].totalsRowCount = 1\nws.tables['tbl'].ref = 'A1:C4'\nws['A4'] = 'Total'");
    const wb = openFileWorkbook(input);
    const error = await wb.writeRows('tbl', 0, [['z', 1, 1]]).catch((e: unknown) => e);
    wb.close();
    expect(isWorkbookError(error) && error.message).toMatch(/has a total row.*Turn it off \(Table Design > Total Row\)/);
  });
});
