import type { Cell, ColumnSpec, WorkbookPort } from '../workbook/port';
import type { FieldChange } from './changes';

/**
 * The "Changes" sheet: what each refresh changed, one row per changed field (and one per record added or
 * removed, with no field), appended refresh after refresh so a reader can answer "what changed since the
 * last quarter" by filtering on Time. Written through the port, so the taskpane and the headless refresh
 * write the same rows.
 */
export const CHANGES_SHEET = 'Changes';
export const CHANGES_TABLE = 'GrcChanges';

const columns: ColumnSpec[] = [
  { name: 'Time', format: 'text' },
  { name: 'Table', format: 'text' },
  { name: 'Dataset', format: 'text' },
  { name: 'Key', format: 'text' },
  { name: 'Field', format: 'text' },
  // Old and new as the table held them: numbers stay numbers (dates are serials, as in the table).
  { name: 'Old', format: 'general' },
  { name: 'New', format: 'general' },
  { name: 'Kind', format: 'text' },
];

/** Text that begins like a formula keeps the quote that makes it inert, as the loaded table does. */
const inert = (c: Cell): Cell => (typeof c === 'string' && /^[=+\-@]/.test(c) ? `'${c}` : c);

export function changeRows(changes: readonly FieldChange[], at: { time: string; table: string; dataset: string }): Cell[][] {
  return changes.map((c) => [at.time, at.table, at.dataset, inert(c.key), c.field, inert(c.old), inert(c.new), c.kind]);
}

/** Appends the rows to the Changes table, made on its own sheet the first time; returns the sheet's name. */
export async function writeChanges(workbook: WorkbookPort, rows: readonly Cell[][]): Promise<string> {
  let table = await workbook.findTable(CHANGES_TABLE);
  if (!table) {
    const sheet = await workbook.addSheet(CHANGES_SHEET);
    table = await workbook.createTable({ name: CHANGES_TABLE, sheet, anchor: 'A1', columns });
  }
  if (rows.length) await workbook.writeRows(CHANGES_TABLE, table.rowCount, rows);
  return table.sheet;
}
