import { MAX_COLUMNS, MAX_ROWS, parseCell } from '../address';
import { WorkbookError } from '../errors';
import type { TargetInfo } from '../port';
import type { Ctx, Host } from './context';
import { describe } from './locate';

/**
 * What lies at sheet!anchor and below it, `width` columns wide: the sheet's protection (ExcelApi 1.2), the
 * non-empty cells there (getUsedRangeOrNullObject, 1.4), the tables in the way, and the defined names that
 * share the tables' namespace. One round trip for all but the tables' positions.
 */
export async function inspectTarget(ctx: Ctx, host: Host, sheet: string, anchor: string, width: number): Promise<TargetInfo> {
  const ws = ctx.workbook.worksheets.getItemOrNullObject(sheet);
  ws.load('isNullObject');
  await ctx.sync();
  if (ws.isNullObject) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
  const { row, col } = parseCell(anchor);
  const cols = Math.max(1, Math.min(width, MAX_COLUMNS - col));
  const protection = host.has('1.2') ? ws.protection.load('protected') : null;
  const used = host.has('1.4') ? ws.getRangeByIndexes(row, col, MAX_ROWS - row, cols).getUsedRangeOrNullObject(true).load('address,isNullObject') : null;
  const names = ctx.workbook.names.load('items/name');
  const tables = ctx.workbook.tables.load('items/name');
  await ctx.sync();
  const located = await describe(ctx, tables.items);
  const blocking = located.filter(
    (t) => t.sheetName.toLowerCase() === sheet.toLowerCase() && t.col < col + cols && col < t.col + t.columns.length && t.row + Math.max(t.rowCount, 1) >= row,
  );
  return {
    protected: protection?.protected ?? false,
    used: used && !used.isNullObject ? used.address.slice(used.address.lastIndexOf('!') + 1).replace(/\$/g, '') : null,
    tables: blocking.map((t) => t.name),
    names: names.items.map((n) => n.name),
  };
}
