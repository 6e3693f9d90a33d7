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

/**
 * Where a problem is, as the user finds it in Excel: "Row 7, Date detected", where 7 is the sheet row (the
 * header row counted), not the position in the table. `firstRow` is the sheet row of the table's first body
 * row (`firstBodyRow` of the table's top left cell). Table-level problems name only the column.
 */
export function problemPlace(p: Problem, firstRow: number): string {
  return p.row >= 0 ? `Row ${firstRow + p.row}, ${p.column}` : p.column;
}

export function describeProblem(p: Problem, firstRow: number): string {
  return `${problemPlace(p, firstRow)}${p.severity === 'warning' ? ' (warning)' : ''}: ${p.message}`;
}
