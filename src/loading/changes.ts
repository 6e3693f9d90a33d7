import type { Cell } from '../workbook/port';
import { keyOf } from './recordkey';

/**
 * What a refresh changes, record by record: the table's rows before it against the rows it brings, matched
 * by record key (recordkey.ts). Cells are compared as the table holds them, so a figure shows the same
 * way in the Changes sheet as in the table.
 */
export type ChangeKind = 'added' | 'removed' | 'changed';

export interface FieldChange {
  kind: ChangeKind;
  key: string;
  /** Body row: in the refreshed table for added and changed, in the old table for removed. */
  row: number;
  /** The changed field; empty for a whole record added or removed. */
  field: string;
  old: Cell;
  new: Cell;
}

export interface ChangeSummary {
  added: number;
  removed: number;
  /** Records with at least one changed field. */
  changed: number;
  /** Changed fields over all changed records. */
  fields: number;
}

export interface TableRows {
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
}

/**
 * A cell as compared and fingerprinted: an empty string is an empty cell (Excel reads empty cells as ""),
 * the quote that keeps formula-like text inert is not part of the value (Excel does not return it), and a
 * fractional number is rounded to 15 significant digits.
 */
export function plainCell(c: Cell | undefined): Cell {
  if (c === undefined || c === '') return null;
  // Excel keeps 15 significant digits: a figure read back may differ from the double written past them.
  if (typeof c === 'number') return Number.isInteger(c) ? c : Number(c.toPrecision(15));
  if (typeof c === 'string' && c.charCodeAt(0) === 39 && /^'[=+\-@]/.test(c)) return c.slice(1);
  return c;
}

/**
 * A text kept past the row it was read from, copied off that text. A host may hand over cell text that is
 * a slice of a much larger text it read (the file adapter's worksheet XML, megabytes at a time), and the
 * engine keeps all of that alive while the slice lives: 200,000 kept keys held the whole worksheet.
 */
export function own<T extends Cell>(c: T): T {
  return (typeof c === 'string' && c.length > 12 ? ` ${c}`.slice(1) : c) as T;
}

/** Keys of the rows, made unique: a key seen again gets " #2", " #3" ... in row order. */
export function rowKeys(t: TableRows, keyColumns: readonly string[]): string[] {
  const at = keyColumns.map((k) => t.columns.indexOf(k));
  const usable = at.every((i) => i >= 0) ? at : [];
  const raw = new Array<string>(t.rows.length);
  for (let r = 0; r < t.rows.length; r++) raw[r] = rawKey(t.rows[r]!, usable, r);
  return uniqueKeys(raw);
}

/** One row's key before duplicates are numbered (key cells at `at`; none: "row N"). */
export function rawKey(row: readonly Cell[], at: readonly number[], position: number): string {
  return at.length ? keyOf(at.map((i) => plainCell(row[i])), at.map((_, i) => i), position) : keyOf(row, at, position);
}

export function uniqueKeys(raw: string[]): string[] {
  const seen = new Map<string, number>();
  for (let r = 0; r < raw.length; r++) {
    const key = raw[r]!;
    const n = seen.get(key);
    if (n === undefined) seen.set(key, 1);
    else {
      seen.set(key, n + 1);
      raw[r] = `${key} #${n + 1}`;
    }
  }
  return raw;
}

/** The old and new rows matched by key, and which matched pairs differ, known from the digests alone. */
export interface Matching {
  oldKeys: readonly string[];
  newKeys: readonly string[];
  /** Per new row: the old row with its key, -1 for a record added. */
  oldOf: Int32Array;
  /** Per old row: the new row with its key, -1 for a record removed. */
  newOf: Int32Array;
  /** Per new row: 1 when it and its old row differ (some compared cell changed). */
  differs: Uint8Array;
  /**
   * Old rows that more than one new row has the key of, with all those new rows: numbering makes "a", "a"
   * and a typed "a #2" into "a", "a #2", "a #2" (`newOf` names only the last).
   */
  shared: Map<number, number[]>;
}

/**
 * Old and new rows matched by key; `differ(o, r)` tells whether a matched pair differs (their digests, or
 * their cells). `lastOld(r)`, when the caller knows it already (a refresh's scan looks every old key up
 * among the new ones), is the last old row with new row r's key, or -1: no map of the old keys is made.
 */
export function matchRows(oldKeys: readonly string[], newKeys: readonly string[], differ: (o: number, r: number) => boolean, lastOld?: (r: number) => number): Matching {
  let oldByKey: Map<string, number> | null = null;
  if (!lastOld) {
    oldByKey = new Map<string, number>();
    for (let o = 0; o < oldKeys.length; o++) oldByKey.set(oldKeys[o]!, o);
  }
  const oldOf = new Int32Array(newKeys.length).fill(-1);
  const newOf = new Int32Array(oldKeys.length).fill(-1);
  const differs = new Uint8Array(newKeys.length);
  const shared = new Map<number, number[]>();
  for (let r = 0; r < newKeys.length; r++) {
    const o = oldByKey ? oldByKey.get(newKeys[r]!) : lastOld!(r);
    if (o === undefined || o < 0) continue;
    oldOf[r] = o;
    if (newOf[o]! >= 0) (shared.get(o) ?? shared.set(o, [newOf[o]!]).get(o)!).push(r);
    newOf[o] = r;
    if (differ(o, r)) differs[r] = 1;
  }
  return { oldKeys, newKeys, oldOf, newOf, differs, shared };
}

/**
 * The change list of a comparison, filled from the old rows that differ as they are read (`wants` says
 * which), so neither table is held whole. The list is in the refreshed table's row order
 * (records added and changed fields as they come), then the records removed; `limit` caps the entries
 * listed, and only the changed rows that can still be listed keep their entries, while every changed
 * field is counted.
 */
export class ChangeCollector {
  private readonly summary: ChangeSummary = { added: 0, removed: 0, changed: 0, fields: 0 };
  private readonly kept = new Map<number, FieldChange[]>();
  /** The last new row whose entries can be listed: each row listed before it takes at least one entry. */
  private readonly lastListed: number;

  constructor(
    private readonly m: Matching,
    private readonly fields: readonly string[],
    /** A new row's cell of compared field `f`. */
    private readonly newCell: (row: number, f: number) => Cell,
    private readonly limit = Infinity,
  ) {
    let entries = 0;
    let last = -1;
    for (let r = 0; r < m.newKeys.length; r++) {
      const added = m.oldOf[r]! < 0;
      if (added) this.summary.added++;
      else if (m.differs[r]) this.summary.changed++;
      else continue;
      if (entries < limit) last = r;
      entries++;
    }
    for (let o = 0; o < m.oldKeys.length; o++) if (m.newOf[o]! < 0) this.summary.removed++;
    this.lastListed = last;
  }

  /** Whether old row `o` differs from the incoming row with its key: its cells are wanted for `visit`. */
  wants(o: number): boolean {
    const r = this.m.newOf[o]!;
    return r >= 0 && (this.m.differs[r] === 1 || !!this.m.shared.get(o)?.some((x) => this.m.differs[x] === 1));
  }

  /** Old row `o`'s cells over the compared fields. */
  visit(o: number, cells: readonly Cell[]): void {
    for (const r of this.m.shared.get(o) ?? [this.m.newOf[o]!]) if (this.m.differs[r]) this.compare(r, cells);
  }

  private compare(r: number, cells: readonly Cell[]): void {
    const key = this.m.newKeys[r]!;
    const keep = r <= this.lastListed;
    const found: FieldChange[] = [];
    for (let f = 0; f < this.fields.length; f++) {
      const a = plainCell(cells[f]);
      const b = plainCell(this.newCell(r, f));
      if (a === b) continue;
      this.summary.fields++;
      if (keep) found.push({ kind: 'changed', key, row: r, field: this.fields[f]!, old: own(a), new: b });
    }
    if (keep) this.kept.set(r, found);
  }

  result(): { summary: ChangeSummary; changes: FieldChange[]; truncated: boolean } {
    const { m, limit, summary } = this;
    const changes: FieldChange[] = [];
    for (let r = 0; r <= this.lastListed && changes.length < limit; r++) {
      if (m.oldOf[r]! < 0) changes.push({ kind: 'added', key: m.newKeys[r]!, row: r, field: '', old: null, new: null });
      else for (const c of this.kept.get(r) ?? []) if (changes.length < limit) changes.push(c);
    }
    for (let o = 0; o < m.oldKeys.length && changes.length < limit; o++) {
      if (m.newOf[o]! < 0) changes.push({ kind: 'removed', key: m.oldKeys[o]!, row: o, field: '', old: null, new: null });
    }
    return { summary: { ...summary }, changes, truncated: changes.length < summary.added + summary.removed + summary.fields };
  }
}

/**
 * Compares two tables held in memory, over the fields both have. `limit` caps the field changes listed
 * (the summary still counts all of them): a refresh that changes everything should not write a million
 * rows of changes. A refresh compares the same way without holding the old table (refreshread.ts).
 */
export function compareTables(before: TableRows, after: TableRows, keyColumns: readonly string[], limit = Infinity): { summary: ChangeSummary; changes: FieldChange[]; truncated: boolean } {
  const fields = after.columns.filter((c) => before.columns.includes(c));
  const newAt = fields.map((f) => after.columns.indexOf(f));
  const oldAt = fields.map((f) => before.columns.indexOf(f));
  const differ = (o: number, r: number) => oldAt.some((i, f) => plainCell(before.rows[o]![i]) !== plainCell(after.rows[r]![newAt[f]!]));
  const m = matchRows(rowKeys(before, keyColumns), rowKeys(after, keyColumns), differ);
  const collector = new ChangeCollector(m, fields, (r, f) => after.rows[r]![newAt[f]!] ?? null, limit);
  before.rows.forEach((row, o) => collector.wants(o) && collector.visit(o, oldAt.map((i) => row[i] ?? null)));
  return collector.result();
}

/** "12 added, 3 removed, 40 changed" (records), as the taskpane and the CLI say it. */
export function describeChanges(s: ChangeSummary): string {
  if (!s.added && !s.removed && !s.changed) return 'no changes';
  return `${s.added.toLocaleString('en-US')} added, ${s.removed.toLocaleString('en-US')} removed, ${s.changed.toLocaleString('en-US')} changed`;
}
