import type { Cell, ColumnSpec, RowUpdate, WorkbookPort } from '../../workbook/port';
import { RESULT_COLUMNS } from './results';
import { ROW_STATE_COLUMN } from './state';

/**
 * Row identity. A post finds each row by a key in its `Row key` cell, never by the position the row had
 * when the table was read: the user may sort, filter, insert or delete rows while a post runs or its
 * confirmation is open. Keys are given before anything is sent (`assignKeys`), and every result is then
 * written to the row holding its key, found at the moment of writing (`WorkbookPort.updateRows`).
 */
export const ROW_KEY_COLUMN = 'Row key';
/**
 * Hidden, and narrow for whoever unhides it: the key is the add-in's, at the far right after the result
 * columns, and nobody reads it. Hidden keeps it off the screen, the printout and Tab's path while it stays
 * in the table, so sorting, filtering and copying rows carry it. See docs/writeback.md.
 */
export const rowKeySpec: ColumnSpec = {
  name: ROW_KEY_COLUMN,
  format: 'text',
  hidden: true,
  width: 24,
  headerNote: 'Row key: the add-in finds each row by this key when it writes a result. Do not edit or clear it; sorting, filtering, inserting and deleting rows are fine.',
};

/** Columns that are the post's own (results, key and state), not the user's input. */
export const isOwnColumn = (name: string): boolean => {
  const n = name.trim().toLowerCase();
  return (
    n === ROW_KEY_COLUMN.toLowerCase() ||
    n === ROW_STATE_COLUMN.toLowerCase() ||
    RESULT_COLUMNS.some((c) => c.toLowerCase() === n)
  );
};

/**
 * `n` keys of 48 random bits each (unique within any table a person fills), drawn at most 64 KiB at a time
 * (getRandomValues' limit): one draw costs more than its bytes, and a post keys a thousand rows.
 */
export function newRowKeys(n: number): string[] {
  const bytes = new Uint8Array(6 * n);
  for (let at = 0; at < bytes.length; at += 65_532) globalThis.crypto.getRandomValues(bytes.subarray(at, at + 65_532));
  return Array.from({ length: n }, (_, k) => `r${[...bytes.subarray(6 * k, 6 * k + 6)].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
}

const norm = (c: Cell | undefined): Cell => (c === undefined || c === '' ? null : c);
const text = (c: Cell | undefined) => String(c ?? '').trim();

export interface KeyedRow {
  /** The row's position when validated. */
  row: number;
  /** Its cells as validated, by the columns read then. */
  cells: readonly Cell[];
}

/**
 * Gives every row to be posted a key of its own, before anything is sent, and returns each row's key (null
 * when the row is gone: deleted, or its input cells edited since validation). A row is found by the key it
 * had when validated, else by its input cells; identical rows are the same request, so either may take
 * either key. Keys are labels until a request is sent, so a key a user's move put on another row does no
 * harm: the table is read back, and a row whose key is missing or shared is keyed again.
 */
export async function assignKeys(
  workbook: WorkbookPort,
  table: string,
  validatedColumns: readonly string[],
  rows: readonly KeyedRow[],
): Promise<Map<number, string | null>> {
  const inputs = validatedColumns.flatMap((c, i) => (isOwnColumn(c) ? [] : [{ name: c, i }]));
  const keyAtValidation = validatedColumns.findIndex((c) => c.trim().toLowerCase() === ROW_KEY_COLUMN.toLowerCase());
  /** A row's input cells as one text, the inputs found at `at` (their columns' places in the row). */
  const contentOf = (cells: readonly Cell[], at: readonly number[]) => JSON.stringify(at.map((i) => norm(cells[i])));
  const validatedAt = inputs.map(({ i }) => i);
  const wanted = rows.map((r) => ({
    row: r.row,
    key: keyAtValidation < 0 ? '' : text(r.cells[keyAtValidation]),
    content: contentOf(r.cells, validatedAt),
  }));

  const found = new Map<number, string | null>();
  for (let attempt = 1; ; attempt++) {
    const now = await workbook.readRows(table);
    const lower = now.columns.map((c) => c.trim().toLowerCase());
    const keyAt = lower.indexOf(ROW_KEY_COLUMN.toLowerCase());
    const keyName = now.columns[keyAt]!;
    const keys = now.rows.map((r) => text(r[keyAt]));
    const uses = new Map<string, number>();
    for (const k of keys) if (k) uses.set(k, (uses.get(k) ?? 0) + 1);
    const nowAt = inputs.map(({ name }) => lower.indexOf(name.trim().toLowerCase()));
    const contents = now.rows.map((r) => contentOf(r, nowAt));
    const claimed = new Set<number>();
    const toKey: { row: number; at: number }[] = [];
    found.clear();
    // Rows whose key is still theirs alone first, then the others by their cells.
    const byKey = new Map(keys.map((k, i) => [k, i]));
    for (const w of wanted) {
      const at = w.key && uses.get(w.key) === 1 ? byKey.get(w.key) : undefined;
      if (at !== undefined && contents[at] === w.content) {
        claimed.add(at);
        found.set(w.row, w.key);
      }
    }
    // The rows not claimed by their key, by content, in table order: a row takes the first with its cells
    // (a list per content and how far it is taken, not a search of the whole table per row).
    const unclaimed = new Map<string, { at: number[]; next: number }>();
    contents.forEach((c, i) => {
      if (claimed.has(i)) return;
      const same = unclaimed.get(c);
      if (same) same.at.push(i);
      else unclaimed.set(c, { at: [i], next: 0 });
    });
    for (const w of wanted) {
      if (found.has(w.row)) continue;
      const same = unclaimed.get(w.content);
      const at = same && same.next < same.at.length ? same.at[same.next++]! : -1;
      if (at < 0) {
        found.set(w.row, null);
        continue;
      }
      claimed.add(at);
      if (keys[at] && uses.get(keys[at]!) === 1) found.set(w.row, keys[at]!);
      else toKey.push({ row: w.row, at });
    }
    if (!toKey.length) return found;
    if (attempt > 3) {
      for (const t of toKey) found.set(t.row, null);
      return found;
    }
    const inputColumns = now.columns.flatMap((c, i) => (isOwnColumn(c) ? [] : [{ c, i }]));
    const fresh = newRowKeys(toKey.length);
    const updates: RowUpdate[] = toKey.map(({ at }, k) => {
      const cells = now.rows[at]!;
      const where: Record<string, Cell> = {};
      for (const { c, i } of inputColumns) where[c] = norm(cells[i]);
      where[keyName] = norm(cells[keyAt]);
      return { where, firstColumn: keyAt, cells: [fresh[k]!] };
    });
    await workbook.updateRows(table, updates);
  }
}
