import { firstBodyRow } from '../workbook/address';
import type { WorkbookPort } from '../workbook/port';
import { downloadRecords, loadStanding, type WritebackApi } from './api';
import { neutralise, type FormulaText } from './checks/csv-injection';
import type { AnyFlow, PreparedFlow } from './flow';
import { createJournal } from './journal';
import type { RetryPolicy } from './outcome';
import { dispositionOf, RESULT_COLUMNS, resultCells, resultColumnSpecs, type Status } from './results';
import { runPool, sendWithRetry, type Sleep } from './runner';
import { formulaRows, markRowsWithErrors } from './skipped';
import { saveTableRecord, tableRecord } from './tablerecord';
import { validateRows, type RowCheck, type Validation } from './validate';

export interface Environment {
  name: string;
  production: boolean;
}

export interface PostOptions {
  api: WritebackApi;
  workbook: WorkbookPort;
  table: string;
  flow: AnyFlow;
  environment: Environment;
  signal?: AbortSignal;
}

/** What a Post would do, known before anything is sent: the taskpane shows it and asks to confirm. */
export interface PostPlan {
  validation: Validation<unknown>;
  /** Rows that will be sent. */
  toSend: number;
  /** Rows whose earlier outcome is unknown: looked up in the service first, sent only if absent. */
  toCheck: number;
  /** Set when the user must confirm: posting to production, or to another environment than the table was filled for. */
  confirmation: { environment: string; rows: number; message: string } | null;
  /** Rows to post with text that begins like a formula: the user chooses how to send it (RunOptions.formulaText). */
  formulaRows: number;
  run(options?: RunOptions): Promise<RunSummary>;
}

export interface RunOptions {
  /** Must repeat the plan's confirmation (environment and row count) when it has one. */
  confirm?: { environment: string; rows: number };
  concurrency?: number;
  /** Cancel: no new row is sent; rows in flight finish and record their outcome. */
  signal?: AbortSignal;
  onProgress?(p: Progress): void;
  /** Text that begins like a formula: sent as typed (the default) or with a leading ' (checks/csv-injection). */
  formulaText?: FormulaText;
  retry?: RetryPolicy;
  sleep?: Sleep;
  now?(): Date;
}

export type Counts = Record<Status, number>;

export interface Progress {
  total: number;
  finished: number;
  counts: Counts;
}

export interface RowOutcome {
  row: number;
  status: Status;
  guid: string;
  message: string;
}

export interface RunSummary {
  environment: string;
  table: string;
  flow: string;
  startedAt: string;
  finishedAt: string;
  cancelled: boolean;
  /** Set when the run stopped itself: every further row would have failed the same way. */
  stoppedBecause?: string;
  /** The sheet row of the table's first body row: outcome rows are named from it (`Row 7` as Excel shows). */
  firstRow: number;
  outcomes: RowOutcome[];
  counts: Counts;
  /** How text that begins like a formula was sent in this run, when the table had any. */
  formulaText?: FormulaText;
  /** Rows not sent because they have errors (their Result says so). */
  withErrors: number;
}

const zeroCounts = (): Counts => ({ sending: 0, created: 0, done: 0, failed: 0, 'not sent': 0, unknown: 0 });

/** Reads and checks the table, loads standing data, and says what a Post would do. Sends nothing. */
export async function preparePost(options: PostOptions): Promise<PostPlan> {
  const { api, workbook, table, flow, environment } = options;
  const [standing, content, recorded] = await Promise.all([
    loadStanding(api, flow.standingDatasets, options.signal),
    workbook.readRows(table),
    tableRecord(workbook, table),
  ]);
  const prepared = flow.setup(standing);
  const validation = validateRows(prepared, content.columns, content.rows);
  const sendable = validation.rows.filter((r) => r.request !== undefined);
  const toSend = sendable.filter((r) => dispositionOf(r.result) === 'send').length;
  const toCheck = sendable.filter((r) => dispositionOf(r.result) === 'check').length;
  const rows = toSend + toCheck;

  const reasons: string[] = [];
  if (environment.production)
    reasons.push(
      `This posts ${rows} row${rows === 1 ? '' : 's'} to ${environment.name}, a production environment.`,
    );
  if (recorded && recorded.environment !== environment.name) {
    reasons.push(
      `Table ${table} was filled for ${recorded.environment}, and you are connected to ${environment.name}.`,
    );
  }
  const confirmation =
    reasons.length && rows > 0 ? { environment: environment.name, rows, message: reasons.join(' ') } : null;

  return {
    validation,
    toSend,
    toCheck,
    confirmation,
    formulaRows: formulaRows(validation),
    run: (runOptions = {}) => {
      const c = runOptions.confirm;
      if (confirmation && (c?.environment !== confirmation.environment || c.rows !== confirmation.rows)) {
        throw new Error(`Posting to ${environment.name} needs the user's confirmation of ${rows} rows first`);
      }
      return runPost(
        {
          ...options,
          prepared,
          validation,
          columns: content.columns,
          recordedFor: recorded?.environment,
          formulaRows: formulaRows(validation),
        },
        runOptions,
      );
    },
  };
}

interface Prepared extends PostOptions {
  prepared: PreparedFlow<unknown>;
  validation: Validation<unknown>;
  columns: string[];
  recordedFor: string | undefined;
  formulaRows: number;
}

