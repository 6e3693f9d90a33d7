/**
 * A validation problem is plain data, like zod's issues: the taskpane lists it and the sheet marks its
 * cell. `row` is the 0-based body row of the table, `column` the header text the user sees. The message
 * says what is wrong and what to type instead.
 */
export type Severity = 'error' | 'warning';

export interface Problem {
  row: number;
  column: string;
  code: string;
  message: string;
  severity: Severity;
}

/** A problem found while reading one row, before it is placed in the table. */
export type CellProblem = Omit<Problem, 'row'>;

export const cellError = (column: string, code: string, message: string): CellProblem => ({
  column,
  code,
  message,
  severity: 'error',
});
export const cellWarning = (column: string, code: string, message: string): CellProblem => ({
  column,
  code,
  message,
  severity: 'warning',
});

/** Rows are counted from 1 in text for people: body row 0 is "Row 1" of the table. */
export function describeProblem(p: Problem): string {
  return `Row ${p.row + 1}, ${p.column}: ${p.message}`;
}
