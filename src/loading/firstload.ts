import { catalog as defaultCatalog } from '../catalog';
import type { DataRecord } from '../client';
import { columnSpecs, type Column } from '../sheet';
import { firstLoadPlan, unknownFields, type ColumnPlan } from './columnplan';
import { arrangeNewTable, WidthMeter } from './layout';
import { makeCellPrint, rowPrinter } from './tableprint';
import { checkLoadRecord, saveLoadRecord, type LoadRecord } from './loadrecords';
import { MAX_COLUMNS, parseCell } from '../workbook/address';
import { WorkbookError, cleanSheetName } from '../workbook/errors';
import { dateColumns, evidenceOf, loadTotaller } from '../evidence/record';
import { recordEvidence } from '../evidence/sheet';
import type { Cell, TableShape, WorkbookPort } from '../workbook/port';
import { openDataset } from '../register/open';
import type { LoadOptions } from './options';
import { Refusal, toLoadError, type LoadOutcome, type LoadProgress } from './outcome';
import { MAX_BODY_ROWS, checkTarget, freeTableName, tableNameFor, tooManyRowsMessage } from './target';
import { NO_WRITES, RowBuilder, addStats } from './rows';
import { replaceTable } from './refresh';

/**
 * A first load streams: the table is created with its header at once and each batch the client hands
 * over is written as it arrives, so the first rows show early. If it is cancelled or fails, the partial
 * table (and the sheet made for it) is removed: no half table that looks complete.
 */

/** Rows the download may hand over ahead of the workbook before it has to wait. */
export const MAX_BUFFERED_ROWS = 20_000;

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
  const cellLines = options.cellDigests?.();
  let printer = null as ReturnType<typeof rowPrinter> | null;
  let totals = null as ReturnType<typeof loadTotaller> | null;
  // Made once the dataset is open (a register's record comes from its custom field definitions).
  let plan = null as ColumnPlan | null;
  const recordOf = (table: string, rowCount: number, columns: readonly Column[], tableId?: string): LoadRecord => ({
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
  const precheck = checkLoadRecord(recordOf(tableNameFor(datasetId), 0, []));
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
      printer = rowPrinter(names, names, opened.keys(builder.columns), names, dateColumns(builder.columns), cellLines);
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
      // A record fingerprint hashed on a worker that is behind holds the download back, as a slow workbook does.
      const paced = fp?.add(records);
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
      const waits = [paced, cellLines?.paced(), buffer.length >= MAX_BUFFERED_ROWS ? writing : null].filter((w) => w instanceof Promise);
      return waits.length > 1 ? Promise.all(waits).then(() => undefined) : waits[0];
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
    await cellLines?.settled();
    await arrangeNewTable(workbook, created.name, widths.widths(builder.columns), createdSheet !== null);
    const shape = (await workbook.findTable(created.name)) ?? created;
    const saved = await saveLoadRecord(workbook, { ...recordOf(shape.name, written, builder.columns, shape.id ?? created.id), ...(fp ? { fingerprint: await fp.done() } : {}), ...(printer ? { cells: makeCellPrint(printer.prints(), opened.keys(builder.columns), options.digest, dateColumns(builder.columns)) } : {}), ...(totals ? { evidence: evidenceOf(totals.done(), result.evidence) } : {}) });
    if (!saved.ok) throw new WorkbookError('bad-argument', saved.message);
    const evidenceProblem = await recordEvidence(workbook, saved.record);
    report({ phase: 'done', bytes: result.bytes, rows: written, cancellable: false });
    return { ok: true, table: shape, record: saved.record, rowCount: written, truncatedCells: builder.truncated, writes, ...(evidenceProblem ? { evidenceProblem } : {}) };
  } catch (e) {
    const error = toLoadError(e, signal, table?.name);
    await removePartial(workbook, table, createdSheet);
    if (error.code !== 'cancelled' && table) error.left = 'partial-removed';
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
