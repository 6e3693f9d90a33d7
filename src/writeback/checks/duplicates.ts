import type { Cell } from '../../workbook/port';
import type { Problem } from '../problem';
import { isOwnColumn } from '../rows/rowkey';

/**
 * Identical rows (every input cell the same) are sent as two requests and make two records: often a row
 * pasted twice. A warning on each, naming the others by the sheet row Excel shows; the user decides.
 */
export function duplicateRows(
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
  validated: readonly number[],
  firstRow: number,
  column: string,
): Problem[] {
  const inputs = columns.flatMap((c, i) => (isOwnColumn(c) ? [] : [i]));
  const groups = new Map<string, number[]>();
  for (const row of validated) {
    const cells = rows[row] ?? [];
    const id = JSON.stringify(inputs.map((i) => cells[i] ?? null));
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  const problems: Problem[] = [];
  for (const same of groups.values()) {
    if (same.length < 2) continue;
    for (const row of same) {
      const others = same.filter((r) => r !== row).map((r) => `row ${firstRow + r}`);
      problems.push({
        row,
        column,
        code: 'identical-rows',
        severity: 'warning',
        message: `this row is identical to ${others.join(', ')}: each is sent, so the service gets ${same.length} records or changes; delete the repeats, or change a cell if each is meant`,
      });
    }
  }
  return problems;
}
