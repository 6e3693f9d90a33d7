import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renameSync, unlinkSync } from 'node:fs';
import { keyOnCommandLine } from '../connect/key';
import { FLOWS, FlowUnavailable, createTemplate, type FlowId } from '../writeback';
import { isFileProblem, openFileWorkbook, refuseIfOpen, replaceFile, stampOf, writeEmptyWorkbook, type FileWorkbook } from '../workbook/file';
import { isWorkbookError } from '../workbook/errors';
import { CONNECT_HELP, KEY_HELP, CONNECT_OPTIONS, processIo, type ConnectIo } from '../connect/connect';
import { connectOrStop, stops } from './stops';
import { writebackEnvironment } from '../environment/environment';
import { EXIT } from './exit';
import { parseOptions } from './options';

const HELP = `Usage: grc-sheets template --flow FLOW --relay URL --env NAME BOOK.xlsx
       grc-sheets template --flow FLOW --base-url URL --env NAME [--binding FILE] BOOK.xlsx

Writes the write-back template the add-in makes (New template): a sheet with an empty table whose columns
are the flow's, dropdowns filled from the environment's standing data, the result columns and the hidden
row key; into BOOK.xlsx, made when it does not exist. The workbook records the environment, and opens in
Excel with the add-in's task pane. Other sheets of an existing workbook are kept as they are.

Flows: ${FLOWS.map((f) => f.id).join(', ')}

Options:
${CONNECT_HELP}
  --flow FLOW      the write-back flow (see Flows)
  --json           print what was made as JSON
  -h, --help       this text

${KEY_HELP}

Exit codes: 0 the template was written; 1 it could not be (the message says why; the file is unchanged);
2 wrong options or no key.`;

export async function run(argv: string[], io: ConnectIo = processIo()): Promise<number> {
  const refused = keyOnCommandLine(argv);
  if (refused) {
    io.stderr(`grc-sheets template: ${refused}`);
    return EXIT.usage;
  }
  const values = parseOptions('template', HELP, () => {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...CONNECT_OPTIONS, flow: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } }, strict: true });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  const { usage, failed } = stops('template', HELP, io);
  const { positionals, ...options } = values;
  if (positionals.length !== 1) return usage('give exactly one workbook file (BOOK.xlsx)');
  const flow = FLOWS.find((f) => f.id === (options.flow as FlowId));
  if (!flow) return usage(`--flow must be one of ${FLOWS.map((f) => f.id).join(', ')}`);
  const path = resolve(positionals[0]!);

  const connection = await connectOrStop(options, io, { usage, failed });
  if (typeof connection === 'number') return connection;

  const isNew = !existsSync(path);
  // A new workbook is made beside where it goes and renamed into place once complete.
  const start = isNew ? join(dirname(path), `.${basename(path)}.grc-sheets-${process.pid}.new`) : path;
  let workbook: FileWorkbook | null = null;
  try {
    if (isNew) writeEmptyWorkbook(start);
    else refuseIfOpen(path);
    const stamp = stampOf(start);
    workbook = openFileWorkbook(start);
    const table = await createTemplate({ api: connection.client, workbook, flow, environment: writebackEnvironment(connection.bound) });
    const book = workbook;
    if (isNew) {
      const done = `${start}.xlsx`;
      book.saveTo(done);
      renameSync(done, path);
    } else replaceFile(path, stamp, (temp) => book.saveTo(temp));
    io.stdout(
      options.json
        ? JSON.stringify({ file: path, created: isNew, flow: flow.id, environment: connection.environment, table: table.name, sheet: table.sheet, columns: table.columns }, null, 2)
        : `${positionals[0]}: template ${table.name} on sheet ${table.sheet} (${table.columns.length} columns) for ${connection.environment}.`,
    );
    return EXIT.ok;
  } catch (e) {
    if (isFileProblem(e) || isWorkbookError(e) || e instanceof FlowUnavailable) return failed(`${e.message} ${positionals[0]} was not changed.`);
    if ((e as { name?: string }).name === 'ApiError') return failed(`the standing data could not be read: ${(e as Error).message} ${positionals[0]} was not changed.`);
    throw e;
  } finally {
    workbook?.close();
    if (isNew && existsSync(start)) unlinkSync(start);
  }
}
