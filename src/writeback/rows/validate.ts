import type { Cell, CellMark } from '../../workbook/port';
import type { FittedFlow } from '../environment/fitted-flow';
import type { CellProblem, Problem } from '../problem';
import { RESULT_COLUMNS, type RowResult } from './results';
import * as results from './results';
import * as cells from './cells';
import { isOwnColumn } from './rowkey';
import { ROW_STATE_COLUMN, type RowState } from './state';
import * as state from './state';
import * as csvInjection from '../checks/csv-injection';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { readResult } = results;
const { isBlank } = cells;
const { readState } = state;
const { formulaWarnings } = csvInjection;

export interface RowCheck<R> {
  row: number;
  /** Set when the row has no errors: what would be sent. */
  request?: R;
  /** The row's values of the properties the environment's file adds (environment/extras.ts). */
  extra: Readonly<Record<string, unknown>>;
  result: RowResult;
  /** What an earlier Post left for the next one (rows/state.ts). */
  state: RowState;
  problems: CellProblem[];
}

export interface Validation<R> {
  rows: RowCheck<R>[];
  /** Every problem of every row, plus table-level ones (row -1). */
  problems: Problem[];
  /** Rows without errors and without a result yet: what Post would send. */
  ready: number;
  /** Index of the first result column in the table, or -1 when the table has none yet. */
  resultStart: number;
}

/**
 * Checks every row of a table against a flow, sending nothing. Rows whose input cells are all blank are
 * left out: tables often end in empty rows.
 */
export function validateRows<R>(
  flow: Pick<FittedFlow<R>, 'requiredColumns' | 'read'>,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
): Validation<R> {
  const index = new Map(columns.map((c, i) => [c.trim().toLowerCase(), i]));
  const missing = flow.requiredColumns.filter((c) => !index.has(c.toLowerCase()));
  const resultStart = index.get(RESULT_COLUMNS[0].toLowerCase()) ?? -1;
  if (missing.length) {
    return {
      rows: [],
      ready: 0,
      resultStart,
      problems: missing.map((c) => ({
        row: -1,
        column: c,
        code: 'missing-column',
        severity: 'error',
        message: `the table has no column "${c}"; add it, or make a new template`,
      })),
    };
  }
  const resultIndexes = RESULT_COLUMNS.map((c) => index.get(c.toLowerCase()));
  const stateIndex = index.get(ROW_STATE_COLUMN.toLowerCase());
  const inputIndexes = [...index.entries()]
    .filter(([name]) => !isOwnColumn(name))
    .map(([, i]) => i);
  const checks: RowCheck<R>[] = [];
  const problems: Problem[] = [];
  let ready = 0;
  // One accessor for all rows, pointed at the current row: no closure per row, no lower-casing per cell.
  const at = new Map<string, number | undefined>();
  let cells: readonly Cell[] = [];
  const get = (column: string) => {
    let i = at.get(column);
    if (i === undefined && !at.has(column)) at.set(column, (i = index.get(column.toLowerCase())));
    return i === undefined ? undefined : cells[i];
  };
  // The row's result cells, in one array reused for every row (readResult keeps none of it). Loops on the
  // per-row path are indexed: the first validation runs them interpreted, where for...of makes an iterator
  // and a result object per step.
  const resultCells: Cell[] = [null, null, null, null];
  for (let row = 0; row < rows.length; row++) {
    cells = rows[row]!;
    if (isBlankRow(cells, inputIndexes)) continue;
    const { request, extra, problems: read } = flow.read(get);
    const warnings = formulaWarnings(columns, cells, inputIndexes);
    const found = warnings.length ? read.concat(warnings) : read;
    for (let k = 0; k < resultIndexes.length; k++) {
      const i = resultIndexes[k];
      resultCells[k] = i === undefined ? null : (cells[i] ?? null);
    }
    const result = readResult(resultCells);
    const state = stateIndex === undefined ? {} : readState(cells[stateIndex]);
    checks.push({ row, request, extra, result, state, problems: found });
    for (let k = 0; k < found.length; k++) problems.push({ ...found[k]!, row });
    if (request !== undefined && result.status === '' && result.guid === '') ready++;
  }
  return { rows: checks, problems, ready, resultStart };
}

/** Whether every input cell of the row is blank: tables often end in empty rows. */
function isBlankRow(cells: readonly Cell[], inputIndexes: readonly number[]): boolean {
  for (let k = 0; k < inputIndexes.length; k++) if (!isBlank(cells[inputIndexes[k]!])) return false;
  return true;
}

/** Cell marks for the problems: red for errors, amber for warnings, with the message as the note. */
export function marksOf(problems: readonly Problem[]): CellMark[] {
  const byCell = new Map<string, CellMark>();
  for (const p of problems) {
    if (p.row < 0) continue;
    const k = `${p.row}\u0000${p.column}`;
    const prev = byCell.get(k);
    if (prev) {
      prev.note = `${prev.note}\n${p.message}`;
      if (p.severity === 'error') prev.kind = 'error';
    } else byCell.set(k, { row: p.row, column: p.column, kind: p.severity, note: p.message });
  }
  return [...byCell.values()];
}
