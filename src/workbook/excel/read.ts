import { chunkBudget, jsonBytes, REQUEST_OVERHEAD_BYTES } from '../chunks';
import type { Cell } from '../port';
import type { Ctx, Host } from './context';
import type { Located } from './locate';

/** Excel reads at most this many cells in one request. */
const MAX_READ_CELLS = 5_000_000;
/** Rows of the first window, read to measure the table's rows before sizing the others. */
const FIRST_WINDOW_ROWS = 256;

const tooBig = (e: unknown) => /PayloadSizeLimitExceeded/.test(String((e as { code?: unknown }).code));

/**
 * Body rows [offset, offset + count) of a table, empty cells read as null (see `scanBody`).
 */
export async function readBody(ctx: Ctx, host: Host, t: Located, offset: number, count: number | undefined): Promise<{ columns: string[]; rows: Cell[][] }> {
  const rows: Cell[][] = [];
  const n = Math.max(0, Math.min(t.rowCount - offset, count ?? t.rowCount));
  await scanBody(ctx, host, t, offset, n, (values) => rows.push(values));
  return { columns: t.columns, rows };
}

/**
 * Visits body rows [offset, offset + count) as they are read, each as a new array of cells (empty cells
 * null). A read's response counts against Excel on the web's 5 MB limit like a write's request, so the
 * rows are loaded in windows sized by the budget of the write planner: the first window is small, and
 * each next one is sized from the largest row seen so far. A window Excel still refuses as too big
 * (longer rows further down) is halved and read again; a single row too big is read in halves by columns.
 * With `wanted`, a window starts at the next wanted row and rows it does not accept are not visited.
 */
export async function scanBody(
  ctx: Ctx,
  host: Host,
  t: Located,
  offset: number,
  count: number,
  visit: (cells: Cell[], row: number) => void,
  wanted?: (row: number) => boolean,
): Promise<void> {
  const end = offset + count;
  const width = t.columns.length;
  const budget = chunkBudget(host.options) - REQUEST_OVERHEAD_BYTES;
  let window = Math.min(FIRST_WINDOW_ROWS, Math.floor(MAX_READ_CELLS / Math.max(width, 1)));
  let at = offset;
  while (at < end) {
    if (wanted && !wanted(at)) {
      at++;
      continue;
    }
    const take = Math.max(1, Math.min(window, end - at));
    let values: unknown[][];
    try {
      values = await loadValues(ctx, t.sheet, t.row + 1 + at, t.col, take, width);
    } catch (e) {
      if (!tooBig(e) || take === 1) throw e;
      window = Math.ceil(take / 2);
      continue;
    }
    let largest = 1;
    for (const r of values) {
      largest = Math.max(largest, jsonBytes(r) + 1);
      if (!wanted || wanted(at)) visit(r.map((v) => (v === '' || v === undefined ? null : (v as Cell))), at);
      at++;
    }
    window = Math.max(1, Math.min(Math.floor(budget / largest), Math.floor(MAX_READ_CELLS / Math.max(width, 1))));
  }
}

/** One window's values; a single row Excel refuses as too big is read in two halves of its columns. */
async function loadValues(ctx: Ctx, sheet: Excel.Worksheet, row: number, col: number, rows: number, cols: number): Promise<unknown[][]> {
  const range = sheet.getRangeByIndexes(row, col, rows, cols).load('values');
  try {
    await ctx.sync();
    return range.values;
  } catch (e) {
    if (!tooBig(e) || rows > 1 || cols === 1) throw e;
    const left = Math.ceil(cols / 2);
    const a = await loadValues(ctx, sheet, row, col, 1, left);
    const b = await loadValues(ctx, sheet, row, col + left, 1, cols - left);
    return [[...a[0]!, ...b[0]!]];
  }
}
