import type { z } from 'zod';
import { columnKindOf, type ColumnKind } from '../catalog';
import type { ColumnFormat, ColumnSpec } from './cell-types';

/** One table column of a dataset: the record field it shows and how its values become cells. */
export interface Column {
  /** The header text: the record's field name, or the field in words (headers.ts) in a report. */
  name: string;
  /** The record's field the cells come from. */
  field: string;
  kind: ColumnKind;
  /** false for a field the service sent that the catalogue does not know. */
  known: boolean;
  /** A yes/no column of a report: "Yes" and "No" as text, rather than Excel's TRUE and FALSE. */
  yesNo?: true;
}

const FORMAT: Record<ColumnKind, ColumnFormat> = {
  text: 'text',
  guid: 'text',
  list: 'text',
  json: 'text',
  number: 'number',
  date: 'date',
  datetime: 'datetime',
  boolean: 'boolean',
};

export const formatOf = (kind: ColumnKind): ColumnFormat => FORMAT[kind];

export const columnSpecs = (columns: readonly Column[]): ColumnSpec[] =>
  columns.map((c) => ({ name: c.name, format: c.yesNo ? 'text' : formatOf(c.kind) }));

/** The dataset's columns in the record schema's order: stable across loads and refreshes. */
export function columnsOf(record: z.ZodObject): Column[] {
  return Object.entries(record.shape).map(([name, field]) => ({ name, field: name, kind: columnKindOf(field as z.ZodType), known: true }));
}

/**
 * A field the catalogue does not know gets its kind from its first non-empty value. Text that merely looks
 * like a date stays text: guessing dates is how spreadsheets corrupt identifiers.
 */
function guessKind(value: unknown): ColumnKind {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? 'list' : 'json';
  if (value !== null && typeof value === 'object') return 'json';
  return 'text';
}

/**
 * Appends, at the right and in first-seen order, the fields of `records` that `columns` lacks (and that
 * `skip` does not list: fields the user left out). `dress` gives each its header (the field name unless
 * the table's headers are in words). Returns the same array when nothing was added (the common case,
 * checked cheaply per record).
 */
export function withExtraFields(
  columns: readonly Column[],
  records: readonly Record<string, unknown>[],
  dress: (c: Column) => Column = (c) => c,
  skip?: ReadonlySet<string>,
): readonly Column[] {
  const known = new Set([...columns.map((c) => c.field), ...(skip ?? [])]);
  let out: Column[] | null = null;
  for (const rec of records) {
    for (const k in rec) {
      if (known.has(k)) continue;
      const v = rec[k];
      if (v === null || v === undefined) continue; // kind unknown until a value shows up
      out ??= [...columns];
      out.push(dress({ name: k, field: k, kind: guessKind(v), known: false }));
      known.add(k);
    }
  }
  return out ?? columns;
}
