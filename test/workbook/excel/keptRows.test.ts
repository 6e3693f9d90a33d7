import { createExcelWorkbook } from '../../../src/workbook/excel';
import { FakeExcel, PAYLOAD_LIMIT_BYTES, supports } from './fakeExcel';

/**
 * The fake Excel's `keptRows`, which the million-row benchmark relies on: rows past it are written through
 * the same checks (payload size, array shape) and counted, not kept, and reading them throws rather than
 * answer blanks; the rows above are kept as always.
 */
describe('a fake Excel that keeps only its first rows', () => {
  const setup = () => {
    const xl = new FakeExcel({ keptRows: 3 });
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC', maxBytes: 50_000 });
    return { xl, workbook };
  };

  it('keeps the rows above the limit, counts the ones below, and refuses to read them', async () => {
    const { xl, workbook } = setup();
    await workbook.createTable({ name: 'T', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Name', format: 'text' }, { name: 'Score', format: 'number' }] });
    const rows = Array.from({ length: 2_000 }, (_, i) => [`row ${i}`, i === 1_999 ? null : i]);
    await workbook.writeRows('T', 0, rows);
    expect(xl.table('T').body).toBe(2_000);
    expect([xl.peek('Sheet1', 'A2')?.value, xl.peek('Sheet1', 'B3')?.value]).toEqual(['row 0', 1]);
    expect(xl.peek('Sheet1', 'A4')).toBeUndefined();
    // Rows 4 to 2,001 of the sheet: 1,998 names and 1,997 scores (the last is empty).
    expect(xl.beyond).toEqual({ cells: 1_998 + 1_997, lastRow: 2_000, lastValues: ['row 1999', ''] });
    expect(Math.max(...xl.payloads.map((p) => p.request))).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    expect(xl.payloads.length).toBeGreaterThan(5);
    await expect(workbook.readRows('T')).rejects.toThrow(/keeps no cells from row 4 on/);
    // What the adapter reads to find and grow the table works on a table past the kept rows.
    expect(await workbook.findTable('T')).toMatchObject({ rowCount: 2_000 });
  });
});
