import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { failureText, refreshTable, type EditReport, type LoadOutcome, type LoadProgress, type RefreshChanges } from '../loading/load';
import { readLoadRecords } from '../loading/loadrecords';
import { stateAfterLoad } from '../evidence/state';
import { RECORDS_DROPPED, tablesWithoutRecords } from '../loading/dropped';
import type { Fingerprint } from '../loading/fingerprint';
import { nodeDigest, nodeFingerprints, withNodeHash } from './digest';
import { batchHeap } from './heap';
import { isFileProblem, openFileWorkbook, refuseIfOpen, replaceFile, stampOf, type FileWorkbook } from '../workbook/file';
import { keyOnCommandLine } from '../connect/key';
import { EXIT } from './exit';
import { parseOptions } from './options';
import { CONNECT_HELP, KEY_HELP, CONNECT_OPTIONS, processIo as connectIo, type ConnectIo } from '../connect/connect';
import { connectOrStop, stops } from './stops';
import { counted } from '../words/count';

const HELP = `Usage: grc-sheets refresh BOOK.xlsx --relay URL --env NAME [--table NAME] [--backup] [--json]
       grc-sheets refresh BOOK.xlsx --base-url URL --env NAME [--binding FILE] [--table NAME] [--backup] [--json]

Refreshes the tables the add-in loaded into a saved workbook, without Excel: every bound table (or only
--table NAME) is downloaded again through the same load use case as the taskpane (same columns, types and
formula-safe text) and written into the file. Only the refreshed tables' sheets and table parts (and what
must change with them) are rewritten; pivot tables, charts, styles, other sheets and the add-in's own
part are kept as they are, and pivot tables on a refreshed table rebuild when the file is next opened.

The new file is written beside the old one and renamed over it once complete: the workbook is never left
half written. A workbook open in Excel (its ~$ lock file is there) is refused. See docs/workbook.md.

Options:
${CONNECT_HELP}
  --table NAME     refresh this table only (default: every table the add-in loaded)
  --backup         keep the previous file as BOOK.bak.xlsx
  --overwrite-edits  overwrite cells edited by hand since the last load (without it such a table is
                   refused and the cells are listed: address, old -> now)
  --highlight      mark the cells the refresh changed (the old value in a note) and added records
  --json           print a summary as JSON (for schedulers)
  -h, --help       this text

${KEY_HELP}

Every refresh compares the table with what comes in, record by record, and appends what changed to the
workbook's Changes sheet ("12 added, 3 removed, 40 changed" is printed per table).

Exit codes: 0 every table refreshed and the file saved; 1 a table or the file failed, or a table was
edited by hand and --overwrite-edits was not given (the message says which; tables that refreshed are saved,
unless the file itself failed); 2 wrong options or no key.`;

export interface RefreshIo extends ConnectIo {
  /** A terminal to draw the progress line on (stderr when it is one). */
  progress?: NodeJS.WriteStream;
}

const processIo = (): RefreshIo => ({ ...connectIo(), ...(process.stderr.isTTY ? { progress: process.stderr } : {}) });

/**
 * A table whose refresh stopped while replacing its rows holds old and new rows mixed: saved, the file would
 * keep them as if loaded. So the workbook is written only when some table was refreshed and none is mixed
 * (the other tables' refreshes are then not saved either: the run exits 1 and can simply be run again).
 */
export function worthSaving(outcomes: readonly LoadOutcome[]): boolean {
  return outcomes.some((o) => o.ok) && !outcomes.some((o) => !o.ok && o.error.left === 'stopped-mixed');
}
const MIXED_NOT_SAVED =
  "The refresh stopped while replacing the table's rows, so the workbook was not written (nor the other tables' refreshes): run the refresh again.";

interface TableSummary {
  table: string;
  ok: boolean;
  rows?: number;
  fingerprint?: Fingerprint;
  truncatedCells?: number;
  changes?: RefreshChanges;
  /** Signed by the relay or not, as the Tables card says it (src/evidence/state.ts); and an Evidence sheet that could not be written. */
  evidence?: string;
  evidenceProblem?: string;
  error?: { code: string; message: string; edits?: EditReport[] };
}

