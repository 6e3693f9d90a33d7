import { FORMULA_CODE } from '../checks/csv-injection';
import type { Cell } from '../../workbook/port';
import { dispositionOf, resultCells } from './results';
import type { Validation } from './validate';
import { counted } from '../../words/count';

/**
 * Rows a Post leaves out because they have errors say so in their Result ("Not sent: 2 errors") and list
 * the errors in Result message, so the sheet alone tells why a row has no outcome. The text is no Result
 * status, so once the row is fixed the next Post sends it. A row that already has an outcome (created,
 * failed, ...) keeps it: an error found in a row that went through is not a reason to forget its GUID.
 */
export const NOT_SENT_FOR_ERRORS = /^not sent: \d+ errors?$/i;

/** The rows to mark so, with their result cells; the run writes them by row key like any result. */
export function rowsWithErrors(validation: Validation<unknown>): { row: number; cells: Cell[] }[] {
  const out: { row: number; cells: Cell[] }[] = [];
  for (const r of validation.rows) {
    if (r.request !== undefined) continue;
    const untouched = (r.result.status === '' || r.result.status === 'not sent') && r.result.guid === '';
    if (!untouched) continue;
    const errors = r.problems.filter((p) => p.severity === 'error');
    if (!errors.length) continue;
    const cells = resultCells({
      status: '',
      guid: '',
      message: errors.map((p) => `${p.column}: ${p.message}`).join('; '),
      time: '',
    });
    cells[0] = `Not sent: ${counted(errors.length, 'error')}`;
    out.push({ row: r.row, cells });
  }
  return out;
}

/** Rows a Post would send whose text begins like a formula (see checks/csv-injection). */
export function formulaRows(validation: Validation<unknown>): number {
  return validation.rows.filter(
    (r) =>
      r.request !== undefined &&
      dispositionOf(r.result) !== 'skip' &&
      r.problems.some((p) => p.code === FORMULA_CODE),
  ).length;
}
