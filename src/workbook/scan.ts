import type { Cell } from './port';

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
