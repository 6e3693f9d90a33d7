import { cellAddress } from '../address';
import { WorkbookError } from '../errors';
import type { TableShape } from '../port';
import type { Ctx } from './context';

/** A table found in the workbook, with the positions the other parts of the adapter write by. */
export interface Located {
  table: Excel.Table;
  /** Excel's `Table.id`: stays when the user renames the table. */
  id?: string;
  sheet: Excel.Worksheet;
  sheetName: string;
  name: string;
  /** Header row and first column, 0-based sheet positions. */
  row: number;
  col: number;
  columns: string[];
  /** Body rows as the port counts them: an empty table's single blank row counts as 0. */
  rowCount: number;
}

export async function locate(ctx: Ctx, name: string): Promise<Located> {
  const table = ctx.workbook.tables.getItemOrNullObject(name);
  table.load('isNullObject');
  await ctx.sync();
  if (table.isNullObject) throw new WorkbookError('table-not-found', `There is no table named ${name} in this workbook.`);
  return describe(ctx, [table]).then((all) => all[0]!);
}

export async function describe(ctx: Ctx, tables: Excel.Table[]): Promise<Located[]> {
  const parts = tables.map((table) => {
    const sheet = table.worksheet;
    const header = table.getHeaderRowRange();
    const body = table.getDataBodyRange();
    table.load('name,id');
    sheet.load('name');
    header.load('values,rowIndex,columnIndex');
    body.load('rowCount');
    return { table, sheet, header, body };
  });
  await ctx.sync();
  // Excel keeps one blank body row in a table without data; it is not a row of data.
  const single = parts.filter((p) => p.body.rowCount === 1).map((p) => ({ p, first: p.body.load('values') }));
  if (single.length) await ctx.sync();
  const blank = new Set(single.filter(({ first }) => first.values[0]!.every((v) => v === '' || v === null)).map(({ p }) => p));
  return parts.map((p) => ({
    table: p.table,
    sheet: p.sheet,
    sheetName: p.sheet.name,
    id: p.table.id,
    name: p.table.name,
    row: p.header.rowIndex,
    col: p.header.columnIndex,
    columns: (p.header.values[0] ?? []).map(String),
    rowCount: blank.has(p) ? 0 : p.body.rowCount,
  }));
}

export const shape = (t: Located): TableShape => ({
  ...(t.id ? { id: t.id } : {}),
  name: t.name,
  sheet: t.sheetName,
  topLeft: cellAddress(t.row, t.col),
  columns: t.columns,
  rowCount: t.rowCount,
});
