import type { Cell } from './port';

/** A cell as a row update compares it: empty text and a missing cell are blank, as an empty cell. */
export const blankAsNull = (c: Cell | undefined): Cell => (c === undefined || c === '' ? null : c);

/**
 * The first row whose cells are `where`'s (column index, value already through blankAsNull), or -1: how the
 * memory and file workbooks find a row update's row. Plain loops, no closure per row: a post looks up a row
 * per result, and keys a thousand rows in one call.
 */
export function findRow(rows: readonly (readonly (Cell | undefined)[])[], where: readonly (readonly [number, Cell])[]): number {
  next: for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let w = 0; w < where.length; w++) if (blankAsNull(row[where[w]![0]]) !== where[w]![1]) continue next;
    return r;
  }
  return -1;
}