export async function run(argv: string[], io: RefreshIo = processIo()): Promise<number> {
  batchHeap();
  const refused = keyOnCommandLine(argv);
  if (refused) {
    io.stderr(`grc-sheets refresh: ${refused}`);
    return EXIT.usage;
  }
  const values = parseOptions('refresh', HELP, () => {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...CONNECT_OPTIONS, table: { type: 'string' }, backup: { type: 'boolean', default: false }, 'overwrite-edits': { type: 'boolean', default: false }, highlight: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  const { usage, failed } = stops('refresh', HELP, io);
  const { positionals, ...options } = values;
  if (positionals.length !== 1) return usage('give exactly one workbook file (BOOK.xlsx)');
  const path = resolve(positionals[0]!);
  if (!existsSync(path)) return usage(`there is no file ${positionals[0]}`);

  const connection = await connectOrStop(options, io, { usage, failed });
  if (typeof connection === 'number') return connection;

  let workbook: FileWorkbook;
  let stamp;
  try {
    refuseIfOpen(path);
    stamp = stampOf(path);
    workbook = openFileWorkbook(path);
  } catch (e) {
    if (isFileProblem(e)) return failed(e.message);
    throw e;
  }

  const started = Date.now();
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('stopped'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const line = progressLine(io.progress);
  const summaries: TableSummary[] = [];
  let saved = false;
  let backup: string | undefined;
  try {
    const records = await readLoadRecords(workbook);
    if (!records.size) {
      const orphans = await tablesWithoutRecords(workbook);
      if (orphans.length) {
        const named = orphans.length === 1 ? `Table ${orphans[0]} looks` : `Tables ${orphans.join(', ')} look`;
        return failed(`${named} loaded by grc-sheets, but ${RECORDS_DROPPED}, so there is nothing to refresh. Load the dataset again in the add-in, or refresh a copy saved by Excel before that tool saved it.`);
      }
      return failed(`no table in ${positionals[0]} was loaded by grc-sheets (the workbook holds no load records of the add-in), so there is nothing to refresh.`);
    }
    if (options.table && ![...records.values()].some((b) => b.table.toLowerCase() === options.table!.toLowerCase())) {
      const tables = await workbook.listTables();
      const known = tables.some((t) => t.name.toLowerCase() === options.table!.toLowerCase());
      return failed(
        known
          ? `table ${options.table} is in the workbook but was not loaded by grc-sheets; the loaded tables are ${[...records.keys()].join(', ')}.`
          : `the workbook has no table ${options.table}; the loaded tables are ${[...records.keys()].join(', ')}.`,
      );
    }
    const common = {
      client: withNodeHash(connection.client),
      workbook,
      environment: connection.environment,
      source: connection.source,
      catalog: connection.bound.catalog,
      signal: abort.signal,
      fingerprints: nodeFingerprints,
      digest: nodeDigest,
      overwriteEdits: options['overwrite-edits'],
      highlightChanges: options.highlight,
    };
    const results: { table: string; outcome: LoadOutcome }[] = [];
    // One table after another, as Refresh all does; a failure does not stop the others, Ctrl-C does.
    for (const table of options.table ? [options.table] : [...records.keys()]) {
      if (abort.signal.aborted) break;
      results.push({ table, outcome: await refreshTable({ ...common, table, onProgress: (p) => line.show(table, p) }) });
    }
    for (const { table, outcome } of results) {
      summaries.push(
        outcome.ok
          ? { table: outcome.table.name, ok: true, rows: outcome.rowCount, truncatedCells: outcome.truncatedCells, ...(outcome.record.fingerprint ? { fingerprint: outcome.record.fingerprint } : {}), ...(outcome.changes ? { changes: outcome.changes } : {}), evidence: stateAfterLoad(outcome.record).text, ...(outcome.evidenceProblem ? { evidenceProblem: outcome.evidenceProblem } : {}) }
          : { table, ok: false, error: { code: outcome.error.code, message: outcome.error.left === 'stopped-mixed' ? `${outcome.error.message} ${MIXED_NOT_SAVED}` : failureText(outcome.error), ...(outcome.error.edits ? { edits: outcome.error.edits } : {}) } },
      );
    }
    if (abort.signal.aborted) return failed(`stopped before the workbook was written; ${positionals[0]} was not changed.`);
    if (worthSaving(results.map((r) => r.outcome))) {
      const total = workbook.rowsToWrite();
      let written = 0;
      ({ backup } = replaceFile(
        path,
        stamp,
        (temp) => workbook.saveTo(temp, { onRow: () => ++written % 10_000 === 0 && line.writing(written, total) }),
        { backup: options.backup },
      ));
      saved = true;
    }
  } catch (e) {
    if (isFileProblem(e)) return failed(`${e.message}${saved ? '' : ` ${positionals[0]} was not changed.`}`);
    throw e;
  } finally {
    line.clear();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    workbook.close();
  }

  const seconds = (Date.now() - started) / 1000;
  if (options.json) {
    io.stdout(JSON.stringify({ file: path, environment: connection.environment, saved, ...(backup ? { backup } : {}), seconds, tables: summaries }, null, 2));
  } else {
    for (const s of summaries) {
      if (s.ok) {
        io.stdout(`${s.table}: ${counted(s.rows!, 'row')}${s.changes ? `; ${s.changes.text}` : ''}${s.truncatedCells ? ` (${s.truncatedCells} cells cut to Excel's 32,767 characters)` : ''}. ${s.evidence}`);
        if (s.evidenceProblem) io.stderr(`${s.table}: ${s.evidenceProblem}`);
      } else io.stderr(`${s.table}: ${s.error!.message}`);
    }
    io.stdout(saved ? `${positionals[0]} saved in ${seconds.toFixed(1)} s${backup ? `; the previous file is ${backup}` : ''}.` : `${positionals[0]} was not changed.`);
  }
  return summaries.every((s) => s.ok) ? EXIT.ok : EXIT.failed;
}

/** One line on a terminal, rewritten in place; nothing when stderr is not a terminal (a scheduler's log). */
function progressLine(tty: NodeJS.WriteStream | undefined) {
  let last = 0;
  const draw = (text: string) => {
    if (!tty) return;
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    tty.write(`\r\x1b[2K${text}`);
  };
  return {
    show(table: string, p: LoadProgress) {
      const mb = (p.bytes / 1e6).toFixed(1);
      draw(`${table ? `${table}: ` : ''}${p.phase === 'downloading' ? `downloading ${counted(p.rows, 'record')} (${mb} MB)` : p.phase}`);
    },
    writing(rows: number, total: number) {
      draw(`writing the workbook: ${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`);
    },
    clear() {
      if (tty && last) tty.write('\r\x1b[2K');
    },
  };
}
