import { firstBodyRow } from '../../workbook/address';
import type { Cell, WorkbookPort } from '../../workbook/port';
import { loadStanding, readLacking, type WritebackApi } from '../api';
import {
  extraProperties,
  flowAvailability,
  lackingText,
  type EnvironmentInfo,
  type FlowAvailability,
} from '../environment/availability';
import { withBinding } from '../environment/binding';
import { withExtras } from '../environment/extras';
import { withSkippedSteps } from '../environment/steps';
import { neutralise, type FormulaText } from '../checks/csv-injection';
import type { AnyFlow, FollowUp, PreparedFlow } from '../flow';
import { duplicateRows } from '../checks/duplicates';
import { unknownColumns } from '../checks/columns';
import { createJournal } from './journal';
import type { RetryPolicy } from './outcome';
import { dispositionOf, RESULT_COLUMNS, resultCells, resultColumnSpecs, type Status } from '../rows/results';
import { assignKeys, ROW_KEY_COLUMN, rowKeySpec } from '../rows/rowkey';
import { runPool, sendWithRetry, type Sleep } from './runner';
import { formulaRows, rowsWithErrors } from '../rows/skipped';
import { saveTableRecord, tableRecord } from '../rows/tablerecord';
import { validateRows, type RowCheck, type Validation } from '../rows/validate';

/** The environment posted to; `endpoints` (from the relay) says which calls it has and how their paths are known. */
export type Environment = EnvironmentInfo;

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
  /** Whether the flow can post on this environment, and the datasets it lacks there. */
  availability: FlowAvailability;
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

/** Checks across rows and of the header: identical rows, columns the flow does not know. Warnings only. */
function addTableChecks(
  validation: Validation<unknown>,
  prepared: PreparedFlow<unknown>,
  content: { columns: string[]; rows: Cell[][] },
  firstRow: number,
): void {
  const known = prepared.columns('').map((c) => c.name);
  const found = [
    ...unknownColumns(content.columns, known),
    ...duplicateRows(
      content.columns,
      content.rows,
      validation.rows.map((r) => r.row),
      firstRow,
      prepared.requiredColumns[0] ?? known[0] ?? '',
    ),
  ];
  const byRow = new Map(validation.rows.map((r) => [r.row, r]));
  for (const p of found) {
    validation.problems.push(p);
    const { row: _row, ...cell } = p;
    byRow.get(p.row)?.problems.push(cell);
  }
}

