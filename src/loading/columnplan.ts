import type { z } from 'zod';
import { columnsOf, inReport, isGuidColumn, reportColumns, type Column } from '../sheet';
import type { LoadRecord } from './loadrecords';
import { recordKeyColumns } from './recordkey';

/**
 * Which columns a table gets and under which headers, for a first load and for each refresh after it.
 *
 * A table loaded since headers in words came in records each column's record field (`fields` in its
 * load record) and the fields the user left out (`omitted`): a refresh keeps the headers, the order and the
 * choice, and adds a field new at the source at the end with its header in words. A table loaded before
 * has no `fields`: its headers are the field names, and a refresh goes on naming them so.
 */
export interface ColumnPlan {
  /** The columns to start from: a first load's in table order; a refresh's are placed by header. */
  columns: Column[];
  /** The header of a field that was not in `columns` and shows up in the records. */
  dress: (c: Column) => Column;
  /** Fields never shown (left out by the user). */
  skip: ReadonlySet<string>;
  /** The table's key columns, by header (recordkey.ts): from the record's order, whatever the table's. */
  keys(columns: readonly Column[]): string[];
  /** What the load record keeps of the columns (nothing for a table named the old way). */
  record(columns: readonly Column[]): Pick<LoadRecord, 'fields' | 'omitted'>;
}

/** The record's fields that identify a record: always in the table, or a refresh could not compare. */
const keyFields = (record: z.ZodObject) => {
  const all = columnsOf(record);
  const keys = recordKeyColumns(all, Object.keys(record.shape));
  return all.filter((c) => keys.includes(c.name)).map((c) => c.field);
};

/**
 * A first load: the report's columns (headers.ts), or, when the user chose, the chosen fields in the
 * chosen order (the record's key fields are kept, at the end, when left out). With `leftOut`, only those
 * fields are left out and the record's others (a register's custom fields, which the choice before the
 * load cannot list) go in their report order before the chosen GUID columns; without it, the choice is
 * "only these". Unknown fields in `chosen` are refused by the caller (`unknownFields`).
 */
export function firstLoadPlan(record: z.ZodObject, chosen?: readonly string[], leftOut?: readonly string[]): ColumnPlan {
  const all = reportColumns(columnsOf(record));
  let columns = all;
  if (chosen?.length) {
    const keys = keyFields(record);
    const wanted = [...chosen, ...keys.filter((f) => !chosen.includes(f))];
    const byField = (f: string) => all.filter((c) => c.field === f);
    columns = wanted.flatMap(byField);
    if (leftOut) {
      const others = all.filter((c) => !wanted.includes(c.field) && !(leftOut.includes(c.field) && !keys.includes(c.field)));
      const firstGuid = columns.findIndex(isGuidColumn);
      const at = firstGuid < 0 ? columns.length : firstGuid;
      columns = [...columns.slice(0, at), ...others, ...columns.slice(at)];
    }
  }
  const omitted = all.filter((c) => !columns.includes(c)).map((c) => c.field);
  return plan(record, columns, new Set(columns.map((c) => c.name.toLowerCase())), new Map(), omitted);
}

/** The fields of `chosen` the record does not have: a choice naming them is refused. */
export const unknownFields = (record: z.ZodObject, chosen: readonly string[]): string[] => chosen.filter((f) => !(f in record.shape));

/**
 * A refresh: the load record says the headers. `tableColumns` are the table's headers now (the user's own
 * columns included), which a new column's header must not repeat.
 */
export function refreshPlan(record: z.ZodObject, previous: Pick<LoadRecord, 'columns' | 'fields' | 'omitted'>, tableColumns: readonly string[]): ColumnPlan {
  const schema = columnsOf(record);
  if (!previous.fields) {
    return { columns: schema, dress: (c) => c, skip: new Set(), keys: (cs) => recordKeyColumns(cs), record: () => ({}) };
  }
  const headerOf = new Map(previous.fields.map((f, i) => [f, previous.columns[i]!]));
  const omitted = previous.omitted ?? [];
  const taken = new Set([...previous.columns, ...tableColumns].map((h) => h.toLowerCase()));
  const dress = stored(headerOf, taken);
  const kept = previous.fields.flatMap((f) => schema.filter((c) => c.field === f));
  const added = schema.filter((c) => !headerOf.has(c.field) && !omitted.includes(c.field));
  return plan(record, [...kept, ...added].map(dress), taken, headerOf, omitted);
}

/** A field's stored header where it has one, else its header in words. */
const stored = (headerOf: ReadonlyMap<string, string>, taken: Set<string>) => {
  const fresh = inReport(taken);
  return (c: Column): Column => {
    const header = headerOf.get(c.field);
    if (header === undefined) return fresh(c);
    return { ...c, name: header, ...(c.kind === 'boolean' ? { yesNo: true as const } : {}) };
  };
};

function plan(record: z.ZodObject, columns: Column[], taken: Set<string>, headerOf: ReadonlyMap<string, string>, omitted: readonly string[]): ColumnPlan {
  const order = Object.keys(record.shape);
  return {
    columns,
    dress: stored(headerOf, taken),
    skip: new Set(omitted),
    keys: (cs) => recordKeyColumns(cs, order),
    record: (cs) => ({ fields: cs.map((c) => c.field), ...(omitted.length ? { omitted: [...omitted] } : {}) }),
  };
}
