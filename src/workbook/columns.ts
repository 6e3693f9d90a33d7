/** Between a row's cells and a table's columns: which cell goes to (or comes from) which column. */
import type { Cell, WriteStats } from './port';

/**
 * The named columns of a row, in the order asked (null where the table lacks the column), written into
 * one array reused for every row: `scanRows` visits millions of rows and must not allocate per row.
 */
export function columnPicker(have: readonly string[], want: readonly string[]): (row: readonly (Cell | undefined)[]) => readonly Cell[] {
  const at = want.map((w) => have.indexOf(w));
  const out = new Array<Cell>(want.length).fill(null);
  return (row) => {
    for (let i = 0; i < at.length; i++) out[i] = at[i]! < 0 ? null : (row[at[i]!] ?? null);
    return out;
  };
}

/** Runs of cells that land in adjacent table columns: `count` cells from cell `from` go to column `at` on. */
function columnRuns(positions: readonly number[]): { from: number; at: number; count: number }[] {
  const runs: { from: number; at: number; count: number }[] = [];
  for (let i = 0; i < positions.length; i++) {
    const last = runs[runs.length - 1];
    if (last && positions[i] === last.at + last.count && i === last.from + last.count) last.count++;
    else runs.push({ from: i, at: positions[i]!, count: 1 });
  }
  return runs;
}

/**
 * `writeRows` with one table column per cell, for a host that writes a block of adjacent columns at a
 * time (Excel, the preview): one write per run of adjacent columns, each run's cells copied for it.
 */
export async function writeByRuns(
  rows: readonly (readonly Cell[])[],
  positions: readonly number[],
  write: (rows: readonly (readonly Cell[])[], firstColumn: number) => Promise<WriteStats>,
): Promise<WriteStats> {
  const stats: WriteStats = { syncs: 0, maxPayloadBytes: 0 };
  for (const run of columnRuns(positions)) {
    const whole = run.from === 0 && rows.every((r) => r.length <= run.count);
    const s = await write(whole ? rows : rows.map((r) => r.slice(run.from, run.from + run.count)), run.at);
    stats.syncs += s.syncs;
    stats.maxPayloadBytes = Math.max(stats.maxPayloadBytes, s.maxPayloadBytes);
  }
  return stats;
}
