import type { Cell, ColumnSpec } from '../workbook/port';
import { RESULT_COLUMNS } from './results';

/**
 * Row identity. A post finds each row by a key it writes into the row's `Row key` cell with the row's
 * first result, never by the position the row had when the table was read: the user may sort, filter,
 * insert or delete rows while a post runs or its confirmation is open. A row without a key yet is found
 * by its input cells as validated (and a blank key); identical rows are the same request, so either may
 * take either key.
 */
export const ROW_KEY_COLUMN = 'Row key';
export const rowKeySpec: ColumnSpec = { name: ROW_KEY_COLUMN, format: 'text' };

/** Columns that are the post's own (results and key), not the user's input. */
export const isOwnColumn = (name: string): boolean => {
  const n = name.trim().toLowerCase();
  return n === ROW_KEY_COLUMN.toLowerCase() || RESULT_COLUMNS.some((c) => c.toLowerCase() === n);
};

export interface RowRef {
  key: string;
  /** How to find the row until its key is in the sheet. */
  where: Record<string, Cell>;
  keyed: boolean;
}

/** 48 random bits: unique within any table a person fills. */
export const newRowKey = (): string => {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `r${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
};

/** The reference of a row as read: its key when it has one, else its input cells and a blank key. */
export function rowRefOf(columns: readonly string[], cells: readonly Cell[]): RowRef {
  const keyAt = columns.findIndex((c) => c.trim().toLowerCase() === ROW_KEY_COLUMN.toLowerCase());
  const key = keyAt < 0 ? '' : String(cells[keyAt] ?? '').trim();
  if (key) return { key, where: { [columns[keyAt]!]: cells[keyAt] ?? null }, keyed: true };
  const where: Record<string, Cell> = {};
  columns.forEach((c, i) => {
    if (!isOwnColumn(c)) where[c] = cells[i] ?? null;
  });
  return { key: newRowKey(), where, keyed: false };
}
