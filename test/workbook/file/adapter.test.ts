import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWorkbookError } from '../../../src/workbook/errors';
import { isFileProblem, openFileWorkbook, type FileWorkbook } from '../../../src/workbook/file';
import { sheetProtected, type SheetModel } from '../../../src/workbook/file/model';
import type { Package } from '../../../src/workbook/file/package';
import type { Cell } from '../../../src/workbook/port';
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

  /** One workbook of 12 rows for the tests that only read it: openpyxl takes a quarter of a second to make one. */
  let twelve: string | undefined;
  const bookOf12 = () => (twelve ??= book('twelve.xlsx', 12));

  /** Every part of a saved file as text. */
  const parts = (path: string) => {
    const zip = ZipReader.open(path);
    try {
      return Object.fromEntries([...zip.entries.keys()].map((name) => [name, zip.text(name)]));
    } finally {
      zip.close();
    }
  };

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

  it('saves many small writes (a post journals two a row) as the last write of each cell, a column added between them too', async () => {
    const input = book('journal.xlsx', 10);
    const output = join(dir, 'journal-out.xlsx');
    const wb = openFileWorkbook(input);
    const expected = Array.from({ length: 10 }, (_, i) => [`x${i}`, i, i * 0.5, null] as unknown[]);
    // More writes than the save scans one by one (save.ts INDEXED): rows and columns overlap, the later wins.
    for (let i = 0; i < 50; i++) {
      if (i === 30) await wb.addColumns('tbl', [{ name: 'd', format: 'text' }]);
      const row = (i * 7) % 10;
      const column = i < 30 ? i % 3 : i % 4;
      await wb.writeRows('tbl', row, [[`w${i}`]], column);
      expected[row]![column] = `w${i}`;
    }
    wb.saveTo(output);
    wb.close();
    expect(cells(output).rows.slice(0, 11).map((r) => r.slice(0, 4))).toEqual([['a', 'b', 'c', 'd'], ...expected]);
  });

  it('finds rows for updateRows as the table is now: interleaved updates, writes from elsewhere, added columns, growth and saves read back as a model of them says', async () => {
    const input = bookOf12();
    const wb = openFileWorkbook(input);
    const columns = ['a', 'b', 'c'];
    const model: Cell[][] = Array.from({ length: 12 }, (_, i) => [`x${i}`, i, i * 0.5]);
    // A fixed sequence (a linear congruential generator), so a failure is found again on the next run.
    let seed = 27;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor(seed / 65536) % n;
    };
    const readBack = async (path: string) => {
      const saved = openFileWorkbook(path);
      try {
        return await saved.readRows('tbl');
      } finally {
        saved.close();
      }
    };
    let saves = 0;
    for (let step = 0; step < 160; step++) {
      const op = next(10);
      if (op < 4) {
        // Keys move (an update may write column a), some match no row, two updates may find one row; some
        // updates name two columns (a row's a and b, blank or not), found where both match.
        const updates = Array.from({ length: 1 + next(3) }, () => {
          const first = next(columns.length);
          const like = model[next(model.length)]!;
          const where: Record<string, Cell> = next(3) ? { a: `x${next(16)}` } : { a: like[0]!, b: like[1]! };
          return { where, firstColumn: first, cells: Array.from({ length: 1 + next(columns.length - first) }, (_, k) => (first + k ? `u${step}` : `x${next(16)}`)) };
        });
        const expected = updates.map((u) => {
          const row = model.findIndex((r) => Object.entries(u.where).every(([c, v]) => r[columns.indexOf(c)] === v));
          if (row >= 0) u.cells.forEach((c, k) => (model[row]![u.firstColumn + k] = c));
          return row < 0 ? null : row;
        });
        expect([step, await wb.updateRows('tbl', updates)]).toEqual([step, expected]);
      } else if (op < 7) {
        // A write from elsewhere, at a row or just past the end: a key, a value, or cells at chosen columns.
        const row = next(model.length + 2);
        while (model.length <= row) model.push(columns.map(() => null));
        if (op === 6) {
          const cells = [`w${step}`, `x${next(16)}`];
          await wb.writeRows('tbl', row, [cells], [columns.length - 1, 0]);
          model[row]![columns.length - 1] = cells[0]!;
          model[row]![0] = cells[1]!;
        } else {
          const first = next(columns.length);
          const cells = Array.from({ length: columns.length - first }, (_, k) => (first + k ? step : `x${next(16)}`));
          await wb.writeRows('tbl', row, [cells], first);
          cells.forEach((c, k) => (model[row]![first + k] = c));
        }
      } else if (op === 7 && columns.length < 6) {
        columns.push(`d${step}`);
        await wb.addColumns('tbl', [{ name: `d${step}`, format: 'text' }]);
        for (const r of model) r.push(null);
      } else if (op === 8) {
        const count = model.length + next(3);
        await wb.setRowCount('tbl', count);
        while (model.length < count) model.push(columns.map(() => null));
      } else {
        const output = join(dir, `session-${saves++}.xlsx`);
        wb.saveTo(output);
        expect([step, await readBack(output)]).toEqual([step, { columns, rows: model }]);
      }
      expect([step, (await wb.readRows('tbl')).rows]).toEqual([step, model]);
    }
    const output = join(dir, 'session-last.xlsx');
    wb.saveTo(output);
    wb.close();
    expect(saves).toBeGreaterThan(5);
    expect(cells(output).rows).toEqual([columns, ...model]);
  });

  it('sees a write from elsewhere in the next updateRows, and an update that fails halfway keeps what it wrote', async () => {
    const input = bookOf12();
    const output = join(dir, 'elsewhere-out.xlsx');
    const wb = openFileWorkbook(input);
    expect(await wb.updateRows('tbl', [{ where: { a: 'x3' }, firstColumn: 1, cells: ['r1'] }])).toEqual([3]);
    // Row 3's key is overwritten and row 5 takes it: the next update finds row 5.
    await wb.writeRows('tbl', 3, [['moved']], 0);
    await wb.writeRows('tbl', 5, [['x3', 'was 5']]);
    expect(await wb.updateRows('tbl', [{ where: { a: 'x3' }, firstColumn: 2, cells: ['r2'] }])).toEqual([5]);
    // The first update is written before the second is refused; the next call sees it.
    await expect(wb.updateRows('tbl', [{ where: { a: 'x1' }, firstColumn: 0, cells: ['x9'] }, { where: { nope: 'x' }, firstColumn: 1, cells: ['r'] }])).rejects.toThrow(/names a column/);
    expect(await wb.updateRows('tbl', [{ where: { a: 'x9' }, firstColumn: 1, cells: ['r3'] }, { where: { a: 'x1' }, firstColumn: 1, cells: ['r4'] }])).toEqual([1, null]);
    wb.saveTo(output);
    wb.close();
    expect(cells(output).rows.slice(0, 7)).toEqual([['a', 'b', 'c'], ['x0', 0, 0], ['x9', 'r3', 0.5], ['x2', 2, 1], ['moved', 'r1', 1.5], ['x4', 4, 2], ['x3', 'was 5', 'r2']]);
  });

  it('writes the same parts when saved again: added columns, marks, a new sheet and table, settings new to the file', async () => {
    const input = bookOf12();
    const wb = openFileWorkbook(input);
    await wb.addColumns('tbl', [{ name: 'd', format: 'text' }]);
    await wb.writeRows('tbl', 1, [['n1', 1, 2, 'd1']]);
    await wb.markCells('tbl', [{ row: 2, column: 'b', kind: 'error' }, { row: 3, column: 'd', kind: 'ok' }]);
    await wb.addSheet('New', { activate: true });
    await wb.createTable({ name: 'fresh', sheet: 'New', anchor: 'B2', columns: [{ name: 'k', format: 'text' }, { name: 'n', format: 'number' }] });
    await wb.writeRows('fresh', 0, [['k0', 1]]);
    await wb.setSetting('grc-sheets.test', { saved: 'twice' });
    const [first, second] = [join(dir, 'twice-1.xlsx'), join(dir, 'twice-2.xlsx')];
    wb.saveTo(first);
    wb.saveTo(second);
    wb.close();
    expect(parts(second)).toEqual(parts(first));
    const values = (ws: string) => `[[c for c in r] for r in wb['${ws}'].iter_rows(values_only=True)]`;
    expect(openpyxl<unknown>(second, `wb = load_workbook(sys.argv[1]); print(json.dumps([wb.sheetnames, ${values('Data')}[:3], ${values('New')}]))`)).toEqual([
      ['Data', 'Other', 'New'],
      [['a', 'b', 'c', 'd'], ['x0', 0, 0, null], ['n1', 1, 2, 'd1']],
      [[null, null, null], [null, 'k', 'n'], [null, 'k0', 1]],
    ]);
  });

  it('saves in a session of many small writes and saves what one save of the same writes in a fresh session saves, making only the rows written since', async () => {
    const input = book('small.xlsx', 40);
    const ops: ((wb: FileWorkbook) => Promise<unknown>)[] = [];
    for (let i = 0; i < 120; i++) {
      if (i === 50) ops.push((wb) => wb.markCells('tbl', [{ row: 3, column: 'b', kind: 'error' }, { row: 7, column: 'c', kind: 'warning' }]));
      if (i === 80) ops.push((wb) => wb.addColumns('tbl', [{ name: 'd', format: 'text' }]));
      if (i === 100) ops.push((wb) => wb.setRowCount('tbl', 44));
      const row = (i * 13) % 40;
      ops.push(i % 2 ? (wb) => wb.updateRows('tbl', [{ where: { a: `x${row}` }, firstColumn: 1, cells: [`s${i}`] }]) : (wb) => wb.writeRows('tbl', row, [[`w${i}`]], 2));
    }
    const session = openFileWorkbook(input);
    const points: [number, string][] = [];
    const kept: number[] = [];
    for (let k = 0; k < ops.length; k++) {
      await ops[k]!(session);
      if (k % 17 !== 16 && k !== ops.length - 1) continue;
      const output = join(dir, `small-${k}.xlsx`);
      kept.push(session.saveTo(output).keptRows);
      points.push([k, output]);
    }
    // Saved again with nothing written since: every row (all 44 written, or under the added column) as it
    // was, and the sheet not inflated again.
    const read = ZipReader.prototype.textChunks;
    const reads = jest.spyOn(ZipReader.prototype, 'textChunks').mockImplementation(function (this: ZipReader, name: string) {
      return read.call(this, name);
    });
    try {
      expect(session.saveTo(join(dir, 'small-again.xlsx')).keptRows).toBe(44);
      expect(reads.mock.calls.filter(([name]) => name === 'xl/worksheets/sheet1.xml')).toEqual([]);
    } finally {
      reads.mockRestore();
    }
    session.close();
    // The last save came 4 writes after the one before: every other row was kept.
    expect(kept[kept.length - 1]).toBeGreaterThanOrEqual(40);
    for (const [k, output] of points) {
      const fresh = openFileWorkbook(input);
      for (const op of ops.slice(0, k + 1)) await op(fresh);
      const once = join(dir, `small-once-${k}.xlsx`);
      fresh.saveTo(once);
      fresh.close();
      expect([k, parts(output)]).toEqual([k, parts(once)]);
    }
  });

  it('reads a refreshed sheet once more, not twice: the save streams what the whole read kept (a column not read, row heights, cells beside)', async () => {
    const input = book('once.xlsx', 50, "ws['E7'] = 'beside'\nws.row_dimensions[9].height = 30\nws['A60'] = 'below'");
    const output = join(dir, 'once-out.xlsx');
    const reads: string[] = [];
    const inflations: string[] = [];
    const original = { sync: ZipReader.prototype.textChunks, async: ZipReader.prototype.textChunksAsync, bytes: ZipReader.prototype.bytesAsync };
    const textChunks = jest.spyOn(ZipReader.prototype, 'textChunks').mockImplementation(function (this: ZipReader, name: string) {
      reads.push(name);
      inflations.push(name);
      return original.sync.call(this, name);
    });
    const textChunksAsync = jest.spyOn(ZipReader.prototype, 'textChunksAsync').mockImplementation(function (this: ZipReader, name: string) {
      reads.push(name);
      return original.async.call(this, name);
    });
    const bytesAsync = jest.spyOn(ZipReader.prototype, 'bytesAsync').mockImplementation(function (this: ZipReader, name: string) {
      inflations.push(name);
      return original.bytes.call(this, name);
    });
    const seenB: unknown[] = [];
    try {
      const wb = openFileWorkbook(input);
      expect((await wb.inspectTarget('Data', 'A1', 3)).protected).toBe(false);
      // As a refresh does: read the columns it replaces (c is like a column the user added), then write them.
      expect(await wb.scanRows('tbl', ['a', 'b'], (cells) => seenB.push(cells[1]))).toBe(50);
      await wb.writeRows('tbl', 0, Array.from({ length: 40 }, (_, i) => [`n${i}`, i * 3]));
      await wb.setRowCount('tbl', 40);
      wb.saveTo(output);
      wb.close();
    } finally {
      textChunks.mockRestore();
      textChunksAsync.mockRestore();
      bytesAsync.mockRestore();
    }
    expect(seenB).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // Inflated twice: for the sheet's protection (its bytes searched, no text made), and for the rows, a read
    // that also takes the styles the save needs; its text read once; the save reads it no more.
    expect(inflations.filter((n) => n === 'xl/worksheets/sheet1.xml')).toHaveLength(2);
    expect(reads.filter((n) => n === 'xl/worksheets/sheet1.xml')).toHaveLength(1);
    const seen = cells(output);
    expect(seen.ref).toBe('A1:C41');
    expect(seen.rows.slice(1, 41).map((r) => r.slice(0, 3))).toEqual(Array.from({ length: 40 }, (_, i) => [`n${i}`, i * 3, i * 0.5]));
    expect(seen.rows[6]![4]).toBe('beside');
    expect(seen.rows[59]![0]).toBe('below');
    const heights = openpyxl<Record<string, number | null>>(output, "ws = load_workbook(sys.argv[1])['Data']\nprint(json.dumps({str(r): ws.row_dimensions[r].height for r in (8, 9, 10)}))");
    expect(heights).toEqual({ '8': null, '9': 30, '10': null });
  });

  it('tells a protected sheet by the text after its rows, wherever the inflated pieces are cut', async () => {
    const rows = '<row r="1"><c r="A1" t="inlineStr"><is><t>sheetData &lt;/sheetData&gt;</t></is></c></row>';
    const sheet = (tail: string, data = `<sheetData>${rows}</sheetData>`) => Buffer.from(`<worksheet><dimension ref="A1"/>${data}${tail}</worksheet>`);
    const locked = '<sheetProtection sheet="1" objects="1"/>';
    const read = (bytes: Buffer, cuts: number[]) => {
      const pieces = [0, ...cuts, bytes.length].slice(1).map((end, i, ends) => bytes.subarray(i ? ends[i - 1] : 0, end));
      const pkg = { has: () => true, zip: { bytesAsync: async function* () { yield* pieces; } } };
      return sheetProtected(pkg as unknown as Package, { isNew: false, path: 'xl/worksheets/sheet1.xml' } as SheetModel);
    };
    for (const [bytes, expected] of [[sheet(locked), true], [sheet('<sheetProtection sheet="0"/>'), false], [sheet(''), false], [sheet(locked, '<sheetData/>'), true]] as const) {
      const end = Math.max(bytes.indexOf('</sheetData>'), bytes.indexOf('<sheetData/>'));
      // Cut everywhere around the end of the rows, into pieces of one byte, and not at all.
      for (let at = Math.max(1, end - 14); at < end + 14; at++) expect([at, await read(bytes, [at])]).toEqual([at, expected]);
      expect(await read(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1))).toBe(expected);
      expect(await read(bytes, [])).toBe(expected);
    }
    // No end of the rows found (not written as Office does): not told, so the adapter reads the whole scan.
    expect(await read(Buffer.from('<worksheet><sheetData >'), [])).toBeNull();
  });

  it('saves from what the whole read kept exactly what a save that reads the sheet again writes', async () => {
    // Everything a refreshed table's rows can share the sheet with: a title above, the user's column and a
    // formula column between dataset columns, filled and style-only cells, row heights, a body row left
    // empty (openpyxl writes no element for it), merged cells beside, a second table beside and below the
    // body, a note below; with and without a total row (its label in the first column only).
    const made = (totals: boolean) => {
      const path = join(dir, `kept-${totals}.xlsx`);
      const script = `import sys
from openpyxl import Workbook
from openpyxl.styles import PatternFill
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import Table, TableColumn
wb = Workbook(); ws = wb.active; ws.title = 'Data'
ws['A1'] = 'Title'
for c, v in zip('ABCDE', 'aUbFc'): ws[c + '3'] = v
for i in range(8):
    if i == 2: continue
    r = 4 + i
    for c, v in zip('ABCDE', ['x%d' % i, 'mine %d' % i, i, '=C%d*2' % r, i * 0.5]): ws['%s%d' % (c, r)] = v
ws['B5'].fill = PatternFill('solid', fgColor='FFFF00'); ws['B7'] = None; ws['B7'].fill = PatternFill('solid', fgColor='00FF00')
ws.row_dimensions[8].height = 30; ws.row_dimensions[16].height = 40
ws['K5'] = 'merged'; ws.merge_cells('K5:L6')
ws['H13'] = 'k'; ws['I13'] = 'v'
for r in range(14, 17): ws['H%d' % r] = 'h%d' % r; ws['I%d' % r] = r
ws.add_table(Table(displayName='side', ref='H13:I16'))
ws['A20'] = 'note below'; ws['B19'] = 'under the user column'
t = Table(displayName='tbl', ref='A3:E${totals ? 12 : 11}')
${totals ? "t.totalsRowCount = 1; t.autoFilter = AutoFilter(ref='A3:E11'); t.tableColumns = [TableColumn(id=i + 1, name=n, totalsRowLabel=('Total' if n == 'a' else None)) for i, n in enumerate('aUbFc')]; ws['A12'] = 'Total'" : ''}
ws.add_table(t)
wb.save(sys.argv[1])`;
      execFileSync('/usr/bin/python3', ['-c', script, path]);
      return path;
    };
    /** Each file's sheet Data as openpyxl reads it, in one Python for all of them (each start costs a fifth of a second). */
    const dump = (paths: string[]) =>
      openpyxl<unknown[]>(paths[0]!, `out = []
for p in ${JSON.stringify(paths)}:
    ws = load_workbook(p)['Data']
    out.append({'cells': {c.coordinate: [c.value, c.style_id] for r in ws.iter_rows() for c in r if c.value is not None or c.style_id}, 'heights': {r: d.height for r, d in ws.row_dimensions.items() if d.height}, 'merged': [str(m) for m in ws.merged_cells.ranges], 'tables': {n: [ws.tables[n].ref, ws.tables[n].totalsRowCount] for n in ws.tables}})
print(json.dumps(out, sort_keys=True))`);
    /** A refresh's writes, after a whole read of the columns it rewrites or none; the sheet's reads by the save. */
    const refresh = async (input: string, output: string, count: number, whole: boolean) => {
      const wb = openFileWorkbook(input);
      expect((await wb.inspectTarget('Data', 'A3', 5)).protected).toBe(false);
      if (whole) await wb.scanRows('tbl', ['a', 'b', 'c'], () => undefined);
      await wb.writeRows('tbl', 0, Array.from({ length: count }, (_, i) => [`n${i}`, 100 + i, i / 4]), [0, 2, 4]);
      await wb.setRowCount('tbl', count);
      const original = ZipReader.prototype.textChunks;
      let reads = 0;
      const spy = jest.spyOn(ZipReader.prototype, 'textChunks').mockImplementation(function (this: ZipReader, name: string) {
        if (name === 'xl/worksheets/sheet1.xml') reads++;
        return original.call(this, name);
      });
      try {
        wb.saveTo(output);
      } finally {
        spy.mockRestore();
        wb.close();
      }
      return reads;
    };
    const pairs: { totals: boolean; count: number; read: string; kept: string }[] = [];
    for (const totals of [false, true]) {
      const input = made(totals);
      for (const count of [3, 8, 14]) {
        const [read, kept] = [join(dir, `kept-${totals}-${count}-read.xlsx`), join(dir, `kept-${totals}-${count}-kept.xlsx`)];
        expect(await refresh(input, read, count, false)).toBe(1);
        expect(await refresh(input, kept, count, true)).toBe(0);
        pairs.push({ totals, count, read, kept });
      }
    }
    const seen = dump(pairs.flatMap((p) => [p.read, p.kept]));
    pairs.forEach(({ totals, count }, i) => expect([totals, count, seen[2 * i + 1]]).toEqual([totals, count, seen[2 * i]]));
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

  /** tbl with `rows` rows and a total row under them: a label, a SUBTOTAL by structured reference, an A1 sum over the body, bold. */
  const withTotals = (name: string, rows: number, extra = '') =>
    book(
      name,
      rows,
      `from openpyxl.styles import Font
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import TableColumn
t = ws.tables['tbl']; t.ref = 'A1:C${rows + 2}'; t.totalsRowCount = 1; t.autoFilter = AutoFilter(ref='A1:C${rows + 1}')
t.tableColumns = [TableColumn(id=1, name='a', totalsRowLabel='Total'), TableColumn(id=2, name='b', totalsRowFunction='sum'), TableColumn(id=3, name='c', totalsRowFunction='custom')]
for c, v in zip('ABC', ['Total', '=SUBTOTAL(109,tbl[b])', '=SUM(C2:C${rows + 1})']): ws['%s${rows + 2}' % c] = v; ws['%s${rows + 2}' % c].font = Font(bold=True)
${extra}`,
    );
  const tableOf = (path: string) =>
    openpyxl<{ ref: string; totals: number; filter: string; rows: unknown[][]; bold: boolean[] }>(path, `wb = load_workbook(sys.argv[1]); ws = wb['Data']; t = ws.tables['tbl']
last = int(t.ref.split(':')[1][1:])
print(json.dumps({'ref': t.ref, 'totals': t.totalsRowCount, 'filter': t.autoFilter.ref, 'rows': [[c for c in r] for r in ws.iter_rows(values_only=True)], 'bold': [ws.cell(row=last, column=i).font.b for i in (1, 2, 3)]}))`);

  it('grows a table with a total row: the total row moves under the new last row, its cells and style with it', async () => {
    const input = withTotals('totals-grow.xlsx', 2, "ws['E4'] = 'beside the total'\nws['A6'] = 'grown over'\nws['A12'] = 'below'");
    const output = join(dir, 'totals-grow-out.xlsx');
    const wb = openFileWorkbook(input);
    expect((await wb.findTable('tbl'))!.rowCount).toBe(2);
    expect((await wb.readRows('tbl')).rows).toEqual([['x0', 0, 0], ['x1', 1, 0.5]]);
    await wb.writeRows('tbl', 0, Array.from({ length: 7 }, (_, i) => [`g${i}`, i, i * 2]));
    wb.saveTo(output);
    wb.close();
    const seen = tableOf(output);
    expect([seen.ref, seen.totals, seen.filter]).toEqual(['A1:C9', 1, 'A1:C8']);
    // The old total row's place is a body row now; the cell the body grew over is a table row, as without a total row.
    expect(seen.rows.slice(1, 8).map((r) => r.slice(0, 3))).toEqual(Array.from({ length: 7 }, (_, i) => [`g${i}`, i, i * 2]));
    expect(seen.rows[8]!.slice(0, 3)).toEqual(['Total', '=SUBTOTAL(109,tbl[b])', '=SUM(C2:C8)']);
    expect(seen.bold).toEqual([true, true, true]);
    // Cells beside the old total row and below the table stay where they were.
    expect(seen.rows[3]![4]).toBe('beside the total');
    expect(seen.rows[11]![0]).toBe('below');

    // Read again, the total row is not a data row.
    const again = openFileWorkbook(output);
    expect((await again.findTable('tbl'))!.rowCount).toBe(7);
    expect((await again.readRows('tbl')).rows.at(-1)).toEqual(['g6', 6, 12]);
    again.close();
    const calc = libreOfficeSheets(output).get('Data')!;
    expect(calc[8]!.slice(0, 3)).toEqual(['Total', '21', '42']);
  });

  it('keeps a cell below the table that the moved total row lands on, in a column the total row leaves empty', async () => {
    // The total row has a label and a sum, nothing under c; the user's note is where the grown total row goes.
    const input = book(
      'totals-note.xlsx',
      2,
      `from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import TableColumn
t = ws.tables['tbl']; t.ref = 'A1:C4'; t.totalsRowCount = 1; t.autoFilter = AutoFilter(ref='A1:C3')
t.tableColumns = [TableColumn(id=1, name='a', totalsRowLabel='Total'), TableColumn(id=2, name='b', totalsRowFunction='sum'), TableColumn(id=3, name='c')]
ws['A4'] = 'Total'; ws['B4'] = '=SUBTOTAL(109,tbl[b])'
ws['C9'] = 'note below'`,
    );
    const output = join(dir, 'totals-note-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.scanRows('tbl', ['a', 'b', 'c'], () => undefined);
    await wb.writeRows('tbl', 0, Array.from({ length: 7 }, (_, i) => [`g${i}`, i, i * 2]), [0, 1, 2]);
    wb.saveTo(output);
    wb.close();
    const seen = tableOf(output);
    expect(seen.ref).toBe('A1:C9');
    expect(seen.rows[8]!.slice(0, 3)).toEqual(['Total', '=SUBTOTAL(109,tbl[b])', 'note below']);
  });

  it('shrinks a table with a total row: the total row moves up and nothing of it is left below', async () => {
    const input = withTotals('totals-shrink.xlsx', 6, "ws['A12'] = 'below'");
    const output = join(dir, 'totals-shrink-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.writeRows('tbl', 0, [['n0', 1, 2], ['n1', 3, 4]]);
    await wb.setRowCount('tbl', 2);
    wb.saveTo(output);
    wb.close();
    const seen = tableOf(output);
    expect([seen.ref, seen.totals, seen.filter]).toEqual(['A1:C4', 1, 'A1:C3']);
    expect(seen.rows[3]!.slice(0, 3)).toEqual(['Total', '=SUBTOTAL(109,tbl[b])', '=SUM(C2:C3)']);
    expect(seen.bold).toEqual([true, true, true]);
    expect(seen.rows.slice(4, 11).every((r) => r.slice(0, 3).every((v) => v === null))).toBe(true);
    expect(seen.rows[11]![0]).toBe('below');
    const calc = libreOfficeSheets(output).get('Data')!;
    expect(calc.slice(0, 4).map((r) => r.slice(0, 3))).toEqual([['a', 'b', 'c'], ['n0', '1', '2'], ['n1', '3', '4'], ['Total', '4', '6']]);
    expect(calc.slice(4, 11).every((r) => r.slice(0, 3).every((v) => v === ''))).toBe(true);
    expect(calc[11]![0]).toBe('below');
  });

  it('empties a table with a total row to Excel\'s one blank row, the total row under it', async () => {
    const input = withTotals('totals-empty.xlsx', 3);
    const output = join(dir, 'totals-empty-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.setRowCount('tbl', 0);
    wb.saveTo(output);
    wb.close();
    const seen = tableOf(output);
    expect([seen.ref, seen.filter]).toEqual(['A1:C3', 'A1:C2']);
    expect(seen.rows[1]!.slice(0, 3)).toEqual([null, null, null]);
    expect(seen.rows[2]!.slice(0, 3)).toEqual(['Total', '=SUBTOTAL(109,tbl[b])', '=SUM(C2:C2)']);
    const again = openFileWorkbook(output);
    expect((await again.findTable('tbl'))!.rowCount).toBe(0);
    expect((await again.readRows('tbl')).rows).toEqual([]);
    again.close();
  });

  it('moves the total row of a table as LibreOffice saves it (A1 totals, its autoFilter over the total row)', async () => {
    // totals.xlsx saved again by LibreOffice: it writes the totals with their results and `aca` flags, drops
    // the columns' totalsRowFunction, and stretches the autoFilter over the total row.
    const profile = mkdtempSync(join(tmpdir(), 'grc-lo-profile-'));
    const saved = join(dir, 'lo');
    try {
      execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', 'xlsx:Calc Office Open XML', '--outdir', saved, join(__dirname, 'fixtures', 'totals.xlsx')], { stdio: 'pipe', timeout: 120_000 });
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
    const input = join(saved, 'totals.xlsx');
    const grown = join(dir, 'lo-grown.xlsx');
    const wb = openFileWorkbook(input);
    expect((await wb.findTable('tbl_risk'))!.rowCount).toBe(10);
    await wb.writeRows('tbl_risk', 0, Array.from({ length: 30 }, (_, i) => [`N-${i}`, `n${i}`, 'IT', i]));
    wb.saveTo(grown);
    wb.close();
    const shrunk = join(dir, 'lo-shrunk.xlsx');
    const again = openFileWorkbook(grown);
    expect((await again.findTable('tbl_risk'))!.rowCount).toBe(30);
    await again.writeRows('tbl_risk', 0, Array.from({ length: 4 }, (_, i) => [`S-${i}`, `s${i}`, 'HR', 100 + i]));
    await again.setRowCount('tbl_risk', 4);
    again.saveTo(shrunk);
    again.close();
    const grownRows = libreOfficeSheets(grown).get('Risks')!;
    expect(grownRows.length).toBe(32);
    expect(grownRows[31]).toEqual(['Total', '30', '', '435', '550']);
    const shrunkRows = libreOfficeSheets(shrunk).get('Risks')!;
    // The user's scores stay with the first rows; the custom total SUM(E2:E11) now ends at the last body row.
    expect(shrunkRows).toEqual([['Identifier', 'Name', 'Organization', 'GrossImpact', 'My score'], ...[0, 1, 2, 3].map((i) => [`S-${i}`, `s${i}`, 'HR', String(100 + i), String(10 * (i + 1))]), ['Total', '4', '', '406', '100']]);
    const part = openpyxl<{ ref: string; filter: string }>(shrunk, "t = load_workbook(sys.argv[1])['Risks'].tables['tbl_risk']\nprint(json.dumps({'ref': t.ref, 'filter': t.autoFilter.ref}))");
    expect(part).toEqual({ ref: 'A1:E6', filter: 'A1:E5' });
  });

  it('refuses, before writing anything, a total row whose formula is shared from the body, naming the cell', async () => {
    const made = withTotals('totals-shared-made.xlsx', 2);
    const input = join(dir, 'totals-shared.xlsx');
    // What Excel writes for a formula filled down from the body into the total row (openpyxl writes no shared formulas).
    execFileSync('/usr/bin/python3', ['-c', `import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as zin, zipfile.ZipFile(sys.argv[2], 'w') as zout:
    for i in zin.infolist():
        data = zin.read(i)
        if i.filename == 'xl/worksheets/sheet1.xml':
            text = data.decode()
            text = text.replace('<c r="B2" t="n"><v>0</v></c>', '<c r="B2" t="n"><f t="shared" ref="B2:B4" si="0">ROW()</f><v>2</v></c>')
            text = text.replace('<f>SUBTOTAL(109,tbl[b])</f>', '<f t="shared" si="0"/>')
            assert text.count('si="0"') == 2
            data = text.encode()
        zout.writestr(i, data)`, made, input]);
    const output = join(dir, 'totals-shared-out.xlsx');
    const wb = openFileWorkbook(input);
    await wb.writeRows('tbl', 0, [['n0', 1, 2], ['n1', 3, 4], ['n2', 5, 6]]);
    const error = (() => {
      try {
        wb.saveTo(output);
        return null;
      } catch (e) {
        return e;
      }
    })();
    wb.close();
    expect(isFileProblem(error) && [error.code, error.message]).toEqual(['unsupported', expect.stringMatching(/total row of table tbl cannot be moved: Data!B4 shares its formula/)]);
    expect(existsSync(output)).toBe(false);
  });

  it('gives a column added to a table with a total row an empty total cell, and counts the total row as the table\'s', async () => {
    const blocked = withTotals('totals-beside.xlsx', 2, "ws['D4'] = 'beside the total'");
    const wb = openFileWorkbook(blocked);
    const error = await wb.addColumns('tbl', [{ name: 'd', format: 'text' }]).catch((e: unknown) => e);
    wb.close();
    expect(isWorkbookError(error) && error.message).toMatch(/Data!D4 and the cells beside the table hold data/);

    const input = withTotals('totals-column.xlsx', 2);
    const output = join(dir, 'totals-column-out.xlsx');
    const book2 = openFileWorkbook(input);
    await book2.addColumns('tbl', [{ name: 'd', format: 'text' }]);
    await book2.writeRows('tbl', 0, [['n0', 1, 2, 'd0'], ['n1', 3, 4, 'd1'], ['n2', 5, 6, 'd2']]);
    book2.saveTo(output);
    book2.close();
    const seen = tableOf(output);
    expect([seen.ref, seen.filter]).toEqual(['A1:D5', 'A1:D4']);
    expect(seen.rows[4]).toEqual(['Total', '=SUBTOTAL(109,tbl[b])', '=SUM(C2:C4)', null]);
  });
});