/** Reads and checks the table, loads standing data, and says what a Post would do. Sends nothing. */
export async function preparePost(options: PostOptions): Promise<PostPlan> {
  const { api, workbook, table, flow, environment } = options;
  const availability = flowAvailability(flow, environment);
  const [standing, content, recorded, shape] = await Promise.all([
    loadStanding(api, flow.standingDatasets, options.signal, availability.lacking),
    workbook.readRows(table),
    tableRecord(workbook, table),
    workbook.findTable(table),
  ]);
  const prepared = withExtras(
    withSkippedSteps(
      withBinding(flow.setup(standing), environment, standing, availability.skipped),
      availability.skipped ?? [],
    ),
    extraProperties(flow, environment),
  );
  const validation = validateRows(prepared, content.columns, content.rows);
  const firstRow = firstBodyRow(shape?.topLeft ?? 'A1');
  addTableChecks(validation, prepared, content, firstRow);
  const sendable = validation.rows.filter((r) => r.request !== undefined);
  const toSend = sendable.filter((r) => dispositionOf(r.result) === 'send').length;
  const toCheck = sendable.filter((r) => dispositionOf(r.result) === 'check').length;
  // Rows whose record exists but whose follow-up step is still to do count as rows to send.
  const toFinish = validation.rows.filter((r) => stepToDo(prepared, r)).length;
  const rows = toSend + toFinish + toCheck;

  const reasons: string[] = [];
  // On a production environment an assumed path is unavailable (never posted blind); elsewhere the user confirms it.
  if (availability.post.kind === 'confirm') reasons.push(availability.post.message);
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
    toSend: toSend + toFinish,
    toCheck,
    confirmation,
    availability,
    formulaRows: formulaRows(validation),
    run: (runOptions = {}) => {
      if (availability.post.kind === 'unavailable') throw new Error(availability.post.message);
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

/** A row to send, or (`made`) one whose record exists and whose follow-up step is still to do. */
interface Job {
  check: RowCheck<unknown>;
  made?: { guid: string; lead: string };
}

/** A follow-up step whose earlier attempt left nothing done (busy, not sent): the next Post does it. */
const TO_ADD = 'to add: Post again to add it';
/** The marker, outside any quoted advice in the message (a person may type just "Created; hyperlink to add"). */
const toAdd = (message: string, what: string) => message.split('"')[0]!.includes(`; ${what} to add`);
const adding = (what: string) => `adding its ${what}`;
const resultLead = (message: string) => message.split(';')[0]!.trim() || 'Created';

function stepToDo(prepared: PreparedFlow<unknown>, r: RowCheck<unknown>): boolean {
  if (
    r.request === undefined ||
    !r.result.guid ||
    (r.result.status !== 'created' && r.result.status !== 'done')
  )
    return false;
  const step = prepared.followUp?.(r.request);
  return step !== undefined && toAdd(r.result.message, step.what);
}

interface Prepared extends PostOptions {
  prepared: PreparedFlow<unknown>;
  validation: Validation<unknown>;
  columns: string[];
  cells: Cell[][];
  recordedFor: string | undefined;
  firstRow: number;
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
    await workbook.addColumns(table, [...resultColumnSpecs, rowKeySpec]);
    return columns.length;
  }
  if (present.some((i, k) => i !== present[0]! + k)) {
    throw new Error(
      `the columns ${RESULT_COLUMNS.join(', ')} of table ${table} must stay side by side in this order; move them back`,
    );
  }
  return present[0]!;
}

/** The row key column's index, added at the right end when the table has none (made before keys existed). */
async function ensureKeyColumn(workbook: WorkbookPort, table: string): Promise<{ keyColumn: string }> {
  const shape = await workbook.findTable(table);
  if (!shape) throw new Error(`table ${table} is gone from the workbook`);
  const at = shape.columns.findIndex((c) => c.trim().toLowerCase() === ROW_KEY_COLUMN.toLowerCase());
  if (at >= 0) return { keyColumn: shape.columns[at]! };
  await workbook.addColumns(table, [rowKeySpec]);
  return { keyColumn: ROW_KEY_COLUMN };
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
  const journal = createJournal(workbook, table, {
    resultStart,
    ...(await ensureKeyColumn(workbook, table)),
  });

  const counts = zeroCounts();
  const outcomes = new Map<string, RowOutcome>();
  const formulaText = p.formulaRows ? (o.formulaText ?? 'as typed') : undefined;
  const typedRequest = new Map(p.validation.rows.map((r) => [r.row, r.request]));
  const candidates = p.validation.rows
    .filter((r) => r.request !== undefined && dispositionOf(r.result) !== 'skip')
    .map((r) => (formulaText === 'neutralised' ? { ...r, request: neutralise(r.request) } : r));
  const finishing = p.validation.rows.filter((r) => stepToDo(prepared, r));
  const errorMarks = rowsWithErrors(p.validation);
  const total = candidates.length + finishing.length;
  // Every row to post (or to mark as not sent) gets its key before anything is sent; results then find
  // their row by it.
  const keys = await assignKeys(
    workbook,
    table,
    p.columns,
    [...candidates, ...finishing, ...errorMarks].map((r) => ({ row: r.row, cells: p.cells[r.row] ?? [] })),
  );
  await Promise.all(errorMarks.map((m) => keys.has(m.row) && journal.write(keys.get(m.row)!, m.cells)));
  const withErrors = errorMarks.length;
  let finished = 0;
  // `time` defaults to now; an unknown outcome keeps the time the row was first sent instead, which the
  // next Post compares with the registration time of lookalike records.
  const record = async (row: number, status: Status, guid: string, message: string, time?: string) => {
    const key = keys.get(row);
    const cells = resultCells({ status, guid, message, time: time ?? now().toISOString() });
    const at = key ? await journal.write(key, cells) : null;
    // The outcome is named by the row's place when it was written; a row deleted mid-post keeps its old one.
    outcomes.set(key || `row ${row}`, {
      row: at ?? row,
      status,
      guid,
      message:
        at === null
          ? `${message} (the row was deleted during the post; this result is not in the sheet)`
          : message,
    });
    counts[status]++;
    finished++;
    o.onProgress?.({ total, finished, counts: { ...counts } });
  };

  // Rows for one record (a task) go in sheet order: a row whose predecessor did not go through waits, and
  // each row is rebased on the requests that went through before it (see PreparedFlow.rebase).
  const keyOf = (r: RowCheck<unknown>) => prepared.serialKey?.(r.request);
  const through = new Map<string, unknown[]>();
  const waitingFor = new Map<string, number>();
  const hold = (r: RowCheck<unknown>, status: Status) => {
    const key = keyOf(r);
    if (key !== undefined && status !== 'created' && status !== 'done' && !waitingFor.has(key))
      waitingFor.set(key, r.row);
  };

  // Rows that were sending or unknown are looked for in the service before anything is sent again.
  const jobs: Job[] = [];
  const checks = candidates.filter((r) => dispositionOf(r.result) === 'check');
  if (checks.length && !o.signal?.aborted) {
    const lacks = flowAvailability(flow, p.environment).lacking;
    const existing = await readLacking(api, flow.reconcileDataset, lacks, o.signal);
    const taken = new Set(p.validation.rows.map((r) => r.result.guid.toLowerCase()).filter((g) => g !== ''));
    // readLacking gives null only for a dataset listed as lacking, so its entry says why (by its title).
    const lacking = lacks.find((l) => l.id === flow.reconcileDataset);
    const cannotCheck = existing
      ? null
      : `Not sent again: whether the service has this record cannot be checked on ${p.environment.name}. ${lacking ? `${lackingText(lacking)} ` : ''}Look for it in the service; if it is not there, clear Result to send the row again.`;
    for (const r of checks) {
      if (!existing) {
        await record(r.row, 'unknown', '', cannotCheck!, r.result.time);
        continue;
      }
      const context = { note: r.result.message, at: sentAt(r.result.time) };
      let found = prepared.find(r.request, existing, taken, context);
      // The formula-text choice is per run: an earlier run may have sent this row's text the other way.
      // Look for that spelling too, or a change of choice would create the record a second time.
      const typed = typedRequest.get(r.row);
      const other = formulaText === 'neutralised' ? typed : neutralise(typed);
      if (found.kind === 'absent' && JSON.stringify(other) !== JSON.stringify(r.request))
        found = prepared.find(other, existing, taken, context);
      if (found.kind === 'found') {
        taken.add(found.guid.toLowerCase());
        const lead = 'Found in the service after an unknown outcome; not sent again';
        // A record found this way never had its follow-up step: it is done in the run, like a new one's.
        if (prepared.followUp?.(r.request)) jobs.push({ check: r, made: { guid: found.guid, lead } });
        else await record(r.row, flow.resultStatus, found.guid, lead);
      } else if (found.kind === 'unclear') {
        hold(r, 'unknown');
        await record(r.row, 'unknown', '', found.message, r.result.time);
      } else jobs.push({ check: r });
    }
  }
  jobs.push(...candidates.filter((r) => dispositionOf(r.result) === 'send').map((check) => ({ check })));
  jobs.push(
    ...finishing.map((check) => ({
      check,
      made: { guid: check.result.guid, lead: resultLead(check.result.message) },
    })),
  );
  jobs.sort((a, b) => a.check.row - b.check.row);

  const stop = new AbortController();
  let stoppedBecause: string | undefined;
  const cancelled = () => o.signal?.aborted === true;
  o.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  if (cancelled()) stop.abort();
  const stopOn = (v: { stop?: boolean; message: string }) => {
    if (v.stop && !stop.signal.aborted) {
      stoppedBecause = v.message;
      stop.abort();
    }
  };

  /** The step after the create, journaled on its own: the record exists whatever becomes of the step. */
  const finish = async (check: RowCheck<unknown>, guid: string, lead: string, step: FollowUp) => {
    const status = flow.resultStatus;
    const key = keys.get(check.row);
    if (key)
      await journal.write(
        key,
        resultCells({ status, guid, message: `${lead}; ${adding(step.what)}`, time: now().toISOString() }),
      );
    const attempt = await sendWithRetry(
      () => step.send(guid, api, stop.signal).then(() => ({ status, guid, message: '' })),
      { retry: o.retry, sleep: o.sleep, signal: stop.signal },
    );
    if (attempt.ok) return record(check.row, status, guid, `${lead}; ${step.what} added`);
    const v = attempt.verdict;
    stopOn(v);
    const message =
      v.kind === 'not sent'
        ? `${lead}; ${step.what} ${TO_ADD} (${v.message})`
        : v.kind === 'failed'
          ? `${lead}, but the service refused the ${step.what} (${v.message}); correct it and add it in the service`
          : // The service offers no way to read an incident's hyperlinks back, so this cannot be checked here.
            `${lead}; the ${step.what} may or may not have been added (${v.message}); look at the record in the service, and if it has no such ${step.what}, change this message to "Created; ${step.what} to add" and Post again`;
    return record(check.row, status, guid, message);
  };

  await runPool(
    jobs,
    { concurrency: o.concurrency ?? 4, signal: stop.signal, keyOf: (j) => keyOf(j.check) },
    async ({ check, made }) => {
      const key = keyOf(check);
      const before = key === undefined ? undefined : waitingFor.get(key);
      if (before !== undefined) {
        hold(check, 'not sent');
        const message = `Not sent: row ${p.firstRow + before} for the same record has not gone through; Post again once it has`;
        return record(check.row, 'not sent', '', message, check.result.time || undefined);
      }
      if (made) {
        const step = prepared.followUp?.(check.request);
        return step
          ? finish(check, made.guid, made.lead, step)
          : record(check.row, flow.resultStatus, made.guid, made.lead);
      }
      let request = check.request;
      if (prepared.rebase && key !== undefined) {
        try {
          request = await prepared.rebase(request, through.get(key) ?? [], api, stop.signal);
        } catch (e) {
          hold(check, 'not sent');
          return record(
            check.row,
            'not sent',
            '',
            `Not sent: could not read the record's state (${e instanceof Error ? e.message : String(e)}); Post again`,
          );
        }
      }
      const note = prepared.journalNote?.(request) ?? '';
      // A row checked and not found is sent again, but keeps the time it was first sent: a record of that
      // earlier request that the service lists only later is still recognised as the row's.
      const sendingTime =
        dispositionOf(check.result) === 'check' && sentAt(check.result.time)
          ? check.result.time
          : now().toISOString();
      // The mark goes into the workbook before the request leaves: a crash from here on leaves "sending".
      const rowKey = keys.get(check.row);
      const at = !rowKey
        ? null
        : await journal.write(
            rowKey,
            resultCells({
              status: 'sending',
              guid: '',
              message: note ? `Sending (${note})` : 'Sending',
              time: sendingTime,
            }),
          );
      // A row deleted, or edited before it had a key, is not sent: its outcome would have nowhere to go.
      if (at === null) {
        const message = 'Not sent: the row was deleted or edited after validation; Post again';
        outcomes.set(rowKey || `row ${check.row}`, { row: check.row, status: 'not sent', guid: '', message });
        counts['not sent']++;
        finished++;
        hold(check, 'not sent');
        o.onProgress?.({ total, finished, counts: { ...counts } });
        return;
      }
      const attempt = await sendWithRetry(() => prepared.send(request, api), {
        retry: o.retry,
        sleep: o.sleep,
        signal: stop.signal,
      });
      if (attempt.ok) {
        if (key !== undefined) through.set(key, [...(through.get(key) ?? []), request]);
        const step = prepared.followUp?.(request);
        if (step) return finish(check, attempt.sent.guid, attempt.sent.message, step);
        return record(check.row, attempt.sent.status, attempt.sent.guid, attempt.sent.message);
      }
      const v = attempt.verdict;
      hold(check, v.kind);
      // An unknown row keeps its journal note: the next run needs it to look for the record.
      await record(
        check.row,
        v.kind,
        '',
        v.kind === 'unknown' && note ? `${v.message} (${note})` : v.message,
        v.kind === 'unknown' ? sendingTime : undefined,
      );
      stopOn(v);
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
