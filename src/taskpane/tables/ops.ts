import { catalog, type Dataset } from '../../catalog';
import { API_ERROR_CODES, type ApiErrorCode } from '../../client';
import { failureText, loadDataset, refreshTable, whatItLeft, type EditReport, type TableState, type LoadError, type LoadOutcome, type LoadProgress, type LoadTarget as WorkbookTarget } from '../../loading/load';
import type { WorkbookPort } from '../../workbook/port';
import type { ActivityEntry } from '../activity/activity';
import { describeError, messageText, type UserMessage } from '../connection/messages';
import type { Session } from '../screen';
import type { Progress } from './progress';
import { datasetFor } from '../../register/offer';
import { counted } from '../../words/count';
import { hashedOnWorker, workerCellDigests, workerFingerprints } from './hashing';

export type LoadTarget = Extract<WorkbookTarget, { kind: 'new-sheet' } | { kind: 'selection' }>;

export type OpResult =
  | { ok: true; table: string; rows: number; activity: ActivityEntry; /** A refresh's "12 added, 3 removed, 40 changed". */ changes?: string }
  | { ok: false; cancelled: boolean; message: UserMessage; activity: ActivityEntry; askOverwrite?: boolean; tableState?: TableState; /** Cells edited by hand that a refresh would overwrite: the user is asked. */ edits?: EditReport[] };

const TITLES: Record<Exclude<LoadError['code'], 'api'>, string> = {
  cancelled: 'Cancelled',
  'not-bound': 'This table has no record of where its data came from',
  'table-missing': 'The table is gone',
  'environment-mismatch': 'Connected to another environment',
  'binding-refused': 'Not stored in the workbook',
  workbook: 'The workbook could not be updated',
  'target-refused': 'The table cannot go there',
  'target-not-empty': 'The cells below the selection hold data',
  edited: 'Cells were edited by hand since the last load',
};

const isApiCode = (code: string | undefined): code is ApiErrorCode => (API_ERROR_CODES as readonly string[]).includes(code ?? '');

/** What a failed refresh left in the table: the first thing the user needs to know. */
const STATE_TITLES: Record<'mixed' | 'gone', string> = {
  mixed: 'Refresh stopped part way: the table may mix old and new rows. Refresh again',
  gone: 'The table is gone: load the dataset again',
};

/** What a cancelled refresh, or one refused before it wrote, left in the table. */
const KEPT = 'The table still holds its previous data.';

/**
 * A load or refresh failure in the words the Connect screen uses for the same API error. What a failed
 * refresh left is said once: a table that still holds its last load (`intact`) is said by the Tables card,
 * with the time of that load, so only the cause is the detail here; any other state follows the cause.
 */
export function messageOf(failure: LoadError, environment: string): UserMessage {
  const after = failure.tableState === 'intact' ? '' : whatItLeft(failure);
  const detail = failure.tableState === 'intact' ? failure.message : failureText(failure);
  if (failure.tableState === 'mixed' || failure.tableState === 'gone') return { title: STATE_TITLES[failure.tableState], detail };
  if (failure.code === 'api' && isApiCode(failure.apiCode)) return describeError({ code: failure.apiCode, message: failure.message, ...(failure.relay ? { relay: failure.relay } : {}) }, environment, after);
  if (failure.code === 'api') return { title: 'The service refused the request', detail };
  return { title: TITLES[failure.code], detail };
}

