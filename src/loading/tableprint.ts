import { z } from 'zod';
import type { Cell } from '../workbook/port';
import * as changes from './changes';
import type { TableRows } from './changes';
import { DigestList } from './digests';
import type { LineDigests } from '../client/sha256-thread';
import type { Hasher } from './fingerprint';
import * as sha256 from './sha256';
import { dateCell } from '../evidence/canonical';

// Copied into this module's own constants once: under the CommonJS the CLI runs as, an imported binding is
// read through a getter, a call per cell or row in the loops below that V8 does not always inline.
const { own, plainCell, rawKey, rowKeys } = changes;
const { Sha256, cellsLine, sha256Cells } = sha256;

/**
 * A fingerprint of a table's cells as a load or refresh left them, so a later refresh (or `grc-sheets
 * verify`) can tell whether someone edited the pulled figures since, and where. The record fingerprint
 * (fingerprint.ts) is of what the service sent; this one is of what the table shows, which is what a hand
 * edit changes. Canonical form (docs/workbook.md, "Cell fingerprints"):
 * - a row's line is the JSON array (RFC 8785 text) of its cells in the binding's `columns`, each cell as
 *   `plainCell` gives it (empty text is null, the inert-formula quote dropped); its digest is the SHA-256
 *   of the line in UTF-8, as 64 lowercase hex digits;
 * - `sha256` is the SHA-256 of the row digests sorted, each followed by "\n": sorting the table does not
 *   change it;
 * - `buckets`: rows are put in B = ceil(count / 32) buckets (at least 1) by FNV-1a (32-bit, over the key's
 *   UTF-16 code units) of the row's record key, modulo B; each bucket's hash is the first 8 hex digits of
 *   the SHA-256 of its sorted row digests, each followed by "\n"; `buckets` is them all in bucket order.
 *   They say which records an edit is in without keeping a copy of the table.
 * Method 2 (`sha256/cell-rows/2`, every print made since evidence was kept) differs in one thing: a number
 * in one of the print's `dates` columns is its canonical date text (src/evidence/canonical.ts), so a tool
 * that rewrites a date-time serial's last digit (openpyxl) does not make it an edit. Method 1 prints (no
 * `dates`) are checked as they were made.
 */
export const CELL_PRINT_METHOD_1 = 'sha256/cell-rows/1';
export const CELL_PRINT_METHOD = 'sha256/cell-rows/2';
const BUCKET_ROWS = 32;

export const cellPrint = z.strictObject({
  method: z.enum([CELL_PRINT_METHOD_1, CELL_PRINT_METHOD]),
  count: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The record key columns (recordkey.ts); empty: rows are keyed by position. */
  keys: z.array(z.string()),
  buckets: z.string().regex(/^([0-9a-f]{8})*$/),
  /** Method 2: the date and date-time columns, compared at the millisecond. */
  dates: z.array(z.string()).optional(),
});
export type CellPrint = z.infer<typeof cellPrint>;

/**
 * The SHA-256 the digests' lines are hashed with (a whole table's: many bytes at once): node:crypto in Node
 * (the CLI), the built-in one in the taskpane. A row's own digest is always the built-in's, which writes
 * the row's line straight into its buffer: faster per row than node:crypto, whose every call costs more
 * than a short line's hashing (a line's text, a Buffer per digest).
 */
export interface TextDigest {
  stream(): Hasher;
}
/**
 * A row's canonical line. Cells are strings, finite numbers, booleans and null, for which RFC 8785 and
 * JSON.stringify write the same text (canonicalJson is the reference; the test holds them equal).
 */
export const lineOf = (cells: readonly Cell[]): string => JSON.stringify(cells);

const builtIn: TextDigest = { stream: () => new Sha256() };

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Digests' lines ("hex\n") are written here, a thousand at a time, and hashed from here. */
const lines = new Uint8Array(65 * 1008);

/** The hash of the digests of rows[from, to) (in that order) as the canonical form says: each in hex followed by "\n". */
function linesHash(d: DigestList, rows: Uint32Array, from: number, to: number, digest: TextDigest): string {
  const h = digest.stream();
  let at = 0;
  for (let i = from; i < to; i++) {
    d.hexInto(rows[i]!, lines, at);
    lines[at + 64] = 0x0a;
    at += 65;
    if (at === lines.length) {
      h.update(lines);
      at = 0;
    }
  }
  if (at) h.update(lines.subarray(0, at));
  return h.hex();
}