async function ensureResultColumns(
  workbook: WorkbookPort,
  table: string,
  columns: readonly string[],
): Promise<number> {
  const at = (c: string) => columns.findIndex((x) => x.trim().toLowerCase() === c.toLowerCase());
  const present = RESULT_COLUMNS.map(at);
  if (present.every((i) => i === -1)) {
    await workbook.addColumns(table, resultColumnSpecs);
    return columns.length;
  }
  if (present.some((i, k) => i !== present[0]! + k)) {
    throw new Error(
      `the columns ${RESULT_COLUMNS.join(', ')} of table ${table} must stay side by side in this order; move them back`,
    );
  }
  return present[0]!;
}

/** The time a row was sent, from its Result time; undefined when blank or not a time. */
function sentAt(time: string): Date | undefined {
  const at = time ? Date.parse(time) : NaN;
  return Number.isNaN(at) ? undefined : new Date(at);
}

async function runPost(p: Prepared, o: RunOptions): Promise<RunSummary> {
  const now = () => (o.now ? o.now() : new Date());
  const startedAt = now().toISOString();
  const { workbook, table, api, prepared, flow } = p;
  const resultStart = await ensureResultColumns(workbook, table, p.columns);
  if (p.recordedFor === undefined)
    await saveTableRecord(workbook, table, {
      flow: flow.id,
      environment: p.environment.name,
      createdAt: startedAt,
    });
  const journal = createJournal(workbook, table, resultStart);

  const counts = zeroCounts();
  const outcomes = new Map<number, RowOutcome>();
  const formulaText = p.formulaRows ? (o.formulaText ?? 'as typed') : undefined;
  const candidates = p.validation.rows
    .filter((r) => r.request !== undefined && dispositionOf(r.result) !== 'skip')
    .map((r) => (formulaText === 'neutralised' ? { ...r, request: neutralise(r.request) } : r));
  const withErrors = await markRowsWithErrors(journal, p.validation);
  const total = candidates.length;
  let finished = 0;
  // `time` defaults to now; an unknown outcome keeps the time the row was first sent instead, which the
  // next Post compares with the registration time of lookalike records.
  const record = async (row: number, status: Status, guid: string, message: string, time?: string) => {
    await journal.write(row, resultCells({ status, guid, message, time: time ?? now().toISOString() }));
    outcomes.set(row, { row, status, guid, message });
    counts[status]++;
    finished++;
    o.onProgress?.({ total, finished, counts: { ...counts } });
  };

  // Rows that were sending or unknown are looked for in the service before anything is sent again.
  const toSend: RowCheck<unknown>[] = [];
  const checks = candidates.filter((r) => dispositionOf(r.result) === 'check');
  if (checks.length && !o.signal?.aborted) {
    const existing = await downloadRecords(api, flow.reconcileDataset, o.signal);
    const taken = new Set(p.validation.rows.map((r) => r.result.guid.toLowerCase()).filter((g) => g !== ''));
    for (const r of checks) {
      const found = prepared.find(r.request, existing, taken, {
        note: r.result.message,
        at: sentAt(r.result.time),
      });
      if (found.kind === 'found') {
        taken.add(found.guid.toLowerCase());
        await record(
          r.row,
          flow.resultStatus,
          found.guid,
          'Found in the service after an unknown outcome; not sent again',
        );
      } else if (found.kind === 'unclear') {
        await record(r.row, 'unknown', '', found.message, r.result.time);
      } else toSend.push(r);
    }
  }
  toSend.push(...candidates.filter((r) => dispositionOf(r.result) === 'send'));
  toSend.sort((a, b) => a.row - b.row);

  const stop = new AbortController();
  let stoppedBecause: string | undefined;
  const cancelled = () => o.signal?.aborted === true;
  o.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  if (cancelled()) stop.abort();

  await runPool(
    toSend,
    { concurrency: o.concurrency ?? 4, signal: stop.signal, keyOf: (r) => prepared.serialKey?.(r.request) },
    async (check) => {
      const note = prepared.journalNote?.(check.request) ?? '';
      // A row checked and not found is sent again, but keeps the time it was first sent: a record of that
      // earlier request that the service lists only later is still recognised as the row's.
      const sendingTime =
        dispositionOf(check.result) === 'check' && sentAt(check.result.time)
          ? check.result.time
          : now().toISOString();
      // The mark goes into the workbook before the request leaves: a crash from here on leaves "sending".
      await journal.write(
        check.row,
        resultCells({
          status: 'sending',
          guid: '',
          message: note ? `Sending (${note})` : 'Sending',
          time: sendingTime,
        }),
      );
      const attempt = await sendWithRetry(() => prepared.send(check.request, api), {
        retry: o.retry,
        sleep: o.sleep,
        signal: stop.signal,
      });
      if (attempt.ok) {
        await record(check.row, attempt.sent.status, attempt.sent.guid, attempt.sent.message);
        return;
      }
      const v = attempt.verdict;
      // An unknown row keeps its journal note: the next run needs it to look for the record.
      await record(
        check.row,
        v.kind,
        '',
        v.kind === 'unknown' && note ? `${v.message} (${note})` : v.message,
        v.kind === 'unknown' ? sendingTime : undefined,
      );
      if (v.stop && !stop.signal.aborted) {
        stoppedBecause = v.message;
        stop.abort();
      }
    },
  );

  return {
    environment: p.environment.name,
    table,
    flow: flow.id,
    startedAt,
    finishedAt: now().toISOString(),
    cancelled: cancelled(),
    stoppedBecause,
    firstRow: firstBodyRow((await workbook.findTable(table))?.topLeft ?? 'A1'),
    outcomes: [...outcomes.values()].sort((a, b) => a.row - b.row),
    counts,
    formulaText,
    withErrors,
  };
}
