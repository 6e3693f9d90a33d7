import type { Cell } from '../port';
import type { Ctx } from './context';
import type { Located } from './locate';

/** Body rows [offset, offset + count) of a table; empty cells read as null. */
export async function readBody(ctx: Ctx, t: Located, offset: number, count: number | undefined): Promise<{ columns: string[]; rows: Cell[][] }> {
  const n = Math.max(0, Math.min(t.rowCount - offset, count ?? t.rowCount));
  if (n === 0) return { columns: t.columns, rows: [] };
  const range = t.sheet.getRangeByIndexes(t.row + 1 + offset, t.col, n, t.columns.length).load('values');
  await ctx.sync();
  return { columns: t.columns, rows: range.values.map((r) => r.map((v: unknown) => (v === '' || v === undefined ? null : (v as Cell)))) };
}
