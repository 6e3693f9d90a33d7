import { catalog as defaultCatalog, type Catalog, type Dataset, type PathParams } from '../catalog';
import type { DataRecord } from '../client';
import { columnSpecs, createRowConverter, withExtraFields, type Column, type RowConverter } from '../sheet';
import { firstLoadPlan, refreshPlan, unknownFields, type ColumnPlan } from './columnplan';
import { arrangeNewTable, WidthMeter } from './layout';
import type { Fingerprinter } from './fingerprint';
import { describeChanges, type ChangeSummary, type FieldChange, type TableRows } from './changes';
import { readBeforeRefresh, type BeforeRefresh } from './refreshread';
import { changeRows, writeChanges } from './changesheet';
import { makeCellPrint, rowPrinter, rowPrints, type CellPrint, type EditedCell, type RowPrints, type TextDigest } from './tableprint';
import { checkBinding, readBindings, reconcileBindings, removeBinding, saveBinding, type Binding } from './bindings';
import { MAX_COLUMNS, MAX_ROWS, cellAddress, parseCell, sheetCell } from '../workbook/address';
import { WorkbookError, cleanSheetName, isWorkbookError, uniqueName } from '../workbook/errors';
import { dateColumns, evidenceOf, loadTotaller, totalsOfRows, type DownloadEvidence } from '../evidence/record';
import { recordEvidence } from '../evidence/sheet';
import type { Cell, TableShape, TargetInfo, WorkbookPort, WriteStats } from '../workbook/port';
import { openDataset } from '../register/open';
import { registerOf } from '../register/registers';

export type { DataRecord };

/**
 * Loading a dataset into a table and refreshing it.
 *
 * A first load streams: the table is created with its header at once and each batch the client hands
 * over is written as it arrives, so the first rows show early. If it is cancelled or fails, the partial
 * table (and the sheet made for it) is removed: no half table that looks complete.
 *
 * A refresh downloads everything first and only then replaces the rows. Cancel and network failures
 * happen during the download, so they leave the old data untouched; a staging sheet would give the same
 * guarantee at the cost of writing every row twice to Excel, which is the slow part. Once the download
 * is complete the replacement runs to the end (cancel is no longer taken), and the binding is updated
 * only after it succeeded.
 */

/** What `load` needs of the client (`GrcClient.download`, docs/contracts.md). */
export interface DatasetSource {
  download(
    datasetId: string,
    options: {
      params?: PathParams;
      signal?: AbortSignal;
      onProgress?(p: { bytes: number; records: number; totalBytes?: number }): void;
      /** The download waits for a returned promise: how a slow workbook holds the stream back. */
      onBatch?(records: DataRecord[]): void | Promise<void>;
      /** false: no relay statement is fetched for this read (a register's parts). */
      evidence?: boolean;
    },
  ): Promise<{ bytes: number; count: number; evidence?: DownloadEvidence }>;
}

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
  message: string;
  /** The client's error code when code is 'api' (invalid-credentials, forbidden, unreachable ...). */
  apiCode?: string;
  table?: string;
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

