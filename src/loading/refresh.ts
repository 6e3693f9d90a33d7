import { catalog as defaultCatalog, type Dataset } from '../catalog';
import { columnSpecs } from '../sheet';
import { refreshPlan, type ColumnPlan } from './columnplan';
import type { TableRows } from './changes';
import { readBeforeRefresh, type BeforeRefresh } from './refreshread';
import { makeCellPrint, rowPrints, type CellPrint, type EditedCell, type RowPrints } from './tableprint';
import { readLoadRecords, reconcileLoadRecords, removeLoadRecord, saveLoadRecord, type LoadRecord } from './loadrecords';
import { MAX_COLUMNS, parseCell, sheetCell } from '../workbook/address';
import { dateColumns, evidenceOf, totalsOfRows, type DownloadEvidence } from '../evidence/record';
import { recordEvidence } from '../evidence/sheet';
import type { Cell, TableShape, WorkbookPort } from '../workbook/port';
import { openDataset } from '../register/open';
import { registerOf } from '../register/registers';
import type { ChangeOptions, LoadCommon, RefreshOptions } from './options';
import { CHANGE_ROWS_LIMIT, Refusal, toLoadError, type EditReport, type LoadError, type LoadOutcome, type LoadProgress } from './outcome';
import { MAX_BODY_ROWS, grownOver, tooManyRowsMessage } from './target';
import { NO_WRITES, RowBuilder, addStats } from './rows';
import { columnNotes, recordChanges } from './refreshchanges';
import { counted } from '../words/count';

/**
 * A refresh downloads everything first and only then replaces the rows. Cancel and network failures
 * happen during the download, so they leave the old data untouched; a staging sheet would give the same
 * guarantee at the cost of writing every row twice to Excel, which is the slow part. Once the download
 * is complete the replacement runs to the end (cancel is no longer taken), and the load record is updated
 * only after it succeeded.
 */

export async function refreshTable(options: RefreshOptions): Promise<LoadOutcome> {
  const { workbook, table: asked } = options;
  // Load records follow their tables by id: a renamed table refreshes under its new name, a deleted one's
  // record is removed here.
  const { records, removed } = await reconcileLoadRecords(workbook);
  const bound = [...records.values()].find((b) => b.table.toLowerCase() === asked.toLowerCase() || b.tableId === asked);
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
  // By name: reconcileLoadRecords has put the table's current name in the load record (found by id where the host has ids).
  const existing = await workbook.findTable(name);
  if (!existing) {
    await removeLoadRecord(workbook, name);
    return { ok: false, error: { code: 'table-missing', tableState: 'gone', table: name, message: `Table ${name} is no longer in the workbook (it was deleted), so its record was removed. Load ${bound.datasetId} again to get the data back.` } };
  }
  return replaceTable({ ...options, datasetId: bound.datasetId }, existing, bound);
}

/** Refreshes every bound table in turn; one failure does not stop the others, a cancel does. */
export async function refreshAll(options: Omit<RefreshOptions, 'table'>): Promise<{ table: string; outcome: LoadOutcome }[]> {
  const results: { table: string; outcome: LoadOutcome }[] = [];
  for (const table of (await reconcileLoadRecords(options.workbook)).records.keys()) {
    if (options.signal?.aborted) break;
    results.push({ table, outcome: await refreshTable({ ...options, table }) });
  }
  return results;
}

export async function replaceTable(
  options: LoadCommon & ChangeOptions & { datasetId: string },
  existing: TableShape,
  previous: Pick<LoadRecord, 'datasetId' | 'params' | 'columns' | 'fields' | 'omitted'> & { tableId?: string; cells?: CellPrint },
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
        const paced = fp?.add(records);
        for (const r of builder.add(records).rows) rows.push(r);
        report({ rows: rows.length });
        return paced;
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
    incomingPrints = rowPrints(incoming, incoming.columns, keyColumns, dateColumns(builder.columns));
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
    error.left = 'kept';
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
    const saved = await saveLoadRecord(workbook, {
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
      ...(fp ? { fingerprint: await fp.done() } : {}),
      cells,
      evidence: evidenceOf(totalsOfRows(builder.columns, rows), statement),
    });
    if (!saved.ok) return { ok: false, error: { code: 'binding-refused', tableState: 'mixed', left: 'record-stale', table: existing.name, message: saved.message } };
    const evidenceProblem = await recordEvidence(workbook, saved.record);
    report({ phase: 'done', rows: rows.length });
    return { ok: true, table: shape, record: saved.record, rowCount: rows.length, truncatedCells: builder.truncated, writes, changes, ...(evidenceProblem ? { evidenceProblem } : {}) };
  } catch (e) {
    const error = toLoadError(e, undefined, existing.name);
    // Which of the two it is decides what the user does: refresh again, or load again.
    const still = await workbook.findTable(existing.id ?? existing.name).catch(() => undefined);
    if (still === null) {
      await removeLoadRecord(workbook, existing.name).catch(() => undefined);
      error.tableState = 'gone';
      error.left = 'stopped-gone';
      error.datasetId = datasetId;
    } else {
      // The cells no longer are what the last load left: without this, the refresh that puts them right
      // would take the mixed rows for hand edits.
      await dropCellPrint(workbook, existing.name).catch(() => undefined);
      error.tableState = 'mixed';
      error.left = 'stopped-mixed';
    }
    return { ok: false, error };
  }
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
  const rows = countThen !== countNow ? ` It had ${counted(countThen, 'row')} after its last load and has ${countNow.toLocaleString('en-US')} now (rows added or deleted by hand).` : '';
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

async function dropCellPrint(workbook: WorkbookPort, table: string): Promise<void> {
  const b = (await readLoadRecords(workbook)).get(table);
  if (!b?.cells) return;
  const { cells: _dropped, ...rest } = b;
  await saveLoadRecord(workbook, rest);
}