/** The same for digests given in hex (a bucket's few rows): sorted, each followed by "\n". */
function hashOfHexes(digests: string[], digest: TextDigest): string {
  const h = digest.stream();
  h.update(new TextEncoder().encode(`${digests.sort().join('\n')}${digests.length ? '\n' : ''}`));
  return h.hex();
}

/** A table's row digests and the FNV-1a of each row's record key (which bucket it is in). */
export interface RowDigests {
  count: number;
  digests: DigestList;
}

/** The same with each row's record key (numbered when repeated: `key #2`), to match rows by key. */
export interface RowPrints extends RowDigests {
  keys: string[];
}

/**
 * Rows of another print over the same fields and dates (a refresh's incoming rows) whose digests a row may
 * take instead of hashing its cells: `row(key, cells)` is such a row whose cells are equal to these over the
 * fields (the same values make the same line), or -1. A refresh where little changed hashes only the
 * table's changed rows.
 */
export interface SameRow {
  digests: DigestList;
  row(key: string, cells: readonly Cell[]): number;
}

/**
 * Row digests over `fields` and each row's key, made one row at a time so the rows need not be kept: a
 * scan of the table (its cells given in the order of `columns`), or rows as a load writes them. A key
 * column that is not among `present` (the table lacks it) keys every row by position, as `rowKeys` does.
 * `keep`: the keys are kept for `prints` (a refresh matches rows by them); otherwise only their hashes,
 * and each distinct key once while the rows come (to number repeated keys as `uniqueKeys` does).
 */
function printer<K extends boolean>(columns: readonly string[], fields: readonly string[], keyColumns: readonly string[], present: readonly string[], dates: readonly string[], keep: K, lines?: LineDigests) {
  const digests = new DigestList();
  const keys: string[] = [];
  const seen = new Map<string, number>();
  const at = fields.map((f) => (present.includes(f) ? columns.indexOf(f) : -1));
  const keyAt = keyColumns.map((k) => (present.includes(k) ? columns.indexOf(k) : -1));
  const usable = keyAt.every((i) => i >= 0) ? keyAt : [];
  const line = new Array<Cell>(at.length);
  const isDate = fields.map((f) => dates.includes(f));
  const scratch = new Uint8Array(32);
  // A column's dates repeat (days, not instants): each serial's text is made once, not per cell.
  const dateTexts = new Map<Cell, Cell>();
  const dateOf = (c: Cell) => {
    let text = dateTexts.get(c);
    if (text === undefined) {
      if (dateTexts.size > 10_000) dateTexts.clear();
      dateTexts.set(c, (text = dateCell(c)));
    }
    return text;
  };
  const fill = (cells: readonly Cell[]) => {
    for (let i = 0; i < at.length; i++) {
      const c = at[i]! < 0 ? null : plainCell(cells[at[i]!]);
      line[i] = isDate[i] && typeof c === 'number' ? dateOf(c) : c;
    }
  };
  const digestNow = (cells: readonly Cell[], out: Uint8Array, to: number) => {
    fill(cells);
    sha256Cells(line, out, to);
  };
  // A row's digest made elsewhere (the taskpane's worker) lands in its place later: `lines.settled()`.
  const digestInto = lines
    ? (cells: readonly Cell[], out: Uint8Array, to: number) => {
        fill(cells);
        lines.add(cellsLine(line), out, to);
      }
    : digestNow;
  /**
   * The key as uniqueKeys numbers it (a key's second row is "key #2"); keys by position are unique. Owned
   * (`own`): a kept key does not keep the text a host cut it from, and is not copied again to be kept.
   */
  const keyOf = (cells: readonly Cell[]) => {
    // One key column (most datasets: the Id) is its text, as rawKey gives it, without rawKey's arrays.
    const raw = usable.length === 1 ? String(plainCell(cells[usable[0]!]) ?? '') : rawKey(cells, usable, digests.count);
    if (!usable.length) return own(raw);
    const n = seen.get(raw);
    if (n === undefined) {
      const mine = own(raw);
      seen.set(mine, 1);
      return mine;
    }
    seen.set(raw, n + 1);
    return own(`${raw} #${n + 1}`);
  };
  const add = (cells: readonly Cell[], like?: SameRow) => {
    const key = keyOf(cells);
    const r = digests.add(fnv1a(key));
    const s = like ? like.row(key, cells) : -1;
    if (s >= 0) digests.copy(r, like!.digests, s);
    else digestInto(cells, digests.chunk(r), digests.at(r));
    if (keep) keys.push(key);
  };
  return {
    add,
    /** Whether these cells' digest is row r's (the same row read again). */
    matches(cells: readonly Cell[], r: number): boolean {
      digestNow(cells, scratch, 0);
      return digests.is(r, scratch);
    },
    addRows(rows: readonly (readonly Cell[])[]) {
      for (const r of rows) add(r);
    },
    /** Row r's key (kept keys only) and its digest. */
    key: (r: number) => keys[r]!,
    digests,
    /** Call once, when every row is in. */
    prints: (): K extends true ? RowPrints : RowDigests => ({ count: digests.count, digests, ...(keep ? { keys } : {}) }) as K extends true ? RowPrints : RowDigests,
  };
}

