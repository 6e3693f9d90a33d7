import { firstBodyRow } from '../../workbook/address';
import type { Cell, WorkbookPort } from '../../workbook/port';
import type { WritebackApi } from '../api';
import { neutralise } from '../checks/csv-injection';
import type { FittedFlow } from '../environment/fitted-flow';
import { dispositionOf, RESULT_COLUMNS } from '../rows/results';
import { assignKeys } from '../rows/rowkey';
import { rowsWithErrors } from '../rows/skipped';
import { ROW_STATE_COLUMN, stateCell } from '../rows/state';
import { saveTableRecord } from '../rows/tablerecord';
import type { RowCheck, Validation } from '../rows/validate';
import { columnIndex, ensureOwnColumns } from './columns';
import { createJournal } from './journal';
import { createMarks } from './marks';
import { reconcile } from './reconcile';
import type { Job, Run } from './run-context';
import { runPool } from './runner';
import { createSchedule, inSheetOrder } from './schedule';
import { sendRow } from './send-row';
import { settle } from './settle';
import { createTally } from './tally';
import type { RunOptions, RunSummary } from './types';

/** A row whose record exists and whose follow-up step an earlier Post left to do (its state says which). */
export function stepToDo(bound: FittedFlow<unknown>, r: RowCheck<unknown>): boolean {
  if (r.request === undefined || !r.result.guid || (r.result.status !== 'created' && r.result.status !== 'done'))
    return false;
  const step = bound.followUp(r.request);
  return step !== undefined && r.state.step === step.what;
}

/** What a plan hands its run: the table as validated, on the environment it was validated for. */
export interface Planned {
  bound: FittedFlow<unknown>;
  api: WritebackApi;
  workbook: WorkbookPort;
  table: string;
  validation: Validation<unknown>;
  columns: string[];
  cells: Cell[][];
  recordedFor: string | undefined;
  firstRow: number;
  formulaRows: number;
}

/**
 * A post's run: the table gets its own columns and every row to post its key; rows of unknown outcome are
 * reconciled with the service; the rest are scheduled (sheet order, one record's rows one after the
 * other), each sent on its own; every outcome is tallied into its row as it comes.
 */
export async function runPost(p: Planned, o: RunOptions): Promise<RunSummary> {
  const now = () => (o.now ? o.now() : new Date());
  const startedAt = now().toISOString();
  const { workbook, table, bound } = p;
  const columns = await ensureOwnColumns(workbook, table, p.columns);
  if (p.recordedFor === undefined)
    await saveTableRecord(workbook, table, { flow: bound.flow.id, environment: bound.ctx.environment.name, createdAt: startedAt });
  const journal = createJournal(workbook, table, columns);

  const formulaText = p.formulaRows ? (o.formulaText ?? 'as typed') : undefined;
  const candidates = p.validation.rows
    .filter((r) => r.request !== undefined && dispositionOf(r.result) !== 'skip')
    .map((r) =>
      formulaText === 'neutralised' ? { ...r, request: neutralise(r.request), extra: neutralise(r.extra) } : r,
    );
  const finishing = p.validation.rows.filter((r) => stepToDo(bound, r));
  const errorMarks = rowsWithErrors(p.validation);
  // Every row to post (or to mark as not sent) gets its key before anything is sent; results then find
  // their row by it.
  const keys = await assignKeys(
    workbook,
    table,
    p.columns,
    [...candidates, ...finishing, ...errorMarks].map((r) => ({ row: r.row, cells: p.cells[r.row] ?? [] })),
  );
  await Promise.all(errorMarks.map((m) => keys.has(m.row) && journal.write(keys.get(m.row)!, m.cells, stateCell({}))));

  const stop = new AbortController();
  let stoppedBecause: string | undefined;
  const cancelled = () => o.signal?.aborted === true;
  o.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  if (cancelled()) stop.abort();
  const run: Run = {
    bound,
    api: p.api,
    journal,
    keys,
    tally: createTally({ journal, keys, total: candidates.length + finishing.length, now, onProgress: o.onProgress }),
    schedule: createSchedule(bound.prepared),
    signal: stop.signal,
    stopOn(v) {
      if (v.stop && !stop.signal.aborted) {
        stoppedBecause = v.message;
        stop.abort();
      }
    },
    retry: { retry: o.retry, sleep: o.sleep },
    now,
    firstRow: p.firstRow,
    unsettled: [],
  };

  const known = {
    taken: new Set(p.validation.rows.map((r) => r.result.guid.toLowerCase()).filter((g) => g !== '')),
    typed: new Map(p.validation.rows.map((r) => [r.row, r.request])),
    formulaText,
  };
  const jobs: Job[] = await reconcile(
    run,
    candidates.filter((r) => dispositionOf(r.result) === 'check'),
    known,
  );
  jobs.push(...candidates.filter((r) => dispositionOf(r.result) === 'send').map((check) => ({ check })));
  jobs.push(...finishing.map((check) => ({ check, made: { guid: check.result.guid, lead: 'Created' } })));

  const pool = async (list: Job[], before?: Parameters<typeof createMarks>[2]['before']) => {
    const ordered = inSheetOrder(list);
    const marks = createMarks(run, ordered, { persisted: workbook.persist !== undefined, before });
    await runPool(
      ordered,
      { concurrency: o.concurrency ?? 4, signal: stop.signal, keyOf: (j) => run.schedule.keyOf(j.check) },
      (job) => sendRow(run, job, marks),
    );
    await marks.putBack();
  };
  // The cells exactly as the plan read them (a Result typed by a person, in its own spelling): what a row
  // marked ahead and never sent gets back in the first pool. Settle's pool resends rows this run wrote
  // `unknown`: they get that back (marks.ts's default), or the next Post would send them without a look.
  const cellOf = (row: number, name: string) => {
    const i = columnIndex(p.columns, name);
    return i < 0 ? null : (p.cells[row]?.[i] ?? null);
  };
  const planned = (c: RowCheck<unknown>) => ({ result: RESULT_COLUMNS.map((n) => cellOf(c.row, n)), state: cellOf(c.row, ROW_STATE_COLUMN) });
  await pool(jobs, planned);
  await settle(run, { ...known, pool });

  return {
    environment: bound.ctx.environment.name,
    table,
    flow: bound.flow.id,
    startedAt,
    finishedAt: now().toISOString(),
    cancelled: cancelled(),
    stoppedBecause,
    firstRow: firstBodyRow((await workbook.findTable(table))?.topLeft ?? 'A1'),
    outcomes: run.tally.outcomes(),
    counts: run.tally.counts,
    formulaText,
    withErrors: errorMarks.length,
  };
}
