import { columnLetters, parseCell, rangeAddress } from '../../workbook/address';
import type { TableShape, WorkbookPort } from '../../workbook/port';

/** Rows that hold values right under a template's table but are not part of it. */
export interface RowsBelow {
  table: string;
  /** Sheet row numbers as Excel shows them: the first and the last row holding a value. */
  firstRow: number;
  lastRow: number;
  /** The area the table would cover with them, e.g. "A1:K5". */
  stretched: string;
}

/**
 * Values in the template's columns starting in the row right under its table: what a script writes when it
 * appends rows without stretching the table (openpyxl writes cells; the table's range stays). Only Excel
 * grows a table over a row typed under it, so outside Excel those rows are not read, and a post would send
 * the table's rows and leave them without a word. They are not taken in here: a row outside the table has no
 * row key and no result cells yet, and whether a block under a table is more rows or something else (notes,
 * a second list) is the person's call; stretching the table is one step and then every check applies.
 * Values further down, after an empty row, are something else under the table and are left alone.
 */
export async function rowsBelow(workbook: WorkbookPort, shape: TableShape): Promise<RowsBelow | null> {
  const { row, col } = parseCell(shape.topLeft);
  const next = row + 1 + Math.max(shape.rowCount, 1);
  const target = await workbook.inspectTarget(shape.sheet, `${columnLetters(col)}${next + 1}`, shape.columns.length);
  const used = target.used;
  if (!used) return null;
  const first = parseCell(used).row;
  if (first !== next) return null;
  const last = parseCell(used.split(':').at(-1)!).row;
  return { table: shape.name, firstRow: first + 1, lastRow: last + 1, stretched: rangeAddress(row, col, last - row + 1, shape.columns.length) };
}

export function rowsBelowMessage(b: RowsBelow): string {
  const n = b.lastRow - b.firstRow + 1;
  const rows = n === 1 ? `Row ${b.firstRow}` : `Rows ${b.firstRow} to ${b.lastRow}`;
  return (
    `${rows} under table ${b.table} hold${n === 1 ? 's' : ''} values but ${n === 1 ? 'is' : 'are'} not part of the table, so ${n === 1 ? 'it is' : 'they are'} not read. ` +
    `Stretch the table over ${n === 1 ? 'it' : 'them'} to ${b.stretched} (in Excel: Table Design > Resize Table; with openpyxl: ws.tables['${b.table}'].ref = '${b.stretched}'), then run again.`
  );
}
