import type { Cell } from '../workbook/port';

/**
 * The audit sheet as a hash chain: each entry (row) carries the hash of the entry before it and its own,
 * so an entry removed, inserted or edited afterwards breaks the chain at that row (docs/workbook.md,
 * "Audit chain"). Canonical form of an entry, so an auditor can recompute it:
 * - its cells left of `Previous hash`, in the table's column order, each as the table shows it, with an
 *   empty cell as null (an empty string is an empty cell) and numbers as numbers at 15 significant digits
 *   (what Excel keeps: a date cell read and saved again by another program may differ past that);
 * - then the previous entry's `Hash` (the first entry of the chain: "");
 * - written as a JSON array (RFC 8785: these are strings, numbers and nulls), and the `Hash` is the
 *   SHA-256 of that text in UTF-8, 64 lowercase hex digits.
 */
export const PREVIOUS_HASH = 'Previous hash';
/** Workbook setting holding the chain's last entry: { entries, hash }. */
export const AUDIT_HEAD_KEY = 'grc-sheets.audit-head';
export const ENTRY_HASH = 'Hash';

const plain = (c: Cell | undefined): Cell =>
  c === undefined || c === '' ? null : typeof c === 'number' ? Number(c.toPrecision(15)) : c;

export function entryText(cells: readonly Cell[], previous: string): string {
  return JSON.stringify([...cells.map(plain), previous]);
}

export async function entryHash(cells: readonly Cell[], previous: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(entryText(cells, previous)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Rows with their chain cells (Previous hash, Hash) appended, continuing from `previous`. */
export async function chained(rows: readonly Cell[][], previous: string): Promise<Cell[][]> {
  const out: Cell[][] = [];
  let prev = previous;
  for (const row of rows) {
    const hash = await entryHash(row, prev);
    out.push([...row, prev, hash]);
    prev = hash;
  }
  return out;
}

export interface ChainBreak {
  /** Body row (0-based) where the chain does not hold. */
  row: number;
  problem: 'edited' | 'unlinked' | 'no-hash';
  message: string;
}

/**
 * Checks a read audit table: each row's Hash is the hash of its cells and the row before's Hash, and its
 * Previous hash is that Hash. Rows before the first that has a hash were written before the chain began
 * (`unchained`). Returns the breaks, first to last.
 */
export async function checkChain(table: { columns: readonly string[]; rows: readonly (readonly Cell[])[] }, sheetRow: (row: number) => string): Promise<{ entries: number; unchained: number; breaks: ChainBreak[] }> {
  const p = table.columns.indexOf(PREVIOUS_HASH);
  const h = table.columns.indexOf(ENTRY_HASH);
  if (p < 0 || h < 0) return { entries: table.rows.length, unchained: table.rows.length, breaks: [] };
  const text = (c: Cell | undefined) => (c === null || c === undefined ? '' : String(c));
  let first = table.rows.findIndex((r) => text(r[h]) !== '');
  if (first < 0) first = table.rows.length;
  const breaks: ChainBreak[] = [];
  let prev = '';
  for (let r = first; r < table.rows.length; r++) {
    const row = table.rows[r]!;
    const at = sheetRow(r);
    const stored = text(row[h]);
    if (!stored) {
      breaks.push({ row: r, problem: 'no-hash', message: `Audit entry at ${at} has no hash: it was added or cleared by hand.` });
      prev = '';
      continue;
    }
    if (text(row[p]) !== prev) {
      breaks.push({ row: r, problem: 'unlinked', message: `Audit entry at ${at} does not follow the entry above it (its Previous hash is not that entry's Hash): an entry was removed or inserted above it.` });
    }
    const actual = await entryHash(row.slice(0, p), text(row[p]));
    if (actual !== stored) breaks.push({ row: r, problem: 'edited', message: `Audit entry at ${at} was edited after it was written (its cells no longer give its Hash).` });
    prev = stored;
  }
  return { entries: table.rows.length, unchained: first, breaks };
}
