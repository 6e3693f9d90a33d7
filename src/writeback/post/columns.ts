import type { WorkbookPort } from '../../workbook/port';
import { RESULT_COLUMNS, resultColumnSpecs } from '../rows/results';
import { ROW_KEY_COLUMN, rowKeySpec } from '../rows/rowkey';
import { ROW_STATE_COLUMN, rowStateSpec } from '../rows/state';

/** Where a run writes: the first result column, the key column's name, the state column's index. */
export interface JournalColumns {
  resultStart: number;
  keyColumn: string;
  stateColumn: number;
}

/** A column's place by its name as a person may retype it (spaces around, another case); -1 when absent. */
export const columnIndex = (names: readonly string[], c: string) => names.findIndex((x) => x.trim().toLowerCase() === c.toLowerCase());

/**
 * The post's own columns, added where a table lacks them: the results (with key and state) at the right
 * end of a table that has none; the key, then the state, at the right end of a table made before they
 * existed. The results must stay side by side in their order.
 */
export async function ensureOwnColumns(
  workbook: WorkbookPort,
  table: string,
  columns: readonly string[],
): Promise<JournalColumns> {
  const at = columnIndex;
  const present = RESULT_COLUMNS.map((c) => at(columns, c));
  if (present.every((i) => i === -1)) await workbook.addColumns(table, [...resultColumnSpecs, rowKeySpec, rowStateSpec]);
  else if (present.some((i, k) => i !== present[0]! + k))
    throw new Error(
      `the columns ${RESULT_COLUMNS.join(', ')} of table ${table} must stay side by side in this order; move them back`,
    );
  let shape = await workbook.findTable(table);
  if (!shape) throw new Error(`table ${table} is gone from the workbook`);
  for (const spec of [rowKeySpec, rowStateSpec]) {
    if (at(shape.columns, spec.name) >= 0) continue;
    await workbook.addColumns(table, [spec]);
    shape = (await workbook.findTable(table))!;
  }
  return {
    resultStart: at(shape.columns, RESULT_COLUMNS[0]),
    keyColumn: shape.columns[at(shape.columns, ROW_KEY_COLUMN)]!,
    stateColumn: at(shape.columns, ROW_STATE_COLUMN),
  };
}