/**
 * Row digests and key hashes (rowPrinter's `prints`): what a cell print and a check against one need. A
 * row's digest is always the built-in's (see TextDigest); the hash a caller chooses is for the print itself.
 */
export const rowPrinter = (columns: readonly string[], fields: readonly string[], keyColumns: readonly string[], present: readonly string[] = columns, dates: readonly string[] = [], lines?: LineDigests) =>
  printer(columns, fields, keyColumns, present, dates, false, lines);

/** The same, keeping each row's key (a refresh matches the rows before and after by them). */
export const keyedRowPrinter = (columns: readonly string[], fields: readonly string[], keyColumns: readonly string[], present: readonly string[] = columns, dates: readonly string[] = []) =>
  printer(columns, fields, keyColumns, present, dates, true);

/** Row digests over `fields` (columns missing from the table count as empty), with each row's key. */
export function rowPrints(t: TableRows, fields: readonly string[], keyColumns: readonly string[], dates: readonly string[] = []): RowPrints {
  const p = keyedRowPrinter(t.columns, fields, keyColumns, t.columns, dates);
  p.addRows(t.rows);
  return p.prints();
}

const bucketCount = (rows: number) => Math.max(1, Math.ceil(rows / BUCKET_ROWS));

/** Bucket number of every row, for `buckets` buckets. */
function bucketsOf(d: DigestList, buckets: number): Uint32Array {
  const out = new Uint32Array(d.count);
  for (let r = 0; r < d.count; r++) out[r] = d.keyHash(r) % buckets;
  return out;
}

/**
 * Each bucket's hash (8 hex digits): the rows in digest order (`order`) put in their buckets by a
 * counting sort, which keeps that order within each bucket.
 */
function bucketHashes(d: DigestList, order: Uint32Array, buckets: number, digest: TextDigest): string[] {
  const of = bucketsOf(d, buckets);
  const start = new Uint32Array(buckets + 1);
  for (let r = 0; r < d.count; r++) start[of[r]! + 1]!++;
  for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
  const next = start.slice(0, buckets);
  const byBucket = new Uint32Array(d.count);
  for (let i = 0; i < order.length; i++) {
    const r = order[i]!;
    byBucket[next[of[r]!]!++] = r;
  }
  const out = new Array<string>(buckets);
  for (let b = 0; b < buckets; b++) out[b] = linesHash(d, byBucket, start[b]!, start[b + 1]!, digest).slice(0, 8);
  return out;
}

/** A print of rows made over `dates` (method 2); without `dates`, a method 1 print (tests of old workbooks). */
export function makeCellPrint(p: RowDigests, keyColumns: readonly string[], digest: TextDigest = builtIn, dates?: readonly string[]): CellPrint {
  const order = p.digests.order();
  return {
    method: dates ? CELL_PRINT_METHOD : CELL_PRINT_METHOD_1,
    count: p.count,
    sha256: linesHash(p.digests, order, 0, order.length, digest),
    keys: [...keyColumns],
    buckets: bucketHashes(p.digests, order, bucketCount(p.count), digest).join(''),
    ...(dates ? { dates: [...dates] } : {}),
  };
}

/** Rows (body positions) in buckets whose hash differs from the stored one: where the edits are. */
export function suspectRows(stored: CellPrint, now: RowDigests, digest: TextDigest = builtIn): { rows: number[]; buckets: Set<number> } {
  const buckets = stored.buckets.length / 8;
  const hashes = bucketHashes(now.digests, now.digests.order(), buckets, digest);
  const bad = new Set<number>();
  hashes.forEach((h, b) => {
    if (h !== stored.buckets.slice(b * 8, b * 8 + 8)) bad.add(b);
  });
  const of = bucketsOf(now.digests, buckets);
  const rows: number[] = [];
  for (let r = 0; r < of.length; r++) if (bad.has(of[r]!)) rows.push(r);
  return { rows, buckets: bad };
}

/** Differing rows in one bucket up to which every subset is tried (2^12 hashes of ~32 digests at most). */
const MAX_TRIED = 12;

