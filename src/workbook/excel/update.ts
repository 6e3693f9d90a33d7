import { WorkbookError } from '../errors';
import type { Cell, RowUpdate } from '../port';
import type { Ctx } from './context';
import type { Located } from './locate';

type Grid = unknown[][];
const norm = (v: unknown): Cell => (v === '' || v === undefined ? null : (v as Cell));
const sameColumns = (a: readonly Grid[], b: readonly Grid[]) =>
  a.length === b.length && a.every((g, i) => g.length === b[i]!.length && g.every((r, k) => r[0] === b[i]![k]![0]));

/**
 * Writes rows found by their cells (see `RowUpdate`). The user can sort or insert between two round trips,
 * so the rows are found from the columns read in one sync, and the write's own batch reads the same
 * columns again before its writes (a batch runs as one step in Excel): when they differ, the rows moved in
 * between, the cells the writes overwrote are put back from what that batch read, and the rows are found
 * again. Positions are relative to the table's body, so rows inserted above the table move nothing. Rows
 * found by a key go through `updateByKey` where the host has Range.find (ExcelApi 1.9).
 */
export async function updateRowsIn(ctx: Ctx, t: Located, updates: readonly RowUpdate[], canFind: boolean): Promise<(number | null)[]> {
  const lower = t.columns.map((c) => c.trim().toLowerCase());
  const single = updates.map((u) => Object.entries(u.where));
  const column = single[0]?.[0]?.[0];
  if (canFind && column !== undefined && single.every((w) => w.length === 1 && w[0]![0] === column && typeof w[0]![1] === 'string' && w[0]![1] !== ''))
    return updateByKey(ctx, t, lower.indexOf(column.trim().toLowerCase()), updates);
  const indexOf = (column: string) => {
    const i = lower.indexOf(column.trim().toLowerCase());
    if (i < 0) throw new WorkbookError('bad-argument', `Table ${t.name} has no column ${column}.`);
    return i;
  };
  const wanted = [...new Set(updates.flatMap((u) => Object.keys(u.where).map(indexOf)))];
  const loadColumns = () => wanted.map((i) => t.table.columns.getItemAt(i).getDataBodyRange().load('values'));

  for (let attempt = 1; ; attempt++) {
    const first = loadColumns();
    await ctx.sync();
    const seen = first.map((r) => r.values as Grid);
    // Find each row on a copy of the columns, applying earlier updates' writes to it as Excel will.
    const cols = new Map(wanted.map((c, k) => [c, seen[k]!.map((r) => norm(r[0]))]));
    const rows = updates.map((u) => {
      // A blank and '' alike on both sides, as the memory and file workbooks match (find-row.ts).
      const where = Object.entries(u.where).map(([c, v]) => [cols.get(indexOf(c))!, norm(v)] as const);
      const n = where[0]?.[0].length ?? 0;
      let row = -1;
      for (let r = 0; r < n && row < 0; r++) if (where.every(([col, v]) => col[r] === v)) row = r;
      if (row >= 0) u.cells.forEach((c, k) => cols.get(u.firstColumn + k)?.splice(row, 1, norm(c)));
      return row < 0 ? null : row;
    });

    const again = loadColumns();
    const body = t.table.getDataBodyRange();
    const targets = updates.flatMap((u, k) => {
      const row = rows[k];
      if (row === null || row === undefined || !u.cells.length) return [];
      const range = body.getCell(row, u.firstColumn).getResizedRange(0, u.cells.length - 1);
      const before = range.load('values');
      range.values = [u.cells.map((c) => c ?? '')];
      return [{ range, before }];
    });
    await ctx.sync();
    if (sameColumns(again.map((r) => r.values as Grid), seen)) return rows;
    // Undo in reverse order (a later write may have covered an earlier one), then find the rows again.
    for (const { range, before } of targets.reverse()) range.values = before.values;
    await ctx.sync();
    if (attempt >= 3)
      throw new WorkbookError('host', `The rows of table ${t.name} kept moving while results were written; Post again.`);
  }
}

/**
 * Updates of rows found by a key (a unique text in one column): Excel finds each key in the write's own
 * batch (`Range.find`, ExcelApi 1.9), so the row is located and written in one step and no move can come
 * between. One round trip first says which keys are there (a missing key would fail the whole batch); a
 * row deleted between the two makes the batch fail, and the call is tried again.
 */
async function updateByKey(ctx: Ctx, t: Located, keyColumn: number, updates: readonly RowUpdate[]): Promise<(number | null)[]> {
  if (keyColumn < 0) throw new WorkbookError('bad-argument', `Table ${t.name} has no such key column.`);
  const options = { completeMatch: true, matchCase: true };
  for (let attempt = 1; ; attempt++) {
    const keys = t.table.columns.getItemAt(keyColumn).getDataBodyRange();
    const top = keys.load('rowIndex');
    const probes = updates.map((u) => keys.findOrNullObject(String(Object.values(u.where)[0]), options).load('rowIndex'));
    await ctx.sync();
    const rows = probes.map((p) => (p.isNullObject ? null : p.rowIndex - top.rowIndex));
    try {
      updates.forEach((u, k) => {
        if (rows[k] === null || !u.cells.length) return;
        const cell = keys.find(String(Object.values(u.where)[0]), options);
        cell.getOffsetRange(0, u.firstColumn - keyColumn).getResizedRange(0, u.cells.length - 1).values = [u.cells.map((c) => c ?? '')];
      });
      await ctx.sync();
      return rows;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}
