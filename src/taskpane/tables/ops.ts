import { catalog, type Dataset } from '../../catalog';
import { API_ERROR_CODES, type ApiErrorCode } from '../../client';
import { loadDataset, refreshTable, type LoadError, type LoadOutcome, type LoadProgress, type LoadTarget as WorkbookTarget } from '../../workbook/load';
import type { WorkbookPort } from '../../workbook/port';
import type { ActivityEntry } from '../activity/activity';
import { describeError, messageText, type UserMessage } from '../connection/messages';
import type { Session } from '../screen';
import type { Progress } from './progress';

export type LoadTarget = Extract<WorkbookTarget, { kind: 'new-sheet' } | { kind: 'selection' }>;

export type OpResult =
  | { ok: true; table: string; rows: number; activity: ActivityEntry }
  | { ok: false; cancelled: boolean; message: UserMessage; activity: ActivityEntry };

const TITLES: Record<Exclude<LoadError['code'], 'api'>, string> = {
  cancelled: 'Cancelled',
  'not-bound': 'This table has no record of where its data came from',
  'table-missing': 'The table is gone',
  'environment-mismatch': 'Connected to another environment',
  'binding-refused': 'Not stored in the workbook',
  workbook: 'The workbook could not be updated',
};

const isApiCode = (code: string | undefined): code is ApiErrorCode => (API_ERROR_CODES as readonly string[]).includes(code ?? '');

/** A load or refresh failure in the words the Connect screen uses for the same API error. */
export function messageOf(error: LoadError, environment: string): UserMessage {
  if (error.code === 'api' && isApiCode(error.apiCode)) return describeError({ code: error.apiCode, message: error.message }, environment);
  if (error.code === 'api') return { title: 'The service refused the request', detail: error.message };
  return { title: TITLES[error.code], detail: error.message };
}

function resultOf(outcome: LoadOutcome, base: Omit<ActivityEntry, 'outcome'>): OpResult {
  if (outcome.ok) {
    const table = outcome.table.name;
    const note = outcome.truncatedCells ? `${outcome.truncatedCells} cells cut to Excel's 32,767-character limit` : undefined;
    return { ok: true, table, rows: outcome.rowCount, activity: { ...base, outcome: 'ok', table, rows: outcome.rowCount, message: note } };
  }
  if (outcome.error.code === 'cancelled') {
    const detail = base.action === 'load' ? 'Nothing was added to the workbook.' : 'The table still holds its previous data.';
    return { ok: false, cancelled: true, message: { title: 'Cancelled', detail }, activity: { ...base, outcome: 'cancelled', message: detail } };
  }
  const message = messageOf(outcome.error, base.environment);
  return { ok: false, cancelled: false, message, activity: { ...base, outcome: 'failed', message: messageText(message) } };
}

const progressOf = (p: LoadProgress): Progress => ({ bytes: p.bytes, rows: p.rows, totalBytes: p.totalBytes, cancellable: p.cancellable });

export interface LoadRequest {
  session: Session;
  workbook: WorkbookPort;
  dataset: Dataset;
  target: LoadTarget;
  params?: { guid: string };
  signal: AbortSignal;
  onProgress(progress: Progress): void;
}

export async function loadIntoWorkbook(r: LoadRequest): Promise<OpResult> {
  const environment = r.session.environment.name;
  const outcome = await loadDataset({
    client: r.session.client,
    workbook: r.workbook,
    datasetId: r.dataset.id,
    environment,
    source: r.session.source,
    target: r.target,
    params: r.params,
    signal: r.signal,
    onProgress: (p) => r.onProgress(progressOf(p)),
  });
  return resultOf(outcome, { at: new Date(), action: 'load', environment, subject: r.dataset.id, title: r.dataset.title });
}

export interface RefreshRequest {
  session: Session;
  workbook: WorkbookPort;
  table: string;
  dataset: string;
  signal: AbortSignal;
  onProgress(progress: Progress): void;
}

/** A binding may name a dataset this catalogue no longer has: the id is then all there is to show. */
function titleOf(datasetId: string): string {
  try {
    return catalog.dataset(datasetId).title;
  } catch {
    return datasetId;
  }
}

export async function refreshInWorkbook(r: RefreshRequest): Promise<OpResult> {
  const environment = r.session.environment.name;
  const outcome = await refreshTable({
    client: r.session.client,
    workbook: r.workbook,
    table: r.table,
    environment,
    source: r.session.source,
    signal: r.signal,
    onProgress: (p) => r.onProgress(progressOf(p)),
  });
  return resultOf(outcome, { at: new Date(), action: 'refresh', environment, subject: r.dataset, title: titleOf(r.dataset), table: r.table });
}
