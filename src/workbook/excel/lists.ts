import { quoteSheet, rangeAddress } from '../address';
import { WorkbookError } from '../errors';
import type { ColumnSpec } from '../port';
import type { Ctx } from './context';

const LOOKUP_HEADER_ROW = 0;
/** Header cells of the lookup sheet read per round trip; one window holds the lists of most templates. */
const LOOKUP_WINDOW = 256;
/** Columns of an Excel sheet (A to XFD). */
const EXCEL_COLUMNS = 16_384;

/**
 * The lookup sheet's column for a list: the one headed by its name (the list is rewritten), else the
 * first one with a blank header. Lists are added left to right, so the header row is read a window at a
 * time until a window ends blank: a sheet with many lists never has its first list overwritten, and a
 * sheet whose every column holds a list is refused.
 */
async function lookupColumn(ctx: Ctx, lookup: Excel.Worksheet, sheet: string, name: string): Promise<number> {
  let free = -1;
  for (let start = 0; start < EXCEL_COLUMNS; start += LOOKUP_WINDOW) {
    const headers = lookup.getRangeByIndexes(LOOKUP_HEADER_ROW, start, 1, Math.min(LOOKUP_WINDOW, EXCEL_COLUMNS - start));
    headers.load('values');
    await ctx.sync();
    const row = headers.values[0]!;
    const named = row.findIndex((v) => v === name);
    if (named >= 0) return start + named;
    const blank = row.findIndex((v) => v === '' || v === null);
    if (free < 0 && blank >= 0) free = start + blank;
    const last = row[row.length - 1];
    if (last === '' || last === null) break;
  }
  if (free < 0)
    throw new WorkbookError(
      'overlap',
      `The sheet ${sheet} has no free column for the dropdown list of ${name}: every column holds a list. Clear the lists no table uses (their header in row 1 and the values below it), then try again.`,
    );
  return free;
}

/** The list of a dropdown on the lookup sheet (hidden, made when missing), as an absolute reference. */
export async function lookupSource(ctx: Ctx, spec: ColumnSpec & { list: NonNullable<ColumnSpec['list']> }): Promise<string> {
  let lookup = ctx.workbook.worksheets.getItemOrNullObject(spec.list.sheet);
  lookup.load('isNullObject');
  await ctx.sync();
  if (lookup.isNullObject) {
    lookup = ctx.workbook.worksheets.add(spec.list.sheet);
    lookup.visibility = 'Hidden';
  }
  const key = spec.list.key ?? spec.name;
  const col = await lookupColumn(ctx, lookup, spec.list.sheet, key);
  const values = [[key], ...spec.list.values.map((v) => [v])];
  const target = lookup.getRangeByIndexes(LOOKUP_HEADER_ROW, col, values.length, 1);
  target.numberFormat = values.map(() => ['@']);
  target.values = values;
  const first = rangeAddress(LOOKUP_HEADER_ROW + 1, col, Math.max(spec.list.values.length, 1), 1).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2');
  return `=${quoteSheet(spec.list.sheet)}!${first}`;
}
