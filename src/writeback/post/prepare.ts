import { firstBodyRow } from '../../workbook/address';
import type { Cell } from '../../workbook/port';
import { loadStanding } from '../api';
import { unknownColumns } from '../checks/columns';
import { duplicateRows } from '../checks/duplicates';
import { flowAvailability } from '../environment/availability';
import { fitFlow, type FittedFlow } from '../environment/fitted-flow';
import { bindEnvironment, listsNeeded } from '../environment/context';
import { dispositionOf } from '../rows/results';
import { formulaRows } from '../rows/skipped';
import { tableRecord } from '../rows/tablerecord';
import { validateRows, type Validation } from '../rows/validate';
import { runPost, stepToDo } from './run';
import type { PostOptions, PostPlan } from './types';
import { counted } from '../../words/count';

/** Checks across rows and of the header: identical rows, columns the flow does not know. Warnings only. */
function addTableChecks(
  validation: Validation<unknown>,
  bound: FittedFlow<unknown>,
  content: { columns: string[]; rows: Cell[][] },
  firstRow: number,
): void {
  const known = bound.columns('').map((c) => c.name);
  const found = [
    ...unknownColumns(content.columns, known),
    ...duplicateRows(
      content.columns,
      content.rows,
      validation.rows.map((r) => r.row),
      firstRow,
      bound.requiredColumns[0] ?? known[0] ?? '',
    ),
  ];
  const byRow = new Map(validation.rows.map((r) => [r.row, r]));
  for (const p of found) {
    validation.problems.push(p);
    const { row: _row, ...cell } = p;
    byRow.get(p.row)?.problems.push(cell);
  }
}

/**
 * Reads and checks the table, loads standing data, and says what a Post would do. Sends nothing. The
 * environment is bound and the flow's availability worked out once, here; the run reuses both.
 */
export async function preparePost(options: PostOptions): Promise<PostPlan> {
  const { api, workbook, table, flow } = options;
  const environment = bindEnvironment(options.environment);
  const availability = flowAvailability(flow, environment);
  const [standing, content, recorded, shape] = await Promise.all([
    loadStanding(api, flow.standingDatasets, options.signal, availability.lacking, listsNeeded(flow, environment)),
    workbook.readRows(table),
    tableRecord(workbook, table),
    workbook.findTable(table),
  ]);
  const bound = fitFlow(flow, environment, standing, availability);
  const validation = validateRows(bound, content.columns, content.rows);
  const firstRow = firstBodyRow(shape?.topLeft ?? 'A1');
  addTableChecks(validation, bound, content, firstRow);
  const sendable = validation.rows.filter((r) => r.request !== undefined);
  const toSend = sendable.filter((r) => dispositionOf(r.result) === 'send').length;
  const toCheck = sendable.filter((r) => dispositionOf(r.result) === 'check').length;
  // Rows whose record exists but whose follow-up step is still to do count as rows to send.
  const toFinish = validation.rows.filter((r) => stepToDo(bound, r)).length;
  const rows = toSend + toFinish + toCheck;

  const reasons: string[] = [];
  // On a production environment an assumed path is unavailable (never posted blind); elsewhere the user confirms it.
  if (availability.post.kind === 'confirm') reasons.push(availability.post.message);
  if (environment.production)
    reasons.push(`This posts ${counted(rows, 'row')} to ${environment.name}, a production environment.`);
  if (recorded && recorded.environment !== environment.name)
    reasons.push(`Table ${table} was filled for ${recorded.environment}, and you are connected to ${environment.name}.`);
  const confirmation =
    reasons.length && rows > 0 ? { environment: environment.name, rows, message: reasons.join(' ') } : null;

  return {
    validation,
    toSend: toSend + toFinish,
    toCheck,
    confirmation,
    availability,
    formulaRows: formulaRows(validation),
    run: (runOptions = {}) => {
      if (availability.post.kind === 'unavailable') throw new Error(availability.post.message);
      const c = runOptions.confirm;
      if (confirmation && (c?.environment !== confirmation.environment || c.rows !== confirmation.rows))
        throw new Error(`Posting to ${environment.name} needs the user's confirmation of ${counted(rows, 'row')} first`);
      return runPost(
        {
          bound,
          api,
          workbook,
          table,
          validation,
          columns: content.columns,
          cells: content.rows,
          recordedFor: recorded?.environment,
          firstRow,
          formulaRows: formulaRows(validation),
        },
        runOptions,
      );
    },
  };
}