export interface LoadSuccess {
  ok: true;
  table: TableShape;
  binding: Binding;
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

export type LoadTarget = { kind: 'new-sheet' } | { kind: 'selection' } | { kind: 'table'; name: string };

interface Common {
  client: DatasetSource;
  workbook: WorkbookPort;
  /** The environment the client talks to (as the relay names it). */
  environment: string;
  /** Where the client fetches through, recorded in the binding for readers of the file. */
  source?: string;
  signal?: AbortSignal;
  onProgress?(p: LoadProgress): void;
  catalog?: Catalog;
  /**
   * Makes a fingerprint of each load's records (fingerprint.ts), kept in the table's binding. The host
   * passes it with the hash it has: node:crypto in the CLI; without it no fingerprint is recorded.
   */
  fingerprints?: () => Fingerprinter;
  /** SHA-256 for the cell fingerprints (tableprint.ts): node:crypto in Node; the built-in Sha256 otherwise. */
  digest?: TextDigest;
}

export interface LoadOptions extends Common {
  datasetId: string;
  params?: PathParams;
  target: LoadTarget;
  /** Loading at the selection may overwrite non-empty cells below it: the user said yes. */
  overwrite?: boolean;
  /** The record fields to show, in this order (the user's choice, columnplan.ts); default all, as a report orders them. */
  columns?: readonly string[];
  /** With `columns`: the fields the user left out; the record's other fields are shown too. Without it, only `columns`. */
  leftOut?: readonly string[];
  /** A new table's name (default `tbl_<dataset>`, numbered when taken) and new sheet's name (default the dataset's title). */
  names?: { table?: string; sheet?: string };
}

/** A load refused because of where it would go: a value for the user, not a failure of Excel. */
class Refusal extends Error {
  constructor(
    readonly code: 'target-refused' | 'target-not-empty',
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY_ROWS = (headerRow: number) => MAX_ROWS - headerRow - 1;
const n = (x: number) => x.toLocaleString('en-US');

/**
 * The refusal of a dataset with more rows than fit below its header row: the count, the room, and what
 * to do. The service sends no count before the rows (no paging, no total), so the count is what the
 * download counted to its end.
 */
export function tooManyRowsMessage(count: number, sheet: string, anchor: string): string {
  const header = parseCell(anchor).row;
  const room = MAX_BODY_ROWS(header);
  const what = `The dataset has ${n(count)} rows, more than the ${n(room)} that fit below ${sheet}!${anchor} (Excel's sheets end at row ${n(MAX_ROWS)}).`;
  if (count <= MAX_BODY_ROWS(0)) {
    return `${what} Select a cell in row ${n(MAX_ROWS - count)} or above, or load it into a new sheet.`;
  }
  return `${what} No sheet can hold it: take it outside the grid (Power Query into the Data Model through the relay's URL has no row limit), or ask the service's administrator for a smaller dataset.`;
}

/** Refuses, before the download, a place that cannot take the table or that holds data the user has not agreed to lose. */
async function checkTarget(workbook: WorkbookPort, sheet: string, anchor: string, width: number, askBeforeOverwriting: boolean): Promise<TargetInfo> {
  const { col } = parseCell(anchor);
  if (col + width > MAX_COLUMNS) {
    throw new Refusal('target-refused', `A table of ${width} columns at ${sheet}!${anchor} would pass Excel's last column (XFD). Select a cell further left, or load into a new sheet.`);
  }
  const info = await workbook.inspectTarget(sheet, anchor, width);
  if (info.protected) {
    throw new Refusal('target-refused', `Sheet ${sheet} is protected, so the table cannot be written there. Unprotect it (Review > Unprotect Sheet), or load into a new sheet.`);
  }
  if (info.tables.length) {
    throw new Refusal('target-refused', `Table ${info.tables.join(', ')} is in the way: a table at ${sheet}!${anchor} would run into it as it grows. Select a cell below or beside it with free columns, or load into a new sheet.`);
  }
  if (info.used && askBeforeOverwriting) {
    throw new Refusal('target-not-empty', `Cells ${sheet}!${info.used} hold data that the table at ${anchor} would overwrite. Overwrite them, select an empty area, or load into a new sheet.`);
  }
  return info;
}

/**
 * The table's name, `tbl_<dataset>`. Table names and defined names are one namespace in Excel. A second
 * table of the same dataset (other parameters, another place) is numbered: `tbl_risk_2` says what it is.
 * Anything else holding the name is refused, because numbering around it would leave a `tbl_risk` that is
 * not the risk dataset next to a `tbl_risk_2` that is, and formulas or queries written against the name
 * would silently read the wrong data.
 */
async function freeTableName(workbook: WorkbookPort, datasetId: string, title: string, place: TargetInfo, given?: string): Promise<string> {
  const wanted = given ?? tableNameFor(datasetId);
  const same = (n: string) => n.toLowerCase() === wanted.toLowerCase();
  const definedName = place.names.find(same);
  if (definedName) {
    throw new Refusal(
      'target-refused',
      `The workbook has a defined name ${definedName}, and Excel keeps defined names and table names in one list, so the ${title} table cannot be called ${wanted}. Rename or delete that name (Formulas > Name Manager), then load again.`,
    );
  }
  const tables = await workbook.listTables();
  const holder = tables.find((t) => same(t.name));
  if (holder && (await readBindings(workbook)).get(holder.name)?.datasetId !== datasetId) {
    throw new Refusal(
      'target-refused',
      `Table ${holder.name} on sheet ${holder.sheet} is not a ${title} table loaded by this add-in, so the new table cannot take its name. Rename that table (Table Design > Table Name), then load again.`,
    );
  }
  // A name the user gave is theirs to keep: taken, it is refused rather than numbered.
  if (given && holder) throw new Refusal('target-refused', `The workbook already has a table ${holder.name} (sheet ${holder.sheet}). Give another table name, or refresh that table.`);
  const taken = new Set([...tables.map((t) => t.name), ...place.names].map((n) => n.toLowerCase()));
  return uniqueName(wanted, (n) => taken.has(n.toLowerCase()));
}

export interface RefreshOptions extends Common, ChangeOptions {
  table: string;
}

export interface ChangeOptions {
  /** Cells edited by hand since the last load are overwritten: the user was told which and said yes. */
  overwriteEdits?: boolean;
  /** Marks the cells the refresh changed (warning fill, the old value in a note) and the added records' keys. */
  highlightChanges?: boolean;
}

/** Rows the download may hand over ahead of the workbook before it has to wait. */
export const MAX_BUFFERED_ROWS = 20_000;

const addStats = (a: WriteStats, b: WriteStats): WriteStats => ({ syncs: a.syncs + b.syncs, maxPayloadBytes: Math.max(a.maxPayloadBytes, b.maxPayloadBytes) });
const NO_WRITES: WriteStats = { syncs: 0, maxPayloadBytes: 0 };

/** Excel table names: letters, digits, underscores and periods, starting with a letter or underscore. */
export function tableNameFor(datasetId: string): string {
  return `tbl_${datasetId.replace(/[^A-Za-z0-9_.]/g, '_')}`.slice(0, 250);
}

function toLoadError(e: unknown, signal: AbortSignal | undefined, table?: string): LoadError {
  const err = e as { name?: string; code?: string; message?: string };
  if (signal?.aborted || err?.code === 'cancelled' || err?.name === 'AbortError') {
    return { code: 'cancelled', message: 'Cancelled.', table };
  }
  if (err?.name === 'ApiError' && typeof err.code === 'string') {
    return { code: 'api', apiCode: err.code, message: err.message ?? 'The service refused the request.', table };
  }
  if (e instanceof Refusal) return { code: e.code, message: e.message, table };
  if (isWorkbookError(e)) return { code: 'workbook', message: e.message, table };
  return { code: 'workbook', message: `Unexpected error: ${err?.message ?? String(e)}`, table };
}

/** Rows converted batch by batch; the column model grows when the service sends fields we do not know. */
class RowBuilder {
  columns: readonly Column[];
  private converter: RowConverter;
  private truncatedBefore = 0;
  constructor(
    columns: readonly Column[],
    private readonly plan: { dress: (c: Column) => Column; skip: ReadonlySet<string> },
  ) {
    this.columns = columns;
    this.converter = createRowConverter(columns);
  }
  /** Converts a batch; returns the columns that appeared in it (already part of `columns`). */
  add(records: readonly DataRecord[]): { rows: Cell[][]; added: Column[] } {
    const before = this.columns.length;
    const next = withExtraFields(this.columns, records, this.plan.dress, this.plan.skip);
    if (next !== this.columns) {
      this.truncatedBefore += this.converter.truncated;
      this.columns = next;
      this.converter = createRowConverter(next);
    }
    return { rows: records.map((r) => this.converter.convert(r)), added: this.columns.slice(before) };
  }
  get truncated() {
    return this.truncatedBefore + this.converter.truncated;
  }
}

/** Links the caller's signal to one we can also abort (when writing to the workbook fails mid-download). */
function linkedAbort(signal?: AbortSignal): AbortController {
  const ctl = new AbortController();
  if (signal?.aborted) ctl.abort(signal.reason);
  else signal?.addEventListener('abort', () => ctl.abort(signal.reason), { once: true });
  return ctl;
}

export async function loadDataset(options: LoadOptions): Promise<LoadOutcome> {
  const { target } = options;
  if (target.kind === 'table') {
    const existing = await options.workbook.findTable(target.name);
    if (!existing) return { ok: false, error: { code: 'table-missing', table: target.name, message: `There is no table named ${target.name} to load into.` } };
    return replaceTable(options, existing, { datasetId: options.datasetId, params: options.params ?? {}, columns: [] });
  }
  return firstLoad(options, target);
}

async function firstLoad(options: LoadOptions, target: { kind: 'new-sheet' } | { kind: 'selection' }): Promise<LoadOutcome> {
  const { workbook, datasetId, signal, onProgress } = options;
  const cat = options.catalog ?? defaultCatalog;
  const params = options.params ?? {};
  let createdSheet: string | null = null;
  let table: TableShape | null = null;
  let writes = NO_WRITES;
  const progress: LoadProgress = { phase: 'preparing', bytes: 0, rows: 0, cancellable: true };
  const report = (p: Partial<LoadProgress>) => onProgress?.(Object.assign(progress, p));
  const fp = options.fingerprints?.();
  let printer = null as ReturnType<typeof rowPrinter> | null;
  let totals = null as ReturnType<typeof loadTotaller> | null;
  // Made once the dataset is open (a register's record comes from its custom field definitions).
  let plan = null as ColumnPlan | null;
  const bindingOf = (table: string, rowCount: number, columns: readonly Column[], tableId?: string): Binding => ({
    table,
    ...(tableId ? { tableId } : {}),
    environment: options.environment,
    source: options.source ?? '',
    datasetId,
    params,
    loadedAt: new Date().toISOString(),
    rowCount,
    columns: columns.map((c) => c.name),
    ...plan?.record(columns),
  });
  // Refuse before anything is written, not after a long download.
  const precheck = checkBinding(bindingOf(tableNameFor(datasetId), 0, []));
  if (!precheck.ok) return { ok: false, error: { code: precheck.code, message: precheck.message } };
  try {
    report({});
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    // A register reads its custom field definitions here, so its columns are known before the table is made.
    const { dataset, client } = await openDataset(cat, options.client, datasetId, signal);
    const chosenUnknown = unknownFields(dataset.record, options.columns ?? []);
    if (chosenUnknown.length) throw new WorkbookError('bad-argument', `${dataset.title} has no field ${chosenUnknown.join(', ')}; its fields are ${Object.keys(dataset.record.shape).join(', ')}.`);
    const opened = firstLoadPlan(dataset.record, options.columns, options.leftOut);
    plan = opened;
    const builder = new RowBuilder(opened.columns, opened);
    const widths = new WidthMeter(builder.columns);
    // Made at the first batch, with the fields the service sends that the catalogue does not know (or at
    // the end, for an empty answer).
    let printsMade = false;
    const makePrints = () => {
      printsMade = true;
      const names = builder.columns.map((c) => c.name);
      printer = rowPrinter(names, names, opened.keys(builder.columns), options.digest, names, dateColumns(builder.columns));
      totals = loadTotaller(builder.columns);
    };
    let sheet: string;
    let anchor: string;
    if (target.kind === 'new-sheet') {
      sheet = createdSheet = await workbook.addSheet(cleanSheetName(options.names?.sheet ?? dataset.title), { activate: true });
      anchor = 'A1';
    } else {
      const sel = await workbook.selection();
      sheet = sel.sheet;
      anchor = sel.address.split(':')[0]!;
    }
    const place = await checkTarget(workbook, sheet, anchor, builder.columns.length, target.kind === 'selection' && !options.overwrite);
    const name = await freeTableName(workbook, datasetId, dataset.title, place, options.names?.table);
    const at = parseCell(anchor);
    table = await workbook.createTable({ name, sheet, anchor, columns: columnSpecs(builder.columns) });
    const created = table;

    // Rows wait in a buffer while a write is in flight and go together in the next one: when the host
    // is slower than the network (Excel, where each write costs round trips), batches coalesce into
    // fewer, larger writes. Past MAX_BUFFERED_ROWS the download waits (backpressure); a failed write
    // stops it.
    const ctl = linkedAbort(signal);
    let buffer: Cell[][] = [];
    let bufferAdded: Column[] = [];
    let writing: Promise<void> | null = null;
    let writeError: unknown = null;
    let written = 0;
    let received = 0;
    // Past the sheet's edge nothing more is converted or written: the rest of the download is only
    // counted (records dropped as they come), so the refusal can say how many rows the dataset has.
    let overflow = false;
    const drain = async () => {
      while (buffer.length && !writeError) {
        const rows = buffer;
        const added = bufferAdded;
        buffer = [];
        bufferAdded = [];
        try {
          if (added.length) await workbook.addColumns(created.name, columnSpecs(added));
          writes = addStats(writes, await workbook.writeRows(created.name, written, rows));
          written += rows.length;
          report({ phase: 'writing', rows: written });
        } catch (e) {
          writeError = e;
          ctl.abort(e);
        }
      }
      writing = null; // set in the same turn as the empty-buffer check, so no batch is stranded
    };
    const onBatch = (records: DataRecord[]): Promise<void> | undefined => {
      if (writeError) return undefined;
      if (overflow || received + records.length > MAX_BODY_ROWS(at.row)) {
        // The size is known only as the data arrives: from the batch that passes the edge on, nothing
        // is written; what was written is removed with the partial table when the download has ended.
        overflow = true;
        buffer = [];
        bufferAdded = [];
        received += records.length;
        return undefined;
      }
      fp?.add(records);
      const { rows, added } = builder.add(records);
      // Fields the catalogue does not know that appear after the first batch change the columns mid-load:
      // no cell print this time.
      if (!printsMade) makePrints();
      else if (added.length) {
        printer = null;
        totals = null;
      }
      printer?.addRows(rows);
      if (totals) for (const r of rows) totals.add(r);
      widths.add(builder.columns, rows);
      if (at.col + builder.columns.length > MAX_COLUMNS) {
        writeError = new Refusal('target-refused', `The dataset has more columns (${builder.columns.length}) than fit right of ${sheet}!${anchor}: Excel's sheets end at column XFD. Select a cell further left, or load into a new sheet.`);
        ctl.abort(writeError);
        return undefined;
      }
      received += rows.length;
      for (const r of rows) buffer.push(r);
      bufferAdded.push(...added);
      if (!writing && buffer.length && !writeError) writing = drain();
      return buffer.length >= MAX_BUFFERED_ROWS ? (writing ?? undefined) : undefined;
    };
    report({ phase: 'downloading' });
    let downloadError: unknown = null;
    const result = await client
      .download(datasetId, {
        params,
        signal: ctl.signal,
        onBatch,
        onProgress: (p) => report({ bytes: p.bytes, totalBytes: p.totalBytes }),
      })
      .catch((e: unknown) => {
        downloadError = e;
        return null;
      });
    while (writing) await writing;
    if (writeError) throw writeError;
    if (downloadError || !result) throw downloadError;
    if (overflow) throw new Refusal('target-refused', tooManyRowsMessage(received, sheet, anchor));
    if (written !== received) throw new WorkbookError('host', `Only ${written} of ${received} rows reached the workbook.`);
    if (signal?.aborted) throw signal.reason;

    if (!printsMade) makePrints();
    await arrangeNewTable(workbook, created.name, widths.widths(builder.columns), createdSheet !== null);
    const shape = (await workbook.findTable(created.name)) ?? created;
    const saved = await saveBinding(workbook, { ...bindingOf(shape.name, written, builder.columns, shape.id ?? created.id), ...(fp ? { fingerprint: fp.done() } : {}), ...(printer ? { cells: makeCellPrint(printer.prints(), opened.keys(builder.columns), options.digest, dateColumns(builder.columns)) } : {}), ...(totals ? { evidence: evidenceOf(totals.done(), result.evidence) } : {}) });
    if (!saved.ok) throw new WorkbookError('bad-argument', saved.message);
    const evidenceProblem = await recordEvidence(workbook, saved.binding);
    report({ phase: 'done', bytes: result.bytes, rows: written, cancellable: false });
    return { ok: true, table: shape, binding: saved.binding, rowCount: written, truncatedCells: builder.truncated, writes, ...(evidenceProblem ? { evidenceProblem } : {}) };
  } catch (e) {
    const error = toLoadError(e, signal, table?.name);
    await removePartial(workbook, table, createdSheet);
    if (error.code !== 'cancelled' && table) error.message += ' Nothing was loaded; the partial table was removed.';
    return { ok: false, error };
  }
}

async function removePartial(workbook: WorkbookPort, table: TableShape | null, sheet: string | null): Promise<void> {
  // Best effort: the load already failed, and the error the user sees is that failure.
  try {
    if (sheet) await workbook.deleteSheet(sheet);
    else if (table) await workbook.deleteTable(table.name);
  } catch {
    /* the workbook itself is failing; the load error already says so */
  }
}

export async function refreshTable(options: RefreshOptions): Promise<LoadOutcome> {
  const { workbook, table: asked } = options;
  // Bindings follow their tables by id: a renamed table refreshes under its new name, a deleted one's
  // binding is removed here.
  const { bindings, removed } = await reconcileBindings(workbook);
  const bound = [...bindings.values()].find((b) => b.table.toLowerCase() === asked.toLowerCase() || b.tableId === asked);
  const gone = removed.find((b) => b.table.toLowerCase() === asked.toLowerCase() || b.tableId === asked);
  if (!bound && gone) {
    return {
      ok: false,
      error: { code: 'table-missing', tableState: 'gone', table: asked, message: `Table ${asked} is no longer in the workbook (it was deleted), so its record was removed. Load ${gone.datasetId} again to get the data back.` },
    };
  }
  if (!bound) {
    return { ok: false, error: { code: 'not-bound', tableState: 'intact', table: asked, message: `Table ${asked} was not loaded by grc-sheets (or its record was removed), so there is nothing to refresh it from. Load the dataset again.` } };
  }
  const name = bound.table;
  if (bound.environment !== options.environment) {
    return {
      ok: false,
      error: {
        code: 'environment-mismatch',
        tableState: 'intact',
        table: name,
        message: `Table ${name} was loaded from ${bound.environment}, but you are connected to ${options.environment}. Connect to ${bound.environment} to refresh it; nothing was changed.`,
      },
    };
  }
  if (!(options.catalog ?? defaultCatalog).datasets.some((d) => d.id === bound.datasetId) && !registerOf(bound.datasetId)) {
    return { ok: false, error: { code: 'not-bound', tableState: 'intact', table: name, message: `Table ${name} was loaded from dataset "${bound.datasetId}", which this version of grc-sheets does not know; nothing was changed.` } };
  }
  // By name: reconcileBindings has put the table's current name in the binding (found by id where the host has ids).
  const existing = await workbook.findTable(name);
  if (!existing) {
    await removeBinding(workbook, name);
    return { ok: false, error: { code: 'table-missing', tableState: 'gone', table: name, message: `Table ${name} is no longer in the workbook (it was deleted), so its record was removed. Load ${bound.datasetId} again to get the data back.` } };
  }
  return replaceTable({ ...options, datasetId: bound.datasetId }, existing, bound);
}

/** Refreshes every bound table in turn; one failure does not stop the others, a cancel does. */
export async function refreshAll(options: Omit<RefreshOptions, 'table'>): Promise<{ table: string; outcome: LoadOutcome }[]> {
  const results: { table: string; outcome: LoadOutcome }[] = [];
  for (const table of (await reconcileBindings(options.workbook)).bindings.keys()) {
    if (options.signal?.aborted) break;
    results.push({ table, outcome: await refreshTable({ ...options, table }) });
  }
  return results;
}

async function replaceTable(
  options: Common & ChangeOptions & { datasetId: string },
  existing: TableShape,
  previous: Pick<Binding, 'datasetId' | 'params' | 'columns' | 'fields' | 'omitted'> & { tableId?: string; cells?: CellPrint },
): Promise<LoadOutcome> {
  const { workbook, signal, onProgress, datasetId } = options;
  const params = previous.params;
  const progress: LoadProgress = { phase: 'downloading', bytes: 0, rows: 0, cancellable: true };
  const report = (p: Partial<LoadProgress>) => onProgress?.(Object.assign(progress, p));
  const rows: Cell[][] = [];
  const at = parseCell(existing.topLeft);
  const fp = options.fingerprints?.();
  let dataset: Dataset;
  let plan: ColumnPlan;
  let builder: RowBuilder;
  let keyColumns: string[];
  let compared: BeforeRefresh['compared'];
  let incomingPrints: RowPrints;
  let statement: DownloadEvidence | undefined;
  try {
    report({});
    if ((await workbook.inspectTarget(existing.sheet, existing.topLeft, existing.columns.length)).protected) {
      throw new Refusal('target-refused', `Sheet ${existing.sheet} is protected, so table ${existing.name} cannot be refreshed. Unprotect it (Review > Unprotect Sheet), then refresh.`);
    }
    const opened = await openDataset(options.catalog ?? defaultCatalog, options.client, datasetId, signal);
    dataset = opened.dataset;
    const client = opened.client;
    plan = refreshPlan(dataset.record, previous, existing.columns);
    builder = new RowBuilder(plan.columns, plan);
    keyColumns = plan.keys(builder.columns);
    // Too many rows is known while downloading: from there on the rows are dropped, not held, and the
    // rest is only counted, so the refusal says how many there are.
    let count = 0;
    const downloaded = await client.download(datasetId, {
      params,
      ...(signal ? { signal } : {}),
      onBatch: (records) => {
        count += records.length;
        if (count > MAX_BODY_ROWS(at.row)) {
          rows.length = 0;
          return;
        }
        fp?.add(records);
        for (const r of builder.add(records).rows) rows.push(r);
        report({ rows: rows.length });
      },
      onProgress: (p) => report({ bytes: p.bytes, totalBytes: p.totalBytes }),
    });
    if (count > MAX_BODY_ROWS(at.row)) throw new Refusal('target-refused', tooManyRowsMessage(count, existing.sheet, existing.topLeft));
    if (signal?.aborted) throw signal.reason;
    const missing = builder.columns.filter((c) => !existing.columns.includes(c.name)).length;
    if (at.col + existing.columns.length + missing > MAX_COLUMNS) {
      throw new Refusal('target-refused', `The dataset's new fields would take table ${existing.name} past Excel's last column (XFD). Move the table further left, or load the dataset into a new sheet.`);
    }
    const over = await grownOver(workbook, existing, rows.length, existing.columns.length + missing);
    if (over) throw new Refusal('target-not-empty', over);
    // What the table holds now: checked against its cell print (hand edits), then compared with what comes.
    const incoming: TableRows = { columns: builder.columns.map((c) => c.name), rows };
    incomingPrints = rowPrints(incoming, incoming.columns, keyColumns, options.digest, dateColumns(builder.columns));
    statement = downloaded.evidence;
    const before = await readBeforeRefresh({
      workbook,
      table: existing,
      incoming,
      incomingPrints,
      keyColumns,
      dates: dateColumns(builder.columns),
      ...(previous.cells && !options.overwriteEdits ? { stored: { print: previous.cells, fields: previous.columns } } : {}),
      ...(options.digest ? { digest: options.digest } : {}),
      limit: CHANGE_ROWS_LIMIT,
    });
    if (before.edits) return { ok: false, error: editedError(existing, before.edits.cells, previous.cells!.count, before.edits.countNow) };
    compared = before.compared;
  } catch (e) {
    const error = toLoadError(e, signal, existing.name);
    error.tableState = 'intact';
    error.message += ` Table ${existing.name} still holds the data of its last load.`;
    return { ok: false, error };
  }

  report({ phase: 'writing', rows: 0, cancellable: false });
  try {
    const width = builder.columns.length;
    for (const r of rows) if (r.length < width) for (let i = r.length; i < width; i++) r.push(null);
    // Dataset columns go where the table has them (by name); new ones are added at the right end, after
    // any columns the user added; the user's columns are never written.
    const missing = builder.columns.filter((c) => !existing.columns.includes(c.name));
    let shape = missing.length ? await workbook.addColumns(existing.name, columnSpecs(missing)) : existing;
    const position = builder.columns.map((c) => shape.columns.indexOf(c.name));
    let writes = NO_WRITES;
    if (rows.length) writes = await workbook.writeRows(existing.name, 0, rows, position);
    // A field the dataset no longer sends: clear its old values rather than leave them looking current.
    const gone = previous.columns.filter((c) => !builder.columns.some((b) => b.name === c) && shape.columns.includes(c));
    for (const c of gone) {
      if (rows.length) writes = addStats(writes, await workbook.writeRows(existing.name, 0, rows.map(() => [null]), shape.columns.indexOf(c)));
    }
    await workbook.setRowCount(existing.name, rows.length);
    shape = (await workbook.findTable(existing.id ?? existing.name)) ?? shape;
    const changes = columnNotes(await recordChanges(workbook, shape, dataset.id, compared, keyColumns, options.highlightChanges ?? false), missing, gone);
    const cells = makeCellPrint(incomingPrints, keyColumns, options.digest, dateColumns(builder.columns));
    const saved = await saveBinding(workbook, {
      table: shape.name,
      // A host without table ids (the saved file) keeps the id Excel gave the table.
      ...(existing.id ?? previous.tableId ? { tableId: existing.id ?? previous.tableId } : {}),
      environment: options.environment,
      source: options.source ?? '',
      datasetId,
      params,
      loadedAt: new Date().toISOString(),
      rowCount: rows.length,
      columns: builder.columns.map((c) => c.name),
      ...plan.record(builder.columns),
      ...(fp ? { fingerprint: fp.done() } : {}),
      cells,
      evidence: evidenceOf(totalsOfRows(builder.columns, rows), statement),
    });
    if (!saved.ok) return { ok: false, error: { code: 'binding-refused', tableState: 'mixed', table: existing.name, message: `${saved.message} The rows were replaced, but the table's record was not updated: refresh it again.` } };
    const evidenceProblem = await recordEvidence(workbook, saved.binding);
    report({ phase: 'done', rows: rows.length });
    return { ok: true, table: shape, binding: saved.binding, rowCount: rows.length, truncatedCells: builder.truncated, writes, changes, ...(evidenceProblem ? { evidenceProblem } : {}) };
  } catch (e) {
    const error = toLoadError(e, undefined, existing.name);
    // Which of the two it is decides what the user does: refresh again, or load again.
    const still = await workbook.findTable(existing.id ?? existing.name).catch(() => undefined);
    if (still === null) {
      await removeBinding(workbook, existing.name).catch(() => undefined);
      error.tableState = 'gone';
      error.message += ` The refresh of ${existing.name} stopped because the table is no longer in the workbook; its record was removed. Load ${datasetId} again.`;
    } else {
      // The cells no longer are what the last load left: without this, the refresh that puts them right
      // would take the mixed rows for hand edits.
      await dropCellPrint(workbook, existing.name).catch(() => undefined);
      error.tableState = 'mixed';
      error.message += ` The refresh of ${existing.name} stopped while replacing rows: the table may mix old and new rows. Refresh it again to put it right.`;
    }
    return { ok: false, error };
  }
}

/**
 * What a refresh that grows the table would write over: non-empty cells, or another table, in the sheet
 * rows the table grows into (below its total row, which moves down with it), `width` columns wide. A
 * message naming them, or null. Excel's resize and a saved file's rows take those cells over without a
 * word, and Power Query inserts rows instead; neither may lose what a person typed below a report.
 */
async function grownOver(workbook: WorkbookPort, table: TableShape, rows: number, width: number): Promise<string | null> {
  const growth = Math.max(rows, 1) - Math.max(table.rowCount, 1);
  if (growth <= 0) return null;
  const at = parseCell(table.topLeft);
  let first = at.row + 1 + Math.max(table.rowCount, 1);
  let place = await workbook.inspectTarget(table.sheet, cellAddress(first, at.col), width);
  // The row below the body is the table's own total row: what it would write over starts below that.
  if (place.tables.includes(table.name)) place = await workbook.inspectTarget(table.sheet, cellAddress(++first, at.col), width);
  const last = first + growth - 1;
  const found: string[] = [];
  if (place.used) {
    const [a, b = a] = place.used.split(':');
    const from = parseCell(a!);
    const to = parseCell(b!);
    if (from.row <= last) found.push(sheetCell(table.sheet, from.row, from.col) + (to.row > from.row || to.col > from.col ? `:${cellAddress(Math.min(to.row, last), to.col)}` : ''));
  }
  for (const name of place.tables.filter((n) => n !== table.name)) {
    const other = await workbook.findTable(name);
    if (other && parseCell(other.topLeft).row <= last) found.push(`table ${name}`);
  }
  if (!found.length) return null;
  return `Table ${table.name} grows by ${growth.toLocaleString('en-US')} row${growth === 1 ? '' : 's'} with this refresh, down over ${found.join(' and ')}, which ${found.length > 1 ? 'hold' : 'holds'} data that would be overwritten. Move ${found.length > 1 ? 'them' : 'it'} further down (at least to row ${last + 2}), or move the table to a sheet of its own, then refresh again; nothing was changed.`;
}

/** The refusal that names the hand-edited cells: the user decides, then refreshes with `overwriteEdits`. */
function editedError(table: TableShape, cells: EditedCell[], countThen: number, countNow: number): LoadError {
  const at = parseCell(table.topLeft);
  const edits: EditReport[] = cells.map((c) => ({ ...c, address: sheetCell(table.sheet, at.row + 1 + c.row, at.col + table.columns.indexOf(c.field)) }));
  const show = (v: unknown) => (v === undefined ? '?' : v === null ? '(empty)' : JSON.stringify(v));
  const listed = edits
    .slice(0, 10)
    .map((e) => `${e.address} (${e.field}, ${e.key}) ${show(e.old)} -> ${show(e.now)}`)
    .join('; ');
  const rows = countThen !== countNow ? ` It had ${countThen.toLocaleString('en-US')} rows after its last load and has ${countNow.toLocaleString('en-US')} now (rows added or deleted by hand).` : '';
  const more = edits.length > 10 ? `, and ${(edits.length - 10).toLocaleString('en-US')} more` : '';
  const unsure = edits.some((e) => !e.certain) ? ' Where the old value shows as ?, the service also changed those records, so the loaded value cannot be told.' : '';
  return {
    code: 'edited',
    tableState: 'intact',
    table: table.name,
    edits,
    message: `Table ${table.name} was edited by hand since it was loaded: ${listed || 'no single cell can be named'}${more}.${rows}${unsure} A refresh overwrites these with the service's data: copy them first if they matter, then refresh with overwrite (taskpane: Overwrite and refresh; grc-sheets refresh: --overwrite-edits). Nothing was changed.`,
  };
}

/** Writes the Changes rows and, when asked, marks the changed cells; returns what the result reports. */
async function recordChanges(
  workbook: WorkbookPort,
  table: TableShape,
  dataset: string,
  compared: BeforeRefresh['compared'],
  keyColumns: readonly string[],
  highlight: boolean,
): Promise<RefreshChanges> {
  const { summary, changes, truncated } = compared;
  const any = summary.added + summary.removed + summary.fields > 0;
  const sheet = any ? await writeChanges(workbook, changeRows(changes, { time: new Date().toISOString(), table: table.name, dataset })) : null;
  if (highlight && any) {
    const keyColumn = keyColumns.find((k) => table.columns.includes(k)) ?? table.columns[0]!;
    const show = (c: FieldChange) => (c.old === null ? '(empty)' : String(c.old));
    const marks = changes
      .filter((c) => c.kind !== 'removed' && table.columns.includes(c.field || keyColumn))
      .map((c) =>
        c.kind === 'added'
          ? { row: c.row, column: keyColumn, kind: 'ok' as const, note: 'Added by the last refresh.' }
          : { row: c.row, column: c.field, kind: 'warning' as const, note: `Changed by the last refresh; was ${show(c)}.` },
      );
    await workbook.markCells(table.name, marks);
  }
  return { summary, text: describeChanges(summary), listed: changes.length, truncated, sheet, columnsAdded: [], columnsEmptied: [] };
}

/** The refresh summary says when columns came or went, so a new or emptied column is never a surprise. */
function columnNotes(changes: RefreshChanges, added: readonly Column[], emptied: readonly string[]): RefreshChanges {
  // A table loaded before many fields existed gets them all at once: the first few are named, the rest counted.
  const list = (names: readonly string[]) => {
    const shown = names.slice(0, 3).map((n) => `"${n}"`).join(', ');
    return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
  };
  const notes = [
    added.length ? `new column${added.length === 1 ? '' : 's'} ${list(added.map((c) => c.name))} added at the end` : '',
    emptied.length ? `${list(emptied)} no longer sent: kept, empty` : '',
  ].filter(Boolean);
  return { ...changes, columnsAdded: added.map((c) => c.name), columnsEmptied: [...emptied], text: [changes.text, ...notes].join('; ') };
}

async function dropCellPrint(workbook: WorkbookPort, table: string): Promise<void> {
  const b = (await readBindings(workbook)).get(table);
  if (!b?.cells) return;
  const { cells: _dropped, ...rest } = b;
  await saveBinding(workbook, rest);
}
