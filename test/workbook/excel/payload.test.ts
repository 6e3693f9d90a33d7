import { createExcelWorkbook } from '../../../src/workbook/excel';
import { MARK_FILL } from '../../../src/workbook/excel/marks';
import type { Cell, CellMark, ColumnSpec } from '../../../src/workbook/port';
import { FakeExcel, PAYLOAD_LIMIT_BYTES, supports } from './fakeExcel';

/** What we aim for under Excel on the web's 5 MB limit (docs/workbook.md). */
const AIM = 4_000_000;
const ROWS = 20_000;
const COLS = 30;

const columns: ColumnSpec[] = Array.from({ length: COLS }, (_, c) => ({ name: `Field ${c}`, format: 'text' }));
const data: Cell[][] = Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLS }, (_, c) => `row ${r} column ${c} value`));

describe('every request and response fits Excel on the web', () => {
  const xl = new FakeExcel({ web: true });
  const wb = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18, true), { platform: 'OfficeOnline' });

  beforeAll(async () => {
    await wb.createTable({ name: 'big', sheet: 'Sheet1', anchor: 'A1', columns });
    await wb.writeRows('big', 0, data);
  });

  const fits = (from: number) => {
    const seen = xl.payloads.slice(from);
    expect(seen.filter((p) => p.refused)).toEqual([]);
    for (const p of seen) {
      expect(p.request).toBeLessThanOrEqual(AIM);
      expect(p.response).toBeLessThanOrEqual(AIM);
    }
    return seen;
  };

  it('wrote the 20,000 x 30 table in requests under the aim', () => {
    const writes = fits(0);
    expect(writes.filter((p) => p.request > 1_000_000).length).toBeGreaterThanOrEqual(5);
  });

  it('the fake refuses a sync over 5 MB either way, as Excel does', async () => {
    const from = xl.payloads.length;
    await expect(
      xl.run(async (ctx) => {
        const t = ctx.workbook.tables.getItemOrNullObject('big');
        t.getDataBodyRange().load('values');
        await ctx.sync();
      }),
    ).rejects.toMatchObject({ code: 'ResponsePayloadSizeLimitExceeded' });
    await expect(
      xl.run(async (ctx) => {
        ctx.workbook.worksheets.getItem('Sheet1').getRangeByIndexes(1, 0, ROWS, COLS).values = data as string[][];
        await ctx.sync();
      }),
    ).rejects.toMatchObject({ code: 'RequestPayloadSizeLimitExceeded' });
    const refused = xl.payloads.slice(from);
    expect(refused.map((p) => p.refused)).toEqual(['response', 'request']);
    expect(refused[0]!.response).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(refused[1]!.request).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
  });

  it('reads the whole table back in windows whose responses stay under the aim', async () => {
    const from = xl.payloads.length;
    const read = await wb.readRows('big');
    expect(read.rows).toHaveLength(ROWS);
    expect(read.rows[0]).toEqual(data[0]);
    expect(read.rows[ROWS - 1]).toEqual(data[ROWS - 1]);
    expect(read.rows[12_345]).toEqual(data[12_345]);
    const syncs = fits(from);
    // The whole table is about 21 MB of JSON: it took several responses, each a good part of the budget.
    expect(syncs.filter((p) => p.response > 1_000_000).length).toBeGreaterThanOrEqual(5);
  });

  it('reads a window further down that has longer rows by halving it when Excel refuses', async () => {
    const long = new FakeExcel({ web: true });
    const w = createExcelWorkbook(long.run as unknown as typeof Excel.run, supports(18, true), { platform: 'OfficeOnline' });
    await w.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: columns.slice(0, 4) });
    const rows: Cell[][] = Array.from({ length: 400 }, (_, r) => Array.from({ length: 4 }, () => (r < 256 ? 'x' : 'y'.repeat(10_000))));
    await w.writeRows('t', 0, rows);
    const from = long.payloads.length;
    expect((await w.readRows('t')).rows).toEqual(rows);
    expect(long.payloads.slice(from).every((p) => p.refused || p.response <= PAYLOAD_LIMIT_BYTES)).toBe(true);
  });

  it('marks every row (fill and note on two cells each) in requests under the aim', async () => {
    const marks: CellMark[] = [];
    for (let r = 0; r < ROWS; r++) {
      marks.push({ row: r, column: 'Field 3', kind: 'error', note: `Row ${r}: Field 3 must be one of the organisations listed on the Lists sheet.` });
      marks.push({ row: r, column: 'Field 17', kind: 'warning', note: `Row ${r}: check this value.` });
    }
    const from = xl.payloads.length;
    await wb.markCells('big', marks);
    const syncs = fits(from);
    expect(syncs.filter((p) => p.request > 1_000_000).length).toBeGreaterThanOrEqual(3);
    expect(xl.notes.size).toBe(2 * ROWS);
    expect(xl.peek('Sheet1', 'D2')!.fill).toBe(MARK_FILL.error);
    expect(xl.peek('Sheet1', `R${ROWS + 1}`)!.fill).toBe(MARK_FILL.warning);
    expect(xl.notes.get(`Sheet1!D${ROWS + 1}`)).toBe(`Row ${ROWS - 1}: Field 3 must be one of the organisations listed on the Lists sheet.`);

    // Clearing them all (the next validation found nothing) fits too.
    const again = xl.payloads.length;
    await wb.markCells('big', marks.map((m) => ({ row: m.row, column: m.column, kind: 'none' as const })));
    fits(again);
    expect(xl.notes.size).toBe(0);
    expect(xl.peek('Sheet1', 'D2')!.fill).toBeUndefined();
  });
});
