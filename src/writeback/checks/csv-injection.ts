import type { Cell } from '../../workbook/port';
import type { CellProblem } from '../problem';
import * as problem from '../problem';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { cellWarning } = problem;

/**
 * Text that a spreadsheet would run as a formula (OWASP, CSV injection): a cell that begins with =, +, -
 * or @, or with a tab or carriage return. Sent as typed, it is harmless in the service but may run
 * wherever the service's data is later exported to a spreadsheet or CSV. Validation warns on the cell;
 * the user chooses per run to send it as typed or neutralised as OWASP advises, with a leading single
 * quote, which spreadsheets show as text.
 */
export type FormulaText = 'as typed' | 'neutralised';

/** Begins with = + - @, a tab or a carriage return; by its first character's code, as validation asks it of every text cell. */
export function formulaLike(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

export const FORMULA_CODE = 'formula-like-text';

/** Warnings for the row's text cells that begin like a formula (numbers such as -5 are numbers, not text). */
export function formulaWarnings(columns: readonly string[], cells: readonly Cell[], inputIndexes: readonly number[]): CellProblem[] {
  const out: CellProblem[] = [];
  for (let k = 0; k < inputIndexes.length; k++) {
    const i = inputIndexes[k]!;
    const c = cells[i];
    if (typeof c !== 'string' || !formulaLike(c)) continue;
    const first = c[0] === '\t' ? 'a tab' : c[0] === '\r' ? 'a line break' : `"${c[0]}"`;
    out.push(
      cellWarning(
        columns[i]!,
        FORMULA_CODE,
        `begins with ${first}, so a spreadsheet may run it as a formula wherever the service's data is exported; Post asks whether to send it as typed or with a leading ' that keeps it text`,
      ),
    );
  }
  return out;
}

/** The request with every text that begins like a formula prefixed by a single quote (OWASP). */
export function neutralise<T>(request: T): T {
  return walk(request) as T;
}

function walk(v: unknown): unknown {
  if (typeof v === 'string') return formulaLike(v) ? `'${v}` : v;
  if (Array.isArray(v)) return v.map(walk);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  return v;
}
