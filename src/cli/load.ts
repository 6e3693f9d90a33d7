import { existsSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Dataset } from '../catalog';
import { keyOnCommandLine } from '../connect/key';
import { CONNECT_HELP, KEY_HELP, CONNECT_OPTIONS, processIo, type ConnectIo } from '../connect/connect';
import { EnvironmentError, openEnvironment, type EnvironmentSource } from '../connect/open';
import { BindingFileError } from '../binding/load';
import { RelayConfigError } from '../relay/config';
import { failureText, loadDataset } from '../loading/load';
import { cleanSheetName } from '../workbook/errors';
import { isFileProblem, openFileWorkbook, refuseIfOpen, replaceFile, stampOf, writeEmptyWorkbook, type FileWorkbook } from '../workbook/file';
import { nodeDigest, nodeFingerprints, withNodeHash, nodeLineDigests } from './digest';
import { batchHeap } from './heap';
import { likelyMeant } from '../writeback/checks/closest';
import { datasetFor, offeredDatasets } from '../register/offer';
import { registerOf } from '../register/registers';
import { connectOrStop, stops } from './stops';
import { EXIT } from './exit';
import { parseOptions } from './options';
import { counted } from '../words/count';

const HELP = `Usage: grc-sheets load BOOK.xlsx --dataset ID --relay URL --env NAME [--table NAME] [--sheet NAME] [--columns F,G]
       grc-sheets load BOOK.xlsx --dataset ID --base-url URL --env NAME [--binding FILE] ...
       grc-sheets load --list --relay URL --env NAME

Loads a dataset into a new table on a new sheet of BOOK.xlsx (made when it does not exist), as the add-in's
Load does: headers in words, the identifier and name first and GUID columns last, dates, numbers and yes/no
typed, columns as wide as their content, the header row frozen. The table's record (where it came from, its
columns, its fingerprint) is stored in the workbook, so grc-sheets refresh, grc-sheets verify and the add-in
all know the table. Prints the table's name. Other sheets of an existing workbook are kept as they are.

Options:
${CONNECT_HELP}
  --dataset ID     the dataset (grc-sheets load --list shows them)
  --table NAME     the table's name (default tbl_<dataset>, numbered when a table of that dataset is there)
  --sheet NAME     the new sheet's name (default the dataset's title)
  --columns F,G    only these record fields, in this order (the record's key is kept); default all
  --list           list the datasets the environment offers (no key needed) and stop
  --json           print what was loaded (or the list) as JSON
  -h, --help       this text

${KEY_HELP}

Exit codes: 0 the table was loaded and the file saved (or the list printed); 1 the load failed (the message
says why; the file is unchanged); 2 wrong options, an unknown dataset or no key.`;

/** Excel's rule for a table name: a letter, underscore or backslash, then letters, digits, underscores and periods; not a cell address. */
const TABLE_NAME = /^[A-Za-z_\\][A-Za-z0-9_.]{0,254}$/;
const CELL_LIKE = /^(?:[A-Za-z]{1,3}\d+|[RrCc]\d*|[Rr]\d*[Cc]\d*)$/;

