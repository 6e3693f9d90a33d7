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

/**
 * Compares the fields both tables have. `limit` caps the field changes listed (the summary still counts
 * all of them): a refresh that changes everything should not write a million rows of changes.
 */
export function compareTables(before: TableRows, after: TableRows, keyColumns: readonly string[], limit = Infinity): { summary: ChangeSummary; changes: FieldChange[]; truncated: boolean } {
  const fields = after.columns.filter((c) => before.columns.includes(c));
  const oldAt = fields.map((f) => before.columns.indexOf(f));
  const newAt = fields.map((f) => after.columns.indexOf(f));
  const oldKeys = rowKeys(before, keyColumns);
  const newKeys = rowKeys(after, keyColumns);
  const oldByKey = new Map<string, number>();
  for (let r = 0; r < oldKeys.length; r++) oldByKey.set(oldKeys[r]!, r);
  const summary: ChangeSummary = { added: 0, removed: 0, changed: 0, fields: 0 };
  const changes: FieldChange[] = [];
  const push = (c: FieldChange) => {
    if (changes.length < limit) changes.push(c);
  };
  const matched = new Uint8Array(oldKeys.length);
  for (let r = 0; r < newKeys.length; r++) {
    const key = newKeys[r]!;
    const o = oldByKey.get(key);
    if (o === undefined) {
      summary.added++;
      push({ kind: 'added', key, row: r, field: '', old: null, new: null });
      continue;
    }
    matched[o] = 1;
    const oldRow = before.rows[o]!;
    const newRow = after.rows[r]!;
    let any = false;
    for (let f = 0; f < fields.length; f++) {
      const a = plainCell(oldRow[oldAt[f]!]);
      const b = plainCell(newRow[newAt[f]!]);
      if (a === b) continue;
      any = true;
      summary.fields++;
      push({ kind: 'changed', key, row: r, field: fields[f]!, old: a, new: b });
    }
    if (any) summary.changed++;
  }
  for (let o = 0; o < oldKeys.length; o++) {
    if (matched[o]) continue;
    summary.removed++;
    push({ kind: 'removed', key: oldKeys[o]!, row: o, field: '', old: null, new: null });
  }
  return { summary, changes, truncated: changes.length < summary.added + summary.removed + summary.fields };
}

/** "12 added, 3 removed, 40 changed" (records), as the taskpane and the CLI say it. */
export function describeChanges(s: ChangeSummary): string {
  if (!s.added && !s.removed && !s.changed) return 'no changes';
  return `${s.added.toLocaleString('en-US')} added, ${s.removed.toLocaleString('en-US')} removed, ${s.changed.toLocaleString('en-US')} changed`;
}
