import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { keyOnCommandLine } from '../connect/key';
import { describeProblem, FLOWS, markProblems, flowById, preparePost, rowsBelow, rowsBelowMessage, tableRecord, writeAudit, type AnyFlow, type FormulaText, type RunSummary } from '../writeback';
import { firstBodyRow } from '../workbook/address';
import type { WorkbookPort } from '../workbook/port';
import { isWorkbookError } from '../workbook/errors';
import { isFileProblem, openFileWorkbook, refuseIfOpen, replaceFile, stampOf, type FileStamp, type FileWorkbook } from '../workbook/file';
import { CONNECT_HELP, KEY_HELP, CONNECT_OPTIONS, processIo, type ConnectIo } from '../connect/connect';
import { connectOrStop, stops } from './stops';
import { withProduction, writebackEnvironment } from '../environment/environment';
import { EXIT } from './exit';
import { parseOptions } from './options';
import { postedJson, stoppedJson, validatedJson, type PostJsonBase } from './post-json';
import { knownProduction, unknownProductionMessage } from '../connect/production';
import { counted } from '../words/count';

const HELP = `Usage: grc-sheets post BOOK.xlsx --table NAME --relay URL --env NAME [OPTIONS]
       grc-sheets post BOOK.xlsx --table NAME --relay-config FILE --env NAME [OPTIONS]
       grc-sheets post BOOK.xlsx --table NAME --base-url URL --env NAME [--binding FILE] [OPTIONS]
OPTIONS: [--dry-run] [--yes] [--yes-production] [--formula-text as-typed|quote] [--backup] [--json]

Validates and posts a write-back template table of a saved workbook (one made by the add-in's New
template or by grc-sheets template), without Excel: the same flows, checks, runner and exactly-once
reconciliation as the add-in's Post. Each row's result (Result, Result GUID, Message, the hidden row key
and state) and the marks of problem cells is written into the file as it comes. The file is saved
(temporary file + rename) with rows marked "sending" before they are sent, and their outcomes with the
next rows' marks, at least every second and at the end: a post stopped in any way and run again never
creates a record twice.

Options:
${CONNECT_HELP}
  --table NAME     the template table to post
  --dry-run        validate only: list the problems (row, column, fix) and mark their cells in the file
                   (red: error, amber: warning), as the add-in's Validate; nothing is sent
  --yes            post although the add-in would ask to confirm (the message says why: a path the service's
                   documentation does not show, another environment than the table was filled for, production)
  --yes-production needed, besides --yes, to post to a production environment, and to post directly
                   (--base-url) to a service nothing declares: one that is neither the grc-sheets sandbox on
                   this machine nor declared in a relay configuration (it is then treated as production).
                   A test environment is declared once, by the admin, as "production": false under
                   environments.NAME in the relay's configuration file, used with --relay-config FILE
  --formula-text as-typed|quote
                   how text that begins with =, +, - or @ is sent (needed when the table has such text)
  --backup         keep the file as it was before the post as BOOK.bak.xlsx
  --json           print one JSON object on stdout whatever happens, refusals and errors included: file,
                   table, environment, ok (exit 0), saved (the file was rewritten), sent (anything may
                   have reached the service), then the counts by result and each row's outcome with its
                   sheet row, or the problems (--dry-run), or what refused or failed
  -h, --help       this text

${KEY_HELP}

Exit codes: 0 validated (--dry-run: no errors) or every row posted; 1 rows with errors, rows that failed,
were not sent (the relay or the service refused them before acting) or whose outcome is unknown, a refusal (production, or a target nothing declares, without --yes-production),
or the file could not be read or written (the message says which); 2 wrong options or no key.`;

/**
 * The file workbook, able to persist: the runner's journal asks for a save after it marks rows "sending"
 * and before it sends them, so what a rerun reconciles is on disk before the service sees a row. The asks
 * that come while a save waits to start share it (a group commit): each resolves only once a save made
 * after it is on disk. Outcomes wait for no save, but one is made at least every OUTCOME_SAVE_MS while
 * they come: a crash takes at most that much of them (their rows say "sending" and are looked up again;
 * two identical rows both created and both lost would need a person to tell them apart).
 */
const OUTCOME_SAVE_MS = 1000;

export function durable(workbook: FileWorkbook, persist: () => void, now = () => performance.now()): WorkbookPort {
  let next: Promise<void> | null = null;
  let savedAt = now();
  // After the I/O of this turn of the event loop: the writes that came meanwhile are in, then one save.
  const saved = () =>
    (next ??= new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        next = null;
        try {
          persist();
          savedAt = now();
          resolve();
        } catch (e) {
          reject(e);
        }
      }),
    ));
  return {
    ...workbook,
    persist: saved,
    async updateRows(table, updates) {
      const rows = await workbook.updateRows(table, updates);
      // Not awaited: a save that fails here fails again at the next mark's, which stops the post.
      if (now() - savedAt > OUTCOME_SAVE_MS) saved().catch(() => undefined);
      return rows;
    },
  };
}

