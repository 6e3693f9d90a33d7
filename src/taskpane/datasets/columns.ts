import type { z } from 'zod';
import { columnsOf, reportColumns } from '../../sheet';
import { recordKeyColumns } from '../../loading/recordkey';
import { counted } from '../../words/count';

/**
 * The column choice of the Load panel, before a first load: every field of the dataset as the table would
 * show it (header in words, report order), each shown or not, in an order the user sets. The record's key
 * is always shown: without it a refresh could not tell records apart.
 */
export interface ColumnItem {
  field: string;
  header: string;
  shown: boolean;
  /** Identifies the record: cannot be left out. */
  key: boolean;
}

export function columnItems(record: z.ZodObject): ColumnItem[] {
  const all = columnsOf(record);
  const keys = new Set(recordKeyColumns(all, Object.keys(record.shape)));
  return reportColumns(all).map((c) => ({ field: c.field, header: c.name, shown: true, key: keys.has(c.field) }));
}

export const toggled = (items: readonly ColumnItem[], field: string): ColumnItem[] => items.map((i) => (i.field === field && !i.key ? { ...i, shown: !i.shown } : i));

/** Moves a column one place up (-1) or down (+1); at either end nothing moves. */
export function moved(items: readonly ColumnItem[], field: string, by: -1 | 1): ColumnItem[] {
  const at = items.findIndex((i) => i.field === field);
  const to = at + by;
  if (at < 0 || to < 0 || to >= items.length) return [...items];
  const out = [...items];
  [out[at], out[to]] = [out[to]!, out[at]!];
  return out;
}

/**
 * What the load is given: nothing when the user kept the report's columns as they are, else the shown
 * fields in order and the ones left out (a register's custom fields, not listed here, are then kept).
 */
export function chosenFields(items: readonly ColumnItem[], initial: readonly ColumnItem[]): { columns: string[]; leftOut: string[] } | undefined {
  const same = items.length === initial.length && items.every((i, n) => i.shown && i.field === initial[n]!.field);
  return same ? undefined : { columns: items.filter((i) => i.shown).map((i) => i.field), leftOut: items.filter((i) => !i.shown).map((i) => i.field) };
}

/** "All 17 columns" or "9 of 17 columns, your order". */
export function choiceSummary(items: readonly ColumnItem[], initial: readonly ColumnItem[]): string {
  const shown = items.filter((i) => i.shown).length;
  const reordered = items.filter((i) => i.shown).some((i, n, a) => n > 0 && initial.findIndex((x) => x.field === i.field) < initial.findIndex((x) => x.field === a[n - 1]!.field));
  const base = shown === items.length ? `All ${counted(items.length, 'column')}` : `${shown} of ${items.length} columns`;
  return reordered ? `${base}, your order` : base;
}
