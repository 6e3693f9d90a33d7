import type { Cell, Column } from '../sheet';
import type { WorkbookPort } from '../workbook/port';

/**
 * How a new table looks when its load is done: columns as wide as what they show (read from the first
 * rows, up to a cap so one long description does not push the rest off screen) and, on a sheet the load
 * made, the header row frozen so it stays in view while scrolling. A refresh leaves both as the user set them.
 */

/** Rows read for the widths: enough to be representative, few enough to cost nothing. */
const SAMPLED_ROWS = 2_000;
/** Characters: wider text wraps out of view; the user can widen the column. */
const MAX_CHARS = 48;
const MIN_CHARS = 6;
/** Points per character of the default font (Calibri 11: 7 px), and the header's filter button. */
const POINTS_PER_CHAR = 5.25;
const HEADER_EXTRA_CHARS = 3;

/** What a cell shows, in characters: dates as the formats show them (formats.ts), numbers as written. */
function shownLength(cell: Cell, column: Column): number {
  if (cell === null) return 0;
  if (typeof cell === 'number') {
    if (column.kind === 'date') return 10;
    if (column.kind === 'datetime') return 16;
    return String(cell).length;
  }
  if (typeof cell === 'boolean') return 5;
  // A multi-line cell shows its longest line.
  let longest = 0;
  for (const line of cell.split('\n')) longest = Math.max(longest, line.length);
  return longest;
}

/** The widest cell per column (by field, as columns may grow mid-load) over the first rows. */
export class WidthMeter {
  private readonly chars = new Map<string, number>();
  private seen = 0;
  constructor(columns: readonly Column[]) {
    for (const c of columns) this.chars.set(c.field, c.name.length + HEADER_EXTRA_CHARS);
  }
  add(columns: readonly Column[], rows: readonly (readonly Cell[])[]): void {
    if (this.seen >= SAMPLED_ROWS) return;
    const take = rows.slice(0, SAMPLED_ROWS - this.seen);
    this.seen += take.length;
    columns.forEach((c, i) => {
      let widest = this.chars.get(c.field) ?? c.name.length + HEADER_EXTRA_CHARS;
      for (const r of take) widest = Math.max(widest, shownLength(r[i] ?? null, c));
      this.chars.set(c.field, widest);
    });
  }
  /** Width in points per column, in the order of `columns`. */
  widths(columns: readonly Column[]): number[] {
    return columns.map((c) => {
      const chars = Math.min(MAX_CHARS, Math.max(MIN_CHARS, this.chars.get(c.field) ?? c.name.length + HEADER_EXTRA_CHARS));
      return Math.round((chars + 1) * POINTS_PER_CHAR);
    });
  }
}

/** The widths, and the frozen header row on a sheet the load made (another sheet's panes are the user's). */
export async function arrangeNewTable(workbook: WorkbookPort, table: string, widths: readonly number[], ownSheet: boolean): Promise<void> {
  await workbook.arrangeTable(table, { widths, freezeHeader: ownSheet });
}
