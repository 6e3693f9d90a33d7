import { createExcelWorkbook } from '../../../src/workbook/excel';
import { MARK_FILL } from '../../../src/workbook/excel/marks';
import type { Cell, ColumnSpec } from '../../../src/workbook/port';
import { FakeExcel, supports } from './fakeExcel';

const columns: ColumnSpec[] = [
  { name: 'Id', format: 'text' },
  { name: 'Score', format: 'number' },
  { name: 'Identified', format: 'date' },
  { name: 'Registered', format: 'datetime' },
];
const rows = (n: number, from = 0): Cell[][] =>
  Array.from({ length: n }, (_, i) => [`ID-${from + i} ${'d'.repeat(100)}`, from + i, 45000 + i, 45000.5, ].slice(0, 4));

function setup(minor = 18, web = false, maxBytes?: number) {
  const xl = new FakeExcel({ web });
  const wb = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(minor, web), { platform: web ? 'OfficeOnline' : 'PC', maxBytes });
  return { xl, wb };
}

describe('Excel adapter', () => {
  it('creates a table over a header row, with number formats per column', async () => {
    const { xl, wb } = setup();
    const t = await wb.createTable({ name: 'tbl_risk', sheet: 'Sheet1', anchor: 'B2', columns });
    expect(t).toEqual({ id: '{1}', name: 'tbl_risk', sheet: 'Sheet1', topLeft: 'B2', columns: ['Id', 'Score', 'Identified', 'Registered'], rowCount: 0 });
    expect(xl.header('tbl_risk')).toEqual(['Id', 'Score', 'Identified', 'Registered']);
    expect(['B3', 'C3', 'D3', 'E3'].map((a) => xl.peek('Sheet1', a)!.format)).toEqual(['@', 'General', 'yyyy-mm-dd', 'yyyy-mm-dd hh:mm']);
    expect(await wb.findTable('TBL_RISK')).toMatchObject({ rowCount: 0 });
  });

  it('makes a wide table in a few round trips, not one per column', async () => {
    const { xl, wb } = setup();
    const wide: ColumnSpec[] = Array.from({ length: 40 }, (_, i) => ({ name: `c${i}`, format: i % 2 ? 'date' : 'text' }));
    await wb.createTable({ name: 'wide', sheet: 'Sheet1', anchor: 'A1', columns: wide });
    expect(xl.syncBytes.length).toBeLessThanOrEqual(3);
    expect(xl.peek('Sheet1', 'AN2')!.format).toBe('yyyy-mm-dd');
  });

  it('writes big data in chunks under the payload limit, one sync each, formats before values', async () => {
    const { xl, wb } = setup(18, false, 200_000);
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    xl.syncBytes = [];
    const data = rows(10_000);
    const stats = await wb.writeRows('t', 0, data);
    expect(stats.syncs).toBeGreaterThan(5);
    expect(Math.max(...xl.syncBytes)).toBeLessThanOrEqual(200_000);
    expect(stats.maxPayloadBytes).toBeLessThanOrEqual(200_000);
    expect(Math.max(...xl.syncBytes)).toBeLessThanOrEqual(stats.maxPayloadBytes);
    expect(xl.calculationSuspensions).toBeGreaterThanOrEqual(stats.syncs - 2);
    expect(xl.body('t')).toHaveLength(10_000);
    expect(xl.body('t')[9_999]).toEqual(data[9_999]);
    expect(xl.peek('Sheet1', 'C10001')!.format).toBe('yyyy-mm-dd');
    expect((await wb.findTable('t'))!.rowCount).toBe(10_000);
  });

  it('writes formula-looking text as text and null as an empty cell', async () => {
    const { xl, wb } = setup();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    await wb.writeRows('t', 0, [['=HYPERLINK("http://x")', 1, null, null], ['+31 20 555', 2, null, null], ['@mention', 3, null, null]]);
    for (const a of ['A2', 'A3', 'A4']) expect(xl.peek('Sheet1', a)).toMatchObject({ formula: false, format: '@' });
    await wb.writeRows('t', 0, [['x', null, 45000, null]]);
    expect(xl.body('t')[0]).toEqual(['x', '', 45000, '']);
    expect((await wb.readRows('t', 0, 1)).rows).toEqual([['x', null, 45000, null]]);
  });

  it.each([
    ['with table.resize (ExcelApi 1.13)', 13, false],
    ['without resize (rows.add, range delete)', 12, false],
    ['on the web (deleteRowsAt)', 18, true],
  ])('grows and shrinks a table %s, keeping the user column and cells to the right', async (_label, minor, web) => {
    const { xl, wb } = setup(minor, web);
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    await wb.writeRows('t', 0, rows(5));
    xl.addUserColumn('t', 'Mine', '=[@Score]*2');
    xl.cell(xl.sheet('Sheet1'), 0, 8).value = 'outside';
    await wb.writeRows('t', 0, rows(12, 100));
    let t = await wb.findTable('t');
    expect(t).toMatchObject({ rowCount: 12, columns: ['Id', 'Score', 'Identified', 'Registered', 'Mine'] });
    expect(xl.body('t')[0]![4]).toBe('=[@Score]*2');
    expect(xl.body('t')[11]![1]).toBe(111);
    await wb.setRowCount('t', 3);
    t = await wb.findTable('t');
    expect(t!.rowCount).toBe(3);
    expect(xl.body('t').map((r) => r[1])).toEqual([100, 101, 102]);
    expect(xl.body('t')[2]![4]).toBe('=[@Score]*2');
    expect(xl.peek('Sheet1', 'I1')!.value).toBe('outside');
    expect(xl.peek('Sheet1', 'B6')?.value ?? '').toBe('');
    await wb.setRowCount('t', 0);
    expect(await wb.findTable('t')).toMatchObject({ rowCount: 0 });
  });

  it('round-trips settings as JSON text', async () => {
    const { xl, wb } = setup();
    expect(await wb.getSetting('k')).toBeUndefined();
    await wb.setSetting('k', { a: [1, 'two'], b: null });
    expect(typeof xl.settings.get('k')).toBe('string');
    expect(await wb.getSetting('k')).toEqual({ a: [1, 'two'], b: null });
    await wb.setSetting('k', undefined);
    expect(xl.settings.has('k')).toBe(false);
  });

  it('puts dropdown values on a hidden lookup sheet and validates the column against them', async () => {
    const { xl, wb } = setup();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Status', format: 'text', list: { sheet: 'Lists', values: ['Open', 'Closed'] } }] });
    expect(xl.sheet('Lists').visibility).toBe('Hidden');
    expect(['A1', 'A2', 'A3'].map((a) => xl.peek('Lists', a)!.value)).toEqual(['Status', 'Open', 'Closed']);
    expect(xl.peek('Sheet1', 'A2')!.validation).toBe("='Lists'!$A$2:$A$3");
    expect(xl.peek('Sheet1', 'A2')!.validationAlert).toBe(true);
  });

  describe('a lookup sheet already holding many lists', () => {
    function withLists(count: number) {
      const { xl, wb } = setup();
      const sheet = { name: 'Lists', visibility: 'Hidden', cells: new Map() };
      xl.sheets.push(sheet as (typeof xl.sheets)[number]);
      for (let c = 0; c < count; c++) xl.cell(xl.sheet('Lists'), 0, c).value = `List ${c}`;
      const table = () =>
        wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Status', format: 'text', list: { sheet: 'Lists', values: ['Open'] } }] });
      return { xl, table };
    }

    it('puts a new list in the next free column past the first 200, never over the first list', async () => {
      const { xl, table } = withLists(300);
      await table();
      expect(xl.peek('Lists', 'A1')!.value).toBe('List 0');
      // Column 301 (index 300) is KO.
      expect(xl.peek('Lists', 'KO1')!.value).toBe('Status');
      expect(xl.peek('Sheet1', 'A2')!.validation).toBe("='Lists'!$KO$2");
    });

    it('rewrites a list of the same name in place, wherever it is', async () => {
      const { xl, table } = withLists(300);
      xl.cell(xl.sheet('Lists'), 0, 280).value = 'Status';
      await table();
      expect(xl.peek('Lists', 'JU1')!.value).toBe('Status');
      expect(xl.peek('Sheet1', 'A2')!.validation).toBe("='Lists'!$JU$2");
      expect(xl.peek('Lists', 'KO1')).toBeUndefined();
    });

    it('refuses with a workbook error when every column of the sheet holds a list', async () => {
      const { xl, table } = withLists(16_384);
      await expect(table()).rejects.toMatchObject({ name: 'WorkbookError', code: 'overlap', message: expect.stringContaining('no free column') });
      expect(xl.peek('Lists', 'A1')!.value).toBe('List 0');
    });
  });

  it('offers a list that accepts other values (several choices) by turning its error alert off', async () => {
    const { xl, wb } = setup();
    const list = (allowOther: boolean) => ({ sheet: 'Lists', values: ['Fraud', 'Outage'], allowOther });
    await wb.createTable({
      name: 't',
      sheet: 'Sheet1',
      anchor: 'A1',
      columns: [
        { name: 'Types', format: 'text', list: list(true) },
        { name: 'Kind', format: 'text', list: list(false) },
      ],
    });
    expect(xl.peek('Sheet1', 'A2')).toMatchObject({ validation: "='Lists'!$A$2:$A$3", validationAlert: false });
    expect(xl.peek('Sheet1', 'B2')).toMatchObject({ validation: "='Lists'!$B$2:$B$3", validationAlert: true });
  });

  it('marks cells with a fill and a note, and falls back to comments before ExcelApi 1.18', async () => {
    const { xl, wb } = setup(18);
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    await wb.writeRows('t', 0, rows(2));
    await wb.markCells('t', [{ row: 1, column: 'Score', kind: 'error', note: 'Score must be 1 to 5' }]);
    expect(xl.peek('Sheet1', 'B3')!.fill).toBe(MARK_FILL.error);
    expect(xl.notes.get('Sheet1!B3')).toBe('Score must be 1 to 5');
    await wb.markCells('t', [{ row: 1, column: 'Score', kind: 'ok', note: 'Posted' }]);
    expect(xl.notes.get('Sheet1!B3')).toBe('Posted');
    await wb.markCells('t', [{ row: 1, column: 'Score', kind: 'none' }]);
    expect(xl.peek('Sheet1', 'B3')!.fill).toBeUndefined();
    expect(xl.notes.has('Sheet1!B3')).toBe(false);

    const old = setup(10);
    await old.wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    expect(old.wb.capabilities.notes).toBe(false);
    await old.wb.markCells('t', [{ row: 0, column: 'Id', kind: 'warning', note: 'Check' }]);
    expect(old.xl.comments.get('Sheet1!A2')).toBe('Check');
    expect(old.xl.peek('Sheet1', 'A2')!.fill).toBe(MARK_FILL.warning);
  });

  it('adds columns at the right end with their format, and removes a table with its cells', async () => {
    const { xl, wb } = setup();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    await wb.writeRows('t', 0, rows(3));
    const t = await wb.addColumns('t', [{ name: 'Closed', format: 'date' }]);
    expect(t.columns.at(-1)).toBe('Closed');
    expect(xl.peek('Sheet1', 'E4')!.format).toBe('yyyy-mm-dd');
    await wb.deleteTable('t');
    expect(await wb.listTables()).toEqual([]);
    expect(xl.peek('Sheet1', 'A2')).toBeUndefined();
  });

  it('a column the add-in keeps for itself is made hidden and narrow with a note on its header; comments stand in below notes', async () => {
    const own: ColumnSpec = { name: 'Key', format: 'text', hidden: true, width: 24, headerNote: 'Do not edit.' };
    const { xl, wb } = setup();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'B2', columns: [...columns, own] });
    expect(xl.sheets[0]!.columns?.get(5)).toEqual({ hidden: true, width: 24 });
    expect(xl.sheets[0]!.columns?.get(1)).toBeUndefined();
    expect(xl.notes.get('Sheet1!F2')).toBe('Do not edit.');

    const added = setup(10);
    await added.wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns });
    await added.wb.writeRows('t', 0, rows(3));
    await added.wb.addColumns('t', [own]);
    expect(added.xl.sheets[0]!.columns?.get(4)).toEqual({ hidden: true, width: 24 });
    expect(added.xl.comments.get('Sheet1!E1')).toBe('Do not edit.');
    expect(added.xl.notes.size).toBe(0);
    expect(added.xl.peek('Sheet1', 'E4')!.format).toBe('@');

    const noted = setup();
    noted.xl.notes.set('Sheet1!B1', "The user's own note");
    await noted.wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [columns[0]!] });
    await noted.wb.addColumns('t', [own]);
    expect((await noted.wb.findTable('t'))!.columns).toEqual(['Id', 'Key']);
    expect(noted.xl.notes.get('Sheet1!B1')).toBe("The user's own note");
    expect(noted.xl.sheets[0]!.columns?.get(1)).toEqual({ hidden: true, width: 24 });
  });

  it('adds sheets with unique names, reads the selection, and reports host errors as WorkbookError', async () => {
    const { xl, wb } = setup();
    expect(await wb.addSheet('Sheet1', { activate: true })).toBe('Sheet1_2');
    expect(await wb.selection()).toEqual({ sheet: 'Sheet1_2', address: 'A1' });
    xl.selection = { sheet: 'Sheet1', address: 'C5:D9' };
    expect(await wb.selection()).toEqual({ sheet: 'Sheet1', address: 'C5' });
    await wb.createTable({ name: 'a', sheet: 'Sheet1', anchor: 'A1', columns });
    await expect(wb.createTable({ name: 'b', sheet: 'Sheet1', anchor: 'B1', columns })).rejects.toMatchObject({ name: 'WorkbookError', code: 'host' });
    await expect(wb.writeRows('nope', 0, [[1]])).rejects.toMatchObject({ code: 'table-not-found' });
  });

  it('selects a cell on its sheet (where a problem points), and refuses a sheet that is not there', async () => {
    const { xl, wb } = setup();
    await wb.addSheet('Data');
    await wb.select('Data', 'C7');
    expect(xl.selection).toEqual({ sheet: 'Data', address: 'C7' });
    expect(await wb.selection()).toEqual({ sheet: 'Data', address: 'C7' });
    await expect(wb.select('Nowhere', 'A1')).rejects.toMatchObject({ code: 'sheet-not-found' });
  });

  it('on the desktop, shrinking clears formats, fills, notes and validation below the table, not only values', async () => {
    const { xl, wb } = setup(18, false);
    const withList: ColumnSpec[] = [...columns, { name: 'Status', format: 'text', list: { sheet: 'Lists', values: ['Open', 'Closed'] } }];
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: withList });
    await wb.writeRows('t', 0, rows(5).map((r) => [...r, 'Open']));
    await wb.markCells('t', [{ row: 4, column: 'Score', kind: 'error', note: 'Score must be 1 to 5' }]);
    expect(xl.peek('Sheet1', 'E6')!.validation).toBeDefined();
    await wb.setRowCount('t', 2);
    expect((await wb.findTable('t'))!.rowCount).toBe(2);
    for (const a of ['A6', 'B6', 'C6', 'E6', 'E4']) expect(xl.peek('Sheet1', a)).toBeUndefined();
    expect(xl.notes.has('Sheet1!B6')).toBe(false);
    expect(xl.peek('Sheet1', 'E3')!.validation).toBeDefined();
    expect(xl.peek('Sheet1', 'C3')!.format).toBe('yyyy-mm-dd');
  });
});
