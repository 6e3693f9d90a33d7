import type { RelayRefusal } from '../client';
import type { ChangeSummary } from './changes';
import type { EditedCell } from './tableprint';
import type { LoadRecord } from './loadrecords';
import { isWorkbookError } from '../workbook/errors';
import type { TableShape, WriteStats } from '../workbook/port';

/** What a load or refresh ends with, as values: a success with its counts, or a failure's code and facts. */

export type LoadPhase = 'preparing' | 'downloading' | 'writing' | 'done';
export interface LoadProgress {
  phase: LoadPhase;
  /** Response bytes received so far. */
  bytes: number;
  totalBytes?: number;
  /** Records received so far (downloading) or rows written (writing). */
  rows: number;
  /** false once a refresh is replacing rows: from then on Cancel is not taken. */
  cancellable: boolean;
}

/**
 * `target-refused`: the place cannot take the table (protected sheet, past Excel's last row or column, a
 * table in the way), found before the download or as soon as the size is known, before writing there.
 * `target-not-empty`: cells below the selected cell hold data; the user is asked, then loads again with
 * `overwrite`.
 */
export type LoadErrorCode = 'edited' | 'cancelled' | 'api' | 'not-bound' | 'table-missing' | 'environment-mismatch' | 'binding-refused' | 'workbook' | 'target-refused' | 'target-not-empty';
export interface LoadError {
  code: LoadErrorCode;
  /**
   * Why, in words: the service's or the relay's answer, Excel's, or the refusal of the place. What the
   * failure left in the workbook is not in it: `left` says that, and the screen that shows the failure
   * words it (`whatItLeft`, leftwords.ts), so no screen has to take a sentence back out.
   */
  message: string;
  /** The client's error code when code is 'api' (invalid-credentials, forbidden, unreachable ...). */
  apiCode?: string;
  /** code 'api' from a relay: its code, status and sentence (`message` is them in one line). */
  relay?: RelayRefusal;
  table?: string;
  /** The table's dataset, for "load it again". */
  datasetId?: string;
  /**
   * What the failure left, when the message does not say it:
   * - `partial-removed`: a first load made its table, then failed; the partial table (and its new sheet) was removed;
   * - `kept`: a refresh failed before it wrote; the table holds its last load;
   * - `stopped-gone`: a refresh stopped because the table went while it replaced the rows; its record was removed;
   * - `stopped-mixed`: a refresh stopped while replacing rows; old and new rows may be mixed;
   * - `record-stale`: the rows were replaced, but the table's record could not be saved.
   */
  left?: FailureLeft;
  /**
   * After a failed refresh, what the table holds: its old data untouched (`intact`), possibly old and new
   * rows mixed because the replacement stopped part way (`mixed`: refresh again), or nothing because the
   * table is no longer in the workbook (`gone`: load the dataset again).
   */
  tableState?: TableState;
  /** code 'edited': the cells edited by hand since the last load, which the refresh would overwrite. */
  edits?: EditReport[];
}

/** A hand-edited cell, where it is: `address` is Sheet!A1 as Excel shows it. */
export interface EditReport extends EditedCell {
  address: string;
}
export type TableState = 'intact' | 'mixed' | 'gone';
export type FailureLeft = 'partial-removed' | 'kept' | 'stopped-gone' | 'stopped-mixed' | 'record-stale';

export interface LoadSuccess {
  ok: true;
  table: TableShape;
  /** The table's load record as stored in the workbook (loadrecords.ts). */
  record: LoadRecord;
  rowCount: number;
  /** Cells cut to Excel's 32,767-character limit. */
  truncatedCells: number;
  writes: WriteStats;
  /** A refresh's changes against what the table held (none for a first load). */
  changes?: RefreshChanges;
  /** The Evidence sheet could not be written (the load itself succeeded): what happened. */
  evidenceProblem?: string;
}

export interface RefreshChanges {
  summary: ChangeSummary;
  /** "12 added, 3 removed, 40 changed". */
  text: string;
  /** Rows written to the Changes sheet; fewer than the changes when `truncated` (CHANGE_ROWS_LIMIT). */
  listed: number;
  /** Columns the source sends that the table lacked: added at the right end (a custom field added at the source). */
  columnsAdded: string[];
  /** Columns the source no longer sends: kept where they are, emptied (a custom field removed at the source). */
  columnsEmptied: string[];
  truncated: boolean;
  /** The Changes sheet's name; null when nothing changed. */
  sheet: string | null;
}

/** At most this many rows go to the Changes sheet per refresh; the summary counts them all. */
export const CHANGE_ROWS_LIMIT = 100_000;
export type LoadOutcome = LoadSuccess | { ok: false; error: LoadError };

/** A load refused because of where it would go: a value for the user, not a failure of Excel. */
export class Refusal extends Error {
  constructor(
    readonly code: 'target-refused' | 'target-not-empty',
    message: string,
  ) {
    super(message);
  }
}

/** Any failure of a load or refresh as the outcome's error. */
export function toLoadError(e: unknown, signal: AbortSignal | undefined, table?: string): LoadError {
  const err = e as { name?: string; code?: string; message?: string };
  if (signal?.aborted || err?.code === 'cancelled' || err?.name === 'AbortError') {
    return { code: 'cancelled', message: 'Cancelled.', table };
  }
  if (err?.name === 'ApiError' && typeof err.code === 'string') {
    const relay = (e as { relay?: RelayRefusal }).relay;
    return { code: 'api', apiCode: err.code, message: err.message ?? 'The service refused the request.', ...(relay ? { relay } : {}), table };
  }
  if (e instanceof Refusal) return { code: e.code, message: e.message, table };
  if (isWorkbookError(e)) return { code: 'workbook', message: e.message, table };
  return { code: 'workbook', message: `Unexpected error: ${err?.message ?? String(e)}`, table };
}