export async function run(argv: string[], io: ConnectIo = processIo()): Promise<number> {
  batchHeap();
  const refused = keyOnCommandLine(argv);
  if (refused) {
    io.stderr(`grc-sheets load: ${refused}`);
    return EXIT.usage;
  }
  const values = parseOptions('load', HELP, () => {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONNECT_OPTIONS,
        dataset: { type: 'string' },
        table: { type: 'string' },
        sheet: { type: 'string' },
        columns: { type: 'string' },
        list: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  const { usage, failed } = stops('load', HELP, io);
  const { positionals, ...options } = values;
  if (options.list) return list(options, io, { usage, failed });

  if (positionals.length !== 1) return usage('give exactly one workbook file (BOOK.xlsx)');
  if (!options.dataset) return usage('--dataset ID is needed (grc-sheets load --list --relay URL --env NAME lists them)');
  if (options.table !== undefined && (!TABLE_NAME.test(options.table) || CELL_LIKE.test(options.table)))
    return usage(`--table ${options.table} is not a name Excel takes for a table: start with a letter or underscore, then letters, digits, underscores or periods, and not a cell address such as A1`);
  if (options.sheet !== undefined && cleanSheetName(options.sheet) !== options.sheet)
    return usage(`--sheet ${options.sheet} is not a name Excel takes for a sheet: at most 31 characters, none of : \\ / ? * [ ]`);
  const columns = options.columns?.split(',').map((f) => f.trim()).filter(Boolean);
  const path = resolve(positionals[0]!);

  const connection = await connectOrStop(options, io, { usage, failed });
  if (typeof connection === 'number') return connection;
  const datasets = offeredDatasets(connection.bound.catalog);
  const dataset = datasetFor(connection.bound.catalog, options.dataset);
  if (!dataset) return usage(unknownDataset(options.dataset, datasets, connection.environment));
  if (dataset.unavailable) return failed(`${dataset.title} cannot be loaded from ${connection.environment}: ${dataset.unavailable.message}`);
  // A register's custom fields are known only once its definitions are read: the load checks those.
  const wrong = registerOf(options.dataset) ? [] : columns?.filter((f) => !(f in dataset.record.shape));
  if (wrong?.length) return usage(`--columns: ${dataset.title} has no field ${wrong.join(', ')}; its fields are ${Object.keys(dataset.record.shape).join(', ')}`);

  const isNew = !existsSync(path);
  // A new workbook is made beside where it goes and renamed into place once complete.
  const start = isNew ? join(dirname(path), `.${basename(path)}.grc-sheets-${process.pid}.new`) : path;
  let workbook: FileWorkbook | null = null;
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('stopped'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (isNew) writeEmptyWorkbook(start);
    else refuseIfOpen(path);
    const stamp = stampOf(start);
    workbook = openFileWorkbook(start);
    if (options.sheet && (await workbook.sheetNames()).some((s) => s.toLowerCase() === options.sheet!.toLowerCase()))
      return usage(`${positionals[0]} already has a sheet ${options.sheet}; the table goes on a new sheet: give another --sheet, or leave it out`);
    const outcome = await loadDataset({
      client: withNodeHash(connection.client),
      workbook,
      environment: connection.environment,
      source: connection.source,
      catalog: connection.bound.catalog,
      datasetId: options.dataset,
      target: { kind: 'new-sheet' },
      signal: abort.signal,
      fingerprints: nodeFingerprints,
      cellDigests: nodeLineDigests,
      digest: nodeDigest,
      ...(columns?.length ? { columns } : {}),
      names: { ...(options.table ? { table: options.table } : {}), ...(options.sheet ? { sheet: options.sheet } : {}) },
    });
    if (!outcome.ok) return failed(`${failureText(outcome.error)} ${positionals[0]} was not changed.`);
    const book = workbook;
    if (isNew) {
      const done = `${start}.xlsx`;
      book.saveTo(done);
      renameSync(done, path);
    } else replaceFile(path, stamp, (temp) => book.saveTo(temp));
    const t = outcome.table;
    if (options.json) {
      io.stdout(JSON.stringify({ file: path, created: isNew, environment: connection.environment, dataset: dataset.id, table: t.name, sheet: t.sheet, rows: outcome.rowCount, columns: t.columns, truncatedCells: outcome.truncatedCells }, null, 2));
    } else {
      io.stdout(t.name);
      io.stderr(`${dataset.title}: ${counted(outcome.rowCount, 'row')} into table ${t.name} on sheet ${t.sheet} of ${positionals[0]}${isNew ? ' (new workbook)' : ''}.`);
    }
    return EXIT.ok;
  } catch (e) {
    if (isFileProblem(e)) return failed(`${e.message} ${positionals[0]} was not changed.`);
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    workbook?.close();
    if (isNew && existsSync(start)) unlinkSync(start);
  }
}

/** The refusal of an unknown dataset id: the close ones, else where to see them all. */
function unknownDataset(given: string, datasets: readonly Dataset[], environment: string): string {
  const close = likelyMeant(
    given,
    datasets.flatMap((d) => [d.id, d.title]),
    10,
  ).map((n) => datasets.find((d) => d.id === n || d.title === n)!);
  const unique = [...new Set(close)].slice(0, 5);
  const hint = unique.length ? `did you mean ${unique.map((d) => `${d.id} (${d.title})`).join(', ')}?` : `grc-sheets load --list --env ${environment} ... lists the ${datasets.length} it offers.`;
  return `${environment} offers no dataset "${given}"; ${hint}`;
}

/** `--list`: the environment's datasets, by area; reading the list needs no key. */
async function list(
  options: { relay?: string; env?: string; 'base-url'?: string; binding?: string; 'relay-config'?: string; json?: boolean },
  io: ConnectIo,
  stop: ReturnType<typeof stops>,
): Promise<number> {
  if (!options.env) return stop.usage('--env NAME is needed with --list: the environment whose datasets to list');
  const ways = [options.relay, options['base-url'], options['relay-config']].filter(Boolean).length;
  if (ways !== 1) return stop.usage('give one of --relay URL, --base-url URL or --relay-config FILE with --list');
  const source: EnvironmentSource = options.relay
    ? { via: 'relay', relay: options.relay, name: options.env }
    : options['relay-config']
      ? { via: 'relay-config', file: options['relay-config'], name: options.env, env: io.env }
      : { via: 'direct', baseUrl: options['base-url']!, name: options.env, binding: options.binding ?? null };
  let datasets: readonly Dataset[];
  try {
    datasets = offeredDatasets((await openEnvironment(source, io.fetch)).environment.catalog);
  } catch (e) {
    if (e instanceof EnvironmentError) return stop.failed(e.message);
    if (e instanceof RelayConfigError) return stop.usage(`--relay-config: ${e.message}`);
    if (e instanceof BindingFileError) return stop.usage(`--binding ${e.message}`);
    throw e;
  }
  if (options.json) {
    io.stdout(JSON.stringify(datasets.map((d) => ({ id: d.id, title: d.title, area: d.area, description: d.description, documented: d.documented })), null, 2));
    return EXIT.ok;
  }
  const width = Math.max(...datasets.map((d) => d.id.length));
  const areas = [...new Set(datasets.map((d) => d.area))];
  const lines: string[] = [];
  for (const area of areas) {
    lines.push(`${area}:`);
    for (const d of datasets.filter((x) => x.area === area)) lines.push(`  ${d.id.padEnd(width)}  ${d.title}${d.documented ? '' : ' (path assumed)'}`);
  }
  io.stdout(`${lines.join('\n')}\n\nLoad one: grc-sheets load BOOK.xlsx --dataset ID --env ${options.env} ...`);
  return EXIT.ok;
}
