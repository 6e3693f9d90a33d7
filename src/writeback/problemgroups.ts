import { cellAddress, parseCell } from '../workbook/address';
import type { TableShape } from '../workbook/port';
import type { Problem, Severity } from './problem';

/**
 * The problem list as a reader takes it in: errors first (table-level ones at the top), then warnings;
 * the same warning on many rows (a column of formula-like text, a required field left empty everywhere)
 * is one line listing its rows. Rows are sheet rows, as Excel shows them.
 */
export interface ProblemGroup {
  severity: Severity;
  column: string;
  code: string;
  message: string;
  /** Body rows (0-based) in sheet order; empty for a table-level problem. */
  rows: number[];
}

export function groupProblems(problems: readonly Problem[]): ProblemGroup[] {
  const errors: ProblemGroup[] = [];
  const warnings = new Map<string, ProblemGroup>();
  for (const p of problems) {
    const rows = p.row >= 0 ? [p.row] : [];
    if (p.severity === 'error') {
      errors.push({ severity: p.severity, column: p.column, code: p.code, message: p.message, rows });
      continue;
    }
    const key = `${p.column}\u0000${p.code}\u0000${p.message}`;
    const g = warnings.get(key);
    if (g) g.rows.push(...rows);
    else warnings.set(key, { severity: p.severity, column: p.column, code: p.code, message: p.message, rows });
  }
  for (const g of warnings.values()) g.rows.sort((a, b) => a - b);
  const byRow = (a: ProblemGroup, b: ProblemGroup) => (a.rows[0] ?? -1) - (b.rows[0] ?? -1);
  return [...errors.sort(byRow), ...[...warnings.values()].sort(byRow)];
}

/** "Row 7", or "Rows 5, 7, 9-12" for a group: runs of consecutive rows shortened. */
export function rowsText(rows: readonly number[], firstRow: number): string {
  const sheetRows = [...new Set(rows)].sort((a, b) => a - b).map((r) => r + firstRow);
  if (sheetRows.length === 1) return `Row ${sheetRows[0]}`;
  const parts: string[] = [];
  for (let i = 0; i < sheetRows.length; ) {
    let j = i;
    while (j + 1 < sheetRows.length && sheetRows[j + 1] === sheetRows[j]! + 1) j++;
    parts.push(j - i >= 2 ? `${sheetRows[i]}-${sheetRows[j]}` : sheetRows.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return `Rows ${parts.join(', ')}`;
}

/** "Rows 5, 7, Description (warning): ..." */
export function describeGroup(g: ProblemGroup, firstRow: number): string {
  const where = g.rows.length ? `${rowsText(g.rows, firstRow)}, ${g.column}` : g.column;
  return `${where}${g.severity === 'warning' ? ' (warning)' : ''}: ${g.message}`;
}

/**
 * The cell of a problem's first row, on the table's sheet (A1 style), for selecting it; for a
 * table-level problem or a column the table lacks, its header cell or the table's top left cell.
 */
export function problemCell(g: ProblemGroup, table: Pick<TableShape, 'topLeft' | 'columns'>): string {
  const origin = parseCell(table.topLeft);
  const at = table.columns.findIndex((c) => c.trim().toLowerCase() === g.column.trim().toLowerCase());
  const col = origin.col + Math.max(at, 0);
  const row = g.rows.length ? origin.row + 1 + g.rows[0]! : origin.row;
  return cellAddress(row, col);
}
