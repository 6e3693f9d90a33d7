import { readBindings, type Binding } from './bindings';
import { editedCells, type EditedCells } from './edits';
import type { WorkbookPort } from '../workbook/port';

/**
 * Each bound table against what its last refresh recorded: the table is there, holds as many rows, and
 * its cells are those the refresh wrote (edits.ts). What `grc-sheets verify` prints.
 */
export type TableCheck =
  | { table: string; state: 'unchanged'; binding: Binding }
  | { table: string; state: 'edited'; binding: Binding; edits: EditedCells[] }
  | { table: string; state: 'missing'; binding: Binding }
  | { table: string; state: 'no-digest'; binding: Binding };

export async function verifyTables(workbook: WorkbookPort): Promise<TableCheck[]> {
  const out: TableCheck[] = [];
  for (const binding of (await readBindings(workbook)).values()) {
    const table = binding.table;
    const shape = await workbook.findTable(binding.tableId ?? table).then((s) => s ?? workbook.findTable(table));
    if (!shape) {
      out.push({ table, state: 'missing', binding });
      continue;
    }
    if (!binding.cells) {
      out.push({ table, state: 'no-digest', binding });
      continue;
    }
    const edits = editedCells(binding.cells, { ...(await workbook.readRows(shape.name)), topLeft: shape.topLeft });
    out.push(edits.length ? { table, state: 'edited', binding, edits } : { table, state: 'unchanged', binding });
  }
  return out;
}