/**
 * The table's flow: as the workbook records it, or, when the record is gone (a file saved by a tool that
 * drops the add-in's part, such as openpyxl), from the template's table name (GrcIncidents, GrcIncidents2 ...).
 */
async function flowOf(workbook: WorkbookPort, table: string): Promise<AnyFlow | undefined> {
  const recorded = await tableRecord(workbook, table);
  if (recorded) return flowById(recorded.flow);
  return FLOWS.find((f) => new RegExp(`^${f.tableName}\\d*$`, 'i').test(table));
}

export async function run(argv: string[], io: ConnectIo = processIo()): Promise<number> {
  const refused = keyOnCommandLine(argv);
  if (refused) {
    io.stderr(`grc-sheets post: ${refused}`);
    return EXIT.usage;
  }
  const values = parseOptions('post', HELP, () => {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONNECT_OPTIONS,
        table: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        'yes-production': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        'formula-text': { type: 'string' },
        backup: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  const { usage, failed } = stops('post', HELP, io);
  const { positionals, ...options } = values;
  if (positionals.length !== 1) return usage('give exactly one workbook file (BOOK.xlsx)');
  if (!options.table) return usage('--table NAME is needed: the template table to post');
  const formulaChoice = options['formula-text'];
  if (formulaChoice !== undefined && formulaChoice !== 'as-typed' && formulaChoice !== 'quote') return usage('--formula-text must be as-typed or quote');
  const formulaText: FormulaText | undefined = formulaChoice === undefined ? undefined : formulaChoice === 'quote' ? 'neutralised' : 'as typed';
  const path = resolve(positionals[0]!);
  if (!existsSync(path)) return usage(`there is no file ${positionals[0]}`);

  // With --json, every stop from here on is also one object on stdout (post-json.ts), for schedulers.
  let table = options.table;
  let sent = false;
  let saves = 0;
  const base = (over: Partial<PostJsonBase> = {}): PostJsonBase => ({ file: path, table, environment: options.env ?? '', ok: false, saved: saves > 0, sent, ...over });
  const refuse = (message: string, how: 'refused' | 'error' = 'refused', over: Partial<PostJsonBase> = {}) => {
    if (options.json) io.stdout(JSON.stringify(stoppedJson(base(over), how, message), null, 2));
    return failed(message);
  };
  const connection = await connectOrStop(options, io, { usage, failed: (message) => refuse(message, 'error') });
  if (typeof connection === 'number') return connection;

  let workbook: FileWorkbook;
  let stamp: FileStamp;
  try {
    refuseIfOpen(path);
    stamp = stampOf(path);
    workbook = openFileWorkbook(path);
  } catch (e) {
    if (isFileProblem(e)) return refuse(e.message, 'error');
    throw e;
  }

  const abort = new AbortController();
  const stop = () => abort.abort(new Error('stopped'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let backup: string | undefined;
  let closed = false;
  const persist = () => {
    // A save asked for as the command ends (an outcome's, not awaited) finds the workbook closed: refused,
    // so nothing waiting on it is taken as saved.
    if (closed) throw new Error('the workbook is closed');
    const done = replaceFile(path, stamp, (temp) => workbook.saveTo(temp), { backup: options.backup && saves === 0 });
    backup ??= done.backup;
    stamp = stampOf(path);
    saves++;
  };
  try {
    const shape = await workbook.findTable(table);
    if (!shape) return refuse(`the workbook has no table ${table}; its tables are ${(await workbook.listTables()).map((t) => t.name).join(', ') || 'none'}.`);
    table = shape.name;
    const flow = await flowOf(workbook, shape.name);
    if (!flow) return refuse(`table ${table} is not a write-back template of grc-sheets: the workbook does not record its flow, and its name is none of ${FLOWS.map((f) => f.tableName).join(', ')}. Make one with grc-sheets template or the add-in's New template.`);
    // Rows a script appended under the table without stretching it: said before anything else, as they
    // would otherwise be neither checked nor sent (rows/below.ts says why they are not taken in).
    const below = await rowsBelow(workbook, shape);
    if (below) return refuse(`${rowsBelowMessage(below)} Nothing was sent.`);
    // Before anything is read from the service: a production post is asked for on the command line, and so
    // is one to a service nothing declares (called directly, not the sandbox): it may be production.
    const known = await knownProduction(connection, io.fetch);
    if (!options['dry-run'] && !options['yes-production']) {
      if (known === true) return refuse(`${connection.environment} is a production environment: give --yes-production to post there. Nothing was sent.`);
      if (known === null) return refuse(unknownProductionMessage(connection, options['relay-config']));
    }
    // Undeclared and posted to with --yes-production: treated as production (assumed paths refused, the
    // production confirmation), as the user said it may be.
    const production = known ?? options['yes-production'];
    const environment = writebackEnvironment(withProduction(connection.bound, production));
    const port = durable(workbook, persist);
    const plan = await preparePost({ api: connection.client, workbook: port, table: shape.name, flow, environment, signal: abort.signal });
    // As the taskpane's Validate: problem cells filled red or amber, the last validation's marks taken off.
    await markProblems(workbook, shape.name, plan.validation.problems);
    const problems = plan.validation.problems;
    const errors = problems.filter((p) => p.severity === 'error');
    const firstRow = firstBodyRow(shape.topLeft);
    for (const p of problems) io.stderr(`${table}: ${describeProblem(p, firstRow)}`);
    if (options['dry-run']) {
      persist();
      const errorRows = new Set(errors.map((p) => p.row)).size;
      if (options.json) io.stdout(JSON.stringify(validatedJson(base({ ok: !errors.length }), firstRow, { dryRun: true, toSend: plan.toSend, toCheck: plan.toCheck, problems }), null, 2));
      else {
        const warnings = problems.length - errors.length;
        io.stdout(`${table}: ${counted(errorRows, 'row')} with errors, ${counted(warnings, 'warning')}; ${plan.toSend} row${plan.toSend === 1 ? '' : 's'} to send, ${plan.toCheck} to check. Nothing was sent.`);
      }
      return errors.length ? EXIT.failed : EXIT.ok;
    }
    if (plan.availability.post.kind === 'unavailable') return refuse(`${plan.availability.post.message} Nothing was sent.`);
    if (plan.toSend + plan.toCheck === 0) {
      if (options.json) io.stdout(JSON.stringify(validatedJson(base({ ok: !errors.length }), firstRow, { dryRun: false, toSend: 0, toCheck: 0, problems }), null, 2));
      else io.stdout(`${table}: nothing to post: every valid row already has a result. Fix rows with errors, or clear Result to send a row again.`);
      return errors.length ? EXIT.failed : EXIT.ok;
    }
    if (plan.formulaRows > 0 && !formulaText) {
      return refuse(`${plan.formulaRows} row(s) of ${table} have text that begins with =, +, - or @, which a spreadsheet opening the service's data may run as a formula. Give --formula-text as-typed or --formula-text quote (adds a leading '). Nothing was sent.`);
    }
    // What the taskpane asks to confirm (an assumed path, another environment than the table was filled
    // for, production) is confirmed here with --yes, having read it.
    if (plan.confirmation && !options.yes) return refuse(`${plan.confirmation.message} Give --yes to post all the same. Nothing was sent.`);
    sent = true;
    const summary: RunSummary = await plan.run({
      ...(plan.confirmation ? { confirm: { environment: plan.confirmation.environment, rows: plan.confirmation.rows } } : {}),
      ...(formulaText ? { formulaText } : {}),
      signal: abort.signal,
    });
    // The audit entry as the taskpane writes it (the key's fingerprint; no signed-in person on the command
    // line), then the table record and anything written without a result (setting changes) are saved too.
    await writeAudit(workbook, summary, connection.keyFingerprint, connection.actor);
    await port.persist!();
    const { created, done, failed: failedRows, unknown, 'not sent': notSent } = summary.counts;
    // Every row asked for must have gone through: a row the relay or the service refused before acting
    // ("not sent") is as much a failed job for a scheduler as one the service rejected.
    const ok = !(failedRows + unknown + notSent + summary.withErrors > 0 || summary.cancelled || summary.stoppedBecause);
    if (options.json) io.stdout(JSON.stringify(postedJson(base({ ok }), summary, problems, backup), null, 2));
    else {
      for (const o of summary.outcomes) if (o.status === 'failed' || o.status === 'unknown' || o.status === 'not sent') io.stderr(`${table}: row ${summary.firstRow + o.row}: ${o.status}: ${o.message}`);
      io.stdout(`${table}: ${created} created, ${done} done, ${failedRows} failed, ${unknown} unknown, ${summary.withErrors} not sent (errors)${notSent ? `, ${notSent} not sent (each row's message says why)` : ''}${summary.cancelled ? '; stopped' : ''}${summary.stoppedBecause ? `; stopped: ${summary.stoppedBecause}` : ''}. ${positionals[0]} saved.`);
    }
    return ok ? EXIT.ok : EXIT.failed;
  } catch (e) {
    // Outcomes are saved with the next marks or within a second: rows past the last save say "sending"
    // there, and the next post looks their records up before sending anything again.
    const kept = saves ? ` ${positionals[0]} holds the results up to its last save; rows it shows "sending" are looked up in the service by the next post before anything is sent again.` : ` ${positionals[0]} was not changed.`;
    if (isFileProblem(e) || isWorkbookError(e) || (e as { name?: string }).name === 'ApiError') return refuse(`${(e as Error).message}${kept}`, 'error');
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    closed = true;
    workbook.close();
  }
}
