import { blankAsNull } from '../find-row';
import type { Cell } from '../port';

/**
 * A table's rows as readRows gives them, kept between calls of updateRows at the table's `version` then
 * (fileWorkbook.ts says when they are good), with the rows of each value of a column looked up as they are
 * asked for: a post finds each row by its key, and a search from the first row for each cost the square of
 * the rows (5,000 rows: 25 million comparisons).
 */
export class HeldRows {
  /** Per column asked for: each value (blank as null) -> the rows holding it, in table order. */
  private readonly byValue = new Map<number, Map<Cell, number[]>>();

  constructor(
    public version: number,
    readonly rows: Cell[][],
  ) {}

  /** The first row whose cells are `where`'s (column, value through blankAsNull), or -1: what findRow answers. */
  find(where: readonly (readonly [number, Cell])[]): number {
    if (!where.length) return -1;
    const [column, value] = where[0]!;
    // findRow compares with !==, so NaN matches no cell; a Map would find it.
    if (Number.isNaN(value)) return -1;
    next: for (const r of this.lookup(column).get(value) ?? []) {
      for (let w = 1; w < where.length; w++) if (blankAsNull(this.rows[r]![where[w]![0]]) !== where[w]![1]) continue next;
      return r;
    }
    return -1;
  }

  /** Writes cells into row `row` from column `first` on; the lookups follow. */
  write(row: number, first: number, cells: readonly Cell[]): void {
    const r = this.rows[row]!;
    cells.forEach((c, k) => {
      const values = this.byValue.get(first + k);
      if (values) move(values, row, blankAsNull(r[first + k]), blankAsNull(c));
      r[first + k] = c;
    });
  }

  private lookup(column: number): Map<Cell, number[]> {
    let values = this.byValue.get(column);
    if (!values) {
      values = new Map();
      for (let r = 0; r < this.rows.length; r++) {
        const v = blankAsNull(this.rows[r]![column]);
        const at = values.get(v);
        if (at) at.push(r);
        else values.set(v, [r]);
      }
      this.byValue.set(column, values);
    }
    return values;
  }
}

/** Row `row` from value `from`'s rows to value `to`'s, kept in table order. */
function move(values: Map<Cell, number[]>, row: number, from: Cell, to: Cell): void {
  if (Object.is(from, to)) return;
  const old = values.get(from)!;
  old.splice(old.indexOf(row), 1);
  if (!old.length) values.delete(from);
  const rows = values.get(to);
  if (!rows) {
    values.set(to, [row]);
    return;
  }
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]! < row) lo = mid + 1;
    else hi = mid;
  }
  rows.splice(lo, 0, row);
}
