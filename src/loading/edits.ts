import { z } from 'zod';
import { firstBodyRow } from '../workbook/address';
import type { Cell } from '../workbook/port';

/**
 * Whether the figures a load wrote are still as it wrote them. A load records, per block of 1,000 rows
 * and per column, a 32-bit FNV-1a hash of the cells it wrote; before the next refresh replaces them, the
 * table is read and hashed the same way, and a block that differs names the column and the rows where
 * someone edited by hand. (The records' SHA-256 fingerprint is what an auditor checks against the
 * service; this one is only for finding edits, and small enough to keep in the workbook: 8 characters per
 * column per 1,000 rows.)
 */
export const CELLS_METHOD = 'fnv1a32/blocks-1000/1';
const BLOCK = 1000;

export const cellDigest = z.strictObject({
  method: z.literal(CELLS_METHOD),
  columns: z.array(z.string()),
  rows: z.number().int().nonnegative(),
  /** Per block of rows: 8 hex characters per column, in `columns` order. */
  blocks: z.array(z.string().regex(/^([0-9a-f]{8})*$/)),
});
export type CellDigest = z.infer<typeof cellDigest>;

/** The cell as a reader sees it: an empty text is an empty cell; the quote that keeps text from being a formula is not part of it. */
function cellText(c: Cell | undefined): string {
  if (c === null || c === undefined || c === '') return '';
  if (typeof c === 'string') return `s${c.length > 1 && c[0] === "'" && /^[=+\-@]/.test(c.slice(1)) ? c.slice(1) : c}`;
  return typeof c === 'number' ? `n${c}` : `b${c}`;
}

function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A separator, so "ab","c" and "a","bc" differ.
  return Math.imul(h ^ 0x1f, 0x01000193);
}

/** Hashes rows as they are written (in batches), for the given columns. */
export function cellDigester(columns: readonly string[]) {
  const blocks: string[] = [];
  let current = new Array<number>(columns.length).fill(0x811c9dc5);
  let rows = 0;
  const close = () => {
    blocks.push(current.map((h) => (h >>> 0).toString(16).padStart(8, '0')).join(''));
    current = new Array<number>(columns.length).fill(0x811c9dc5);
  };
  return {
    add(batch: readonly (readonly Cell[])[]): void {
      for (const row of batch) {
        for (let c = 0; c < columns.length; c++) current[c] = fnv(current[c]!, cellText(row[c]));
        if (++rows % BLOCK === 0) close();
      }
    },
    done(): CellDigest {
      if (rows % BLOCK) close();
      return { method: CELLS_METHOD, columns: [...columns], rows, blocks };
    },
  };
}

/** Where the table no longer holds what was written: a column and a range of rows, as Excel numbers them. */
export interface EditedCells {
  column: string;
  firstRow: number;
  lastRow: number;
}

/** Compares the table as it is with the digest of what was written; [] when nothing was edited. */
export function editedCells(digest: CellDigest, table: { columns: readonly string[]; rows: readonly (readonly Cell[])[]; topLeft: string }): EditedCells[] {
  const at = digest.columns.map((c) => table.columns.indexOf(c));
  const now = cellDigester(digest.columns);
  now.add(table.rows.map((r) => at.map((i) => (i < 0 ? null : (r[i] ?? null)))));
  const current = now.done();
  const first = firstBodyRow(table.topLeft);
  const out: EditedCells[] = [];
  const blocks = Math.max(digest.blocks.length, current.blocks.length);
  for (let b = 0; b < blocks; b++) {
    const was = digest.blocks[b] ?? '';
    const is = current.blocks[b] ?? '';
    if (was === is) continue;
    const lastRow = first + Math.min((b + 1) * BLOCK, Math.max(digest.rows, table.rows.length)) - 1;
    digest.columns.forEach((column, c) => {
      if (was.slice(c * 8, c * 8 + 8) !== is.slice(c * 8, c * 8 + 8)) out.push({ column, firstRow: first + b * BLOCK, lastRow });
    });
  }
  return out;
}

export const describeEdits = (edits: readonly EditedCells[]): string =>
  edits
    .slice(0, 8)
    .map((e) => `${e.column} in rows ${e.firstRow.toLocaleString('en-US')}-${e.lastRow.toLocaleString('en-US')}`)
    .join('; ') + (edits.length > 8 ? `; and ${edits.length - 8} more` : '');