function revertingSubset<T extends { r: number; incoming: string }>(differing: T[], current: Map<number, string>, want: string, digest: TextDigest): T[] | null {
  const n = differing.length;
  const masks = Array.from({ length: 2 ** n }, (_, m) => m).sort((x, y) => popcount(x) - popcount(y));
  for (const m of masks) {
    if (m === 0) continue;
    const digests = new Map(current);
    differing.forEach((d, i) => {
      if (m & (1 << i)) digests.set(d.r, d.incoming);
    });
    if (hashOfHexes([...digests.values()], digest).slice(0, 8) === want) return differing.filter((_, i) => m & (1 << i));
  }
  return null;
}

function popcount(m: number): number {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

export interface EditedCell {
  /** Body row in the table as it is now, and its record key. */
  row: number;
  key: string;
  field: string;
  /** What the load put there; undefined where it cannot be known (see `certain`). */
  old: Cell | undefined;
  now: Cell;
  /**
   * true: reverting these rows to what the service sends now (and no other row of their bucket) gives
   * back the stored bucket hash, so they are exactly the hand edits and `old` is what was loaded. false:
   * no such set of rows (a record edited by hand and changed at the source, rows added or deleted by
   * hand): the cell differs from what comes in now, and may have been edited by hand.
   */
  certain: boolean;
}

/** The rows that may hold hand edits (in buckets whose hash differs); null when the table matches its print. */
export function editSuspects(stored: CellPrint, now: RowDigests, digest: TextDigest = builtIn): number[] | null {
  const order = now.digests.order();
  if (linesHash(now.digests, order, 0, order.length, digest) === stored.sha256) return null;
  return suspectRows(stored, now, digest).rows;
}

/**
 * Cells edited by hand since the last load, found with what a refresh brings (`incoming`, the rows it is
 * about to write). `now` is the table's prints over `fields` and `suspects` the rows `editSuspects`
 * named; `cellsOf(r)` gives a suspect row's cells over `fields` (read in a second pass over the table, so
 * only these rows are held).
 */
export function findEdits(
  stored: CellPrint,
  now: RowPrints,
  suspects: readonly number[],
  cellsOf: (row: number) => readonly Cell[],
  incoming: TableRows,
  fields: readonly string[],
  digest: TextDigest = builtIn,
): { cells: EditedCell[]; countNow: number } {
  const B = stored.buckets.length / 8;
  const of = bucketsOf(now.digests, B);
  const inKeys = rowKeys(incoming, stored.keys);
  const inByKey = new Map<string, number>();
  inKeys.forEach((k, i) => inByKey.set(k, i));
  const incomingDigest = (i: number) => rowPrints({ columns: incoming.columns, rows: [incoming.rows[i]!] }, fields, [], stored.dates).digests.hex(0);
  const iAt = fields.map((f) => incoming.columns.indexOf(f));
  const cells: EditedCell[] = [];
  const byBucket = new Map<number, number[]>();
  for (const r of suspects) (byBucket.get(of[r]!) ?? byBucket.set(of[r]!, []).get(of[r]!)!).push(r);
  for (const [b, rows] of byBucket) {
    // Rows that differ from what comes in: each was edited by hand, changed at the source, or both.
    const differing: { r: number; incoming: string; cells: EditedCell[] }[] = [];
    const current = new Map<number, string>();
    for (const r of rows) {
      current.set(r, now.digests.hex(r));
      const i = inByKey.get(now.keys[r]!);
      if (i === undefined) continue;
      const was = cellsOf(r);
      const found: EditedCell[] = [];
      for (let f = 0; f < fields.length; f++) {
        const a = plainCell(was[f]);
        const c = iAt[f]! < 0 ? null : plainCell(incoming.rows[i]![iAt[f]!]);
        if (a !== c) found.push({ row: r, key: now.keys[r]!, field: fields[f]!, old: c, now: a, certain: true });
      }
      if (found.length) differing.push({ r, incoming: incomingDigest(i), cells: found });
    }
    // The hand-edited rows are the ones whose revert to what comes in gives back the stored bucket hash:
    // tried over the subsets of the differing rows, smallest first (a bucket holds about 32 rows).
    const want = stored.buckets.slice(b * 8, b * 8 + 8);
    const edited = differing.length <= MAX_TRIED ? revertingSubset(differing, current, want, digest) : null;
    if (edited) for (const d of edited) cells.push(...d.cells);
    else for (const d of differing) for (const e of d.cells) cells.push({ ...e, old: undefined, certain: false });
  }
  cells.sort((x, y) => x.row - y.row);
  return { cells, countNow: now.count };
}