function resultOf(outcome: LoadOutcome, base: Omit<ActivityEntry, 'outcome'>): OpResult {
  if (outcome.ok) {
    const table = outcome.table.name;
    const notes = [outcome.changes?.text, outcome.truncatedCells ? `${counted(outcome.truncatedCells, 'cell')} cut to Excel's 32,767-character limit` : undefined].filter(Boolean);
    const note = notes.length ? notes.join('; ') : undefined;
    return { ok: true, table, rows: outcome.rowCount, activity: { ...base, outcome: 'ok', table, rows: outcome.rowCount, message: note }, ...(outcome.changes ? { changes: outcome.changes.text } : {}) };
  }
  if (outcome.error.code === 'cancelled') {
    const detail = base.action === 'load' ? 'Nothing was added to the workbook.' : KEPT;
    return { ok: false, cancelled: true, message: { title: 'Cancelled', detail }, activity: { ...base, outcome: 'cancelled', message: detail } };
  }
  const grows = base.action === 'refresh' && outcome.error.code === 'target-not-empty';
  // A refresh that would grow over cells below the table is not offered Overwrite: the cells must move.
  const message = grows ? { ...messageOf(outcome.error, base.environment), title: 'The table would grow over cells below it' } : messageOf(outcome.error, base.environment);
  const askOverwrite = (outcome.error.code === 'target-not-empty' && !grows) || undefined;
  const { tableState, edits } = outcome.error;
  // The activity log has no card to say what the table holds: its entry says it.
  const logged = tableState === 'intact' ? `${messageText(message)} ${KEPT}` : messageText(message);
  return { ok: false, cancelled: false, message, activity: { ...base, outcome: 'failed', message: logged }, ...(askOverwrite ? { askOverwrite } : {}), ...(tableState ? { tableState } : {}), ...(edits ? { edits } : {}) };
}

const progressOf = (p: LoadProgress): Progress => ({ bytes: p.bytes, rows: p.rows, totalBytes: p.totalBytes, cancellable: p.cancellable });

export interface LoadRequest {
  session: Session;
  workbook: WorkbookPort;
  dataset: Dataset;
  target: LoadTarget;
  params?: { guid: string };
  /** The user agreed to overwrite the non-empty cells below the selection. */
  overwrite?: boolean;
  /** The fields the user chose to show, in order, and the ones left out (the Load panel's Columns); default all, in report order. */
  choice?: { columns: readonly string[]; leftOut: readonly string[] } | undefined;
  signal: AbortSignal;
  onProgress(progress: Progress): void;
}

/** A load or refresh that threw (the workbook failed before it could say how) as a failed outcome. */
async function settled(work: Promise<LoadOutcome>): Promise<LoadOutcome> {
  try {
    return await work;
  } catch (e) {
    return { ok: false, error: { code: 'workbook', message: `The workbook could not be read or changed: ${e instanceof Error ? e.message : String(e)}` } };
  }
}

export async function loadIntoWorkbook(r: LoadRequest): Promise<OpResult> {
  const environment = r.session.environment.name;
  const outcome = await settled(loadDataset({
    client: hashedOnWorker(r.session.client),
    workbook: r.workbook,
    datasetId: r.dataset.id,
    environment,
    source: r.session.source,
    target: r.target,
    params: r.params,
    overwrite: r.overwrite,
    ...(r.choice ? { columns: r.choice.columns, leftOut: r.choice.leftOut } : {}),
    signal: r.signal,
    onProgress: (p) => r.onProgress(progressOf(p)),
    fingerprints: workerFingerprints,
    cellDigests: workerCellDigests,
  }));
  return resultOf(outcome, { at: new Date(), action: 'load', environment, subject: r.dataset.id, title: r.dataset.title });
}

export interface RefreshRequest {
  session: Session;
  workbook: WorkbookPort;
  table: string;
  dataset: string;
  /** The user saw the hand-edited cells and said overwrite them. */
  overwriteEdits?: boolean;
  /** Mark the cells the refresh changed. */
  highlightChanges?: boolean;
  signal: AbortSignal;
  onProgress(progress: Progress): void;
}

/** A load record may name a dataset this catalogue no longer has: the id is then all there is to show. */
function titleOf(datasetId: string): string {
  return datasetFor(catalog, datasetId)?.title ?? datasetId;
}

export async function refreshInWorkbook(r: RefreshRequest): Promise<OpResult> {
  const environment = r.session.environment.name;
  const outcome = await settled(
    refreshTable({
      client: hashedOnWorker(r.session.client),
      workbook: r.workbook,
      table: r.table,
      environment,
      source: r.session.source,
      overwriteEdits: r.overwriteEdits ?? false,
      highlightChanges: r.highlightChanges ?? false,
      signal: r.signal,
      onProgress: (p) => r.onProgress(progressOf(p)),
      fingerprints: workerFingerprints,
    }),
  );
  return resultOf(outcome, { at: new Date(), action: 'refresh', environment, subject: r.dataset, title: titleOf(r.dataset), table: r.table });
}
