import { createMemoryWorkbook } from '../../src/workbook/memory';

describe('memory workbook', () => {
  it('derives unique sheet names and makes hidden sheets', async () => {
    const wb = createMemoryWorkbook();
    expect(await wb.addSheet('Risks')).toBe('Risks');
    expect(await wb.addSheet('risks')).toBe('risks_2');
    expect(await wb.addSheet('a/b:c', { hidden: true })).toBe('a_b_c');
    expect(wb.snapshot().sheets.find((s) => s.name === 'a_b_c')!.hidden).toBe(true);
  });

  it('creates a table with a header row, formats per column and no body', async () => {
    const wb = createMemoryWorkbook();
    const t = await wb.createTable({ name: 'tbl_x', sheet: 'Sheet1', anchor: 'B3', columns: [{ name: 'Name', format: 'text' }, { name: 'When', format: 'date' }] });
    expect(t).toEqual({ id: '{mem-1}', name: 'tbl_x', sheet: 'Sheet1', topLeft: 'B3', columns: ['Name', 'When'], rowCount: 0 });
    expect(wb.snapshot().tables[0]!.numberFormats).toEqual(['@', 'yyyy-mm-dd']);
    await expect(wb.createTable({ name: 'TBL_X', sheet: 'Sheet1', anchor: 'H1', columns: [{ name: 'a', format: 'text' }] })).rejects.toThrow(/already exists/);
    await expect(wb.createTable({ name: 'other', sheet: 'Sheet1', anchor: 'C3', columns: [{ name: 'a', format: 'text' }] })).rejects.toMatchObject({ code: 'overlap' });
  });

  it('writes in planned chunks, reports syncs and payload, and notifies per chunk', async () => {
    const wb = createMemoryWorkbook({ maxBytes: 50_000 });
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'n', format: 'number' }, { name: 's', format: 'text' }] });
    let notified = 0;
    const seen: number[] = [];
    const off = wb.subscribe(() => {
      notified++;
      seen.push(wb.snapshot().tables[0]!.rowCount);
    });
    const rows = Array.from({ length: 5000 }, (_, i) => [i, `row ${i} ${'z'.repeat(40)}`]);
    const stats = await wb.writeRows('t', 0, rows);
    off();
    expect(stats.syncs).toBeGreaterThan(3);
    expect(stats.maxPayloadBytes).toBeLessThanOrEqual(50_000);
    expect(notified).toBe(stats.syncs);
    expect(seen[0]).toBeLessThan(5000);
    expect((await wb.readRows('t', 4999, 1)).rows).toEqual([[4999, rows[4999]![1]]]);
  });

  it('keeps calculated columns on growth and shrink, and stores formulas unevaluated', async () => {
    const wb = createMemoryWorkbook();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'n', format: 'number' }] });
    await wb.writeRows('t', 0, [[1], [2]]);
    await wb.addColumns('t', [{ name: 'Double', format: 'general', formula: '=[@n]*2' }]);
    await wb.writeRows('t', 2, [[3]]);
    expect((await wb.readRows('t')).rows).toEqual([[1, '=[@n]*2'], [2, '=[@n]*2'], [3, '=[@n]*2']]);
    await wb.setRowCount('t', 1);
    expect((await wb.readRows('t')).rows).toEqual([[1, '=[@n]*2']]);
  });

  it('puts dropdown values on a hidden lookup sheet', async () => {
    const wb = createMemoryWorkbook();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Status', format: 'text', list: { sheet: 'Lists', values: ['Open', 'Closed'] } }] });
    const lists = wb.snapshot().sheets.find((s) => s.name === 'Lists')!;
    expect(lists.hidden).toBe(true);
    expect(lists.cells).toEqual({ A1: 'Status', A2: 'Open', A3: 'Closed' });
  });

  it('keeps whether a dropdown accepts other values, and stores what is typed as it is', async () => {
    const wb = createMemoryWorkbook();
    const list = { sheet: 'Lists', values: ['Fraud', 'Outage'], allowOther: true };
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Types', format: 'text', list }] });
    await wb.writeRows('t', 0, [['Fraud; Outage']]);
    expect(wb.snapshot().tables[0]!.specs[0]!.list).toEqual(list);
    expect((await wb.readRows('t')).rows).toEqual([['Fraud; Outage']]);
    expect(wb.snapshot().sheets.find((s) => s.name === 'Lists')!.cells).toEqual({ A1: 'Types', A2: 'Fraud', A3: 'Outage' });
  });

  it('marks cells, clears marks with kind none, and round-trips settings as JSON', async () => {
    const wb = createMemoryWorkbook();
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'a', format: 'text' }] });
    await wb.markCells('t', [{ row: 0, column: 'a', kind: 'error', note: 'Name is required' }]);
    expect(wb.snapshot().tables[0]!.marks).toEqual([{ row: 0, column: 'a', kind: 'error', note: 'Name is required' }]);
    await wb.markCells('t', [{ row: 0, column: 'a', kind: 'none' }]);
    expect(wb.snapshot().tables[0]!.marks).toEqual([]);
    const when = new Date(0);
    await wb.setSetting('k', { when, list: [1, 'b'] });
    expect(await wb.getSetting('k')).toEqual({ when: when.toISOString(), list: [1, 'b'] });
  });

  it('hands out the same snapshot until something changes', async () => {
    const wb = createMemoryWorkbook();
    const a = wb.snapshot();
    expect(wb.snapshot()).toBe(a);
    await wb.addSheet('Two');
    expect(wb.snapshot()).not.toBe(a);
    expect(wb.snapshot().version).toBeGreaterThan(a.version);
  });
});

test("select counts as a request to show the cell (Excel's Range.select scrolls to it); a sheet a load activates does not", async () => {
  const wb = createMemoryWorkbook();
  const before = wb.snapshot().selects;
  await wb.addSheet('Risks', { activate: true });
  expect(wb.snapshot()).toMatchObject({ selection: { sheet: 'Risks', address: 'A1' }, selects: before });
  await wb.select('Risks', 'AB2');
  await wb.select('Risks', 'AB2');
  expect(wb.snapshot()).toMatchObject({ selection: { sheet: 'Risks', address: 'AB2' }, selects: before + 2 });
});

describe('writeRows with a column per cell', () => {
  it('puts each cell in its column and leaves the columns between as they were', async () => {
    const { createMemoryWorkbook } = await import('../../src/workbook/memory');
    const wb = createMemoryWorkbook();
    const sheet = await wb.addSheet('S');
    await wb.createTable({ name: 't', sheet, anchor: 'A1', columns: ['a', 'note', 'b', 'c'].map((name) => ({ name, format: 'general' as const })) });
    await wb.writeRows('t', 0, [[1, 'mine', 2, 3], [4, 'kept', 5, 6]]);
    await wb.writeRows('t', 0, [['x', 'y', 'z'], ['u', 'v', 'w']], [0, 2, 3]);
    expect((await wb.readRows('t')).rows).toEqual([['x', 'mine', 'y', 'z'], ['u', 'kept', 'v', 'w']]);
  });
});
