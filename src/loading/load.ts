/**
 * Loading a dataset into a table and refreshing it: the module's face. The parts are
 * - firstload.ts: a first load (streams into a new table; a failed one leaves nothing);
 * - refresh.ts: a refresh (downloads, compares, then replaces the rows; the table record after);
 * - refreshchanges.ts: what a refresh changed (the Changes sheet, marked cells, the summary);
 * - target.ts: where a table goes (room on the sheet, cells and names in the way, the table's name);
 * - rows.ts: records converted to rows, and the write counts;
 * - options.ts and outcome.ts: what a load takes and what it ends with (a code and the facts);
 * - leftwords.ts: what a failure left, in words, for the screens that show it.
 * The evidence kept with each load is made in src/evidence (record.ts, sheet.ts).
 */

export type { DataRecord } from '../client';
export type { DatasetSource, LoadTarget, LoadCommon, LoadOptions, RefreshOptions, ChangeOptions } from './options';
export { CHANGE_ROWS_LIMIT, type EditReport, type FailureLeft, type LoadError, type LoadErrorCode, type LoadOutcome, type LoadPhase, type LoadProgress, type LoadSuccess, type RefreshChanges, type TableState } from './outcome';
export { failureText, whatItLeft } from './leftwords';
export { tableNameFor, tooManyRowsMessage } from './target';
export { MAX_BUFFERED_ROWS, loadDataset } from './firstload';
export { refreshAll, refreshTable } from './refresh';
