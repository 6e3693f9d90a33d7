import { nodeDigest } from './digest';
import { existsSync, readFileSync } from 'node:fs';
import type { JSONWebKeySet } from 'jose';
import { statementFinding, type StatementFinding } from '../evidence/check';
import type { TotalsFinding } from '../evidence/totals-check';
import { scanEvidence } from '../evidence/state';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LOAD_RECORDS_KEY, readLoadRecords, type LoadRecord } from '../loading/loadrecords';
import type { TableShape } from '../workbook/port';
import { parseCell, sheetCell } from '../workbook/address';
import { isFileProblem, openFileWorkbook, type FileWorkbook } from '../workbook/file';
import { AUDIT_TABLE, RELAY_RECEIPT } from '../writeback/audit';
import { checkReceipts, type ReceiptsFinding } from '../evidence/receipts-check';
import { AUDIT_HEAD_KEY, checkChain } from '../writeback/auditchain';
import { EXIT } from './exit';
import { parseOptions } from './options';
import { counted } from '../words/count';

const HELP = `Usage: grc-sheets verify BOOK.xlsx [--jwks FILE|URL] [--json]

Checks a saved workbook without Excel and without the service:
- every table the add-in loaded against the cell fingerprint its last load or refresh kept: a figure
  edited by hand since, a row added or deleted, shows as the rows it is in (sheet addresses);
- its control totals (records, sums, non-empty cells, earliest and latest dates) recomputed from the
  cells, each total that differs named;
- the relay's signed statement of its last load: the signature against the relay's keys (--jwks), and
  that it is the statement of this table's last load (dataset, records, request, time);
- the write-back audit sheet's hash chain: an entry edited, removed or inserted afterwards shows as the
  first entry that no longer links, and entries cut off the end against the chain's head; and each
  entry's relay receipt (signature, this row's write, not removed, not copied from another row).
The canonical forms, to recompute by other means, are in docs/workbook.md and docs/evidence.md.

Options:
  --jwks FILE|URL  the relay's public keys (its /.well-known/jwks.json, saved or fetched); without
                   it, signatures are not checked (said per table)
  --json           print what was found as JSON
  -h, --help       this text

Exit codes: 0 everything verifies; 1 something does not verify (a table edited or without a
fingerprint, totals that differ, a statement that does not verify or belongs to another load, an audit
chain broken), each named in the output; 2 wrong options, a file that is missing or cannot be read as a
workbook (not a workbook, encrypted ...), or keys (--jwks) that cannot be read.`;


export interface TableFinding {
  table: string;
  /** verified: matches its fingerprint; edited: does not; unverifiable: no fingerprint kept; missing: table gone. */
  status: 'verified' | 'edited' | 'unverifiable' | 'missing' | 'statement';
  message: string;
  /** edited: the sheet rows (Sheet!A1 of their first cell) holding the edits, at most 100. */
  rows?: string[];
  /** The cell fingerprint alone: verified, edited, or absent (no print kept). */
  cells?: 'verified' | 'edited' | 'absent';
  totals?: TotalsFinding;
  statement?: StatementFinding;
}

export interface AuditFinding {
  status: 'verified' | 'broken' | 'absent';
  entries: number;
  message: string;
  breaks?: { address: string; problem: string; message: string }[];
  /** The rows' relay receipts, when the audit table has the column (tables made before it have none). */
  receipts?: ReceiptsFinding;
}

const MAX_ROWS_LISTED = 100;

export async function verifyTable(workbook: FileWorkbook, b: LoadRecord, shape: TableShape, jwks: JSONWebKeySet | null): Promise<TableFinding> {
  const statement = await statementFinding(b, jwks);
  const signedOk = statement.status === 'verified' || statement.status === 'unchecked' || statement.status === 'unsigned';
  if (!b.cells && !b.evidence) {
    return { table: b.table, status: 'unverifiable', cells: 'absent', statement, message: `Table ${b.table} has no cell fingerprint (loaded by a version that kept none): it cannot be verified. Refresh it once to make one.` };
  }
  // One streamed scan for the print and the totals: a table of a million rows is verified without holding it.
  const scan = await scanEvidence(workbook, b, shape, nodeDigest);
  const totalsNow = scan.totals;
  const cellsOk = scan.cells !== 'edited';
  const parts = [totalsNow.status !== 'absent' ? totalsNow.message : '', statement.message].filter(Boolean).join('; ');
  if (cellsOk && totalsNow.status !== 'differ') {
    const base = { table: b.table, cells: scan.cells, totals: totalsNow, statement };
    if (!signedOk) return { ...base, status: 'statement', message: `Table ${b.table}: the cells are as loaded ${b.loadedAt}, but ${statement.message}.` };
    return { ...base, status: 'verified', message: `Table ${b.table}: ${counted(b.rowCount, 'row')} as loaded ${b.loadedAt} from ${b.environment}; ${parts}.` };
  }
  const rows = scan.rows;
  let where = '';
  if (scan.cells === 'edited') {
    where = `: the edits are in ${counted(rows.length, 'row')} starting ${rows.slice(0, 5).join(', ')}${rows.length > 5 ? ' ...' : ''}.`;
    if (scan.countNow !== scan.countThen) where += ` It had ${counted(scan.countThen, 'row')} after that load and has ${scan.countNow.toLocaleString('en-US')} now.`;
  }
  return {
    table: b.table,
    status: 'edited',
    cells: scan.cells,
    totals: totalsNow,
    statement,
    message: `Table ${b.table} was changed since it was loaded ${b.loadedAt}${where || '.'}${totalsNow.status === 'differ' ? ` Its ${totalsNow.message}.` : ''}${signedOk ? '' : ` And ${statement.message}.`} A refresh in the add-in names the cells with their loaded values.`,
    rows: rows.slice(0, MAX_ROWS_LISTED),
  };
}

async function verifyTables(workbook: FileWorkbook, jwks: JSONWebKeySet | null): Promise<TableFinding[]> {
  const out: TableFinding[] = [];
  if ((await workbook.getSetting(LOAD_RECORDS_KEY)) === undefined) {
    // Tables named as the add-in names them, but no records of the add-in: its settings part was dropped.
    for (const t of await workbook.listTables()) {
      if (t.name.startsWith('tbl_')) out.push({ table: t.name, status: 'unverifiable', message: `Table ${t.name} looks loaded by grc-sheets, but the workbook holds none of the add-in's records (its settings part is gone: the file was rewritten by a tool that drops it, such as openpyxl), so it cannot be verified.` });
    }
    return out;
  }
  for (const b of (await readLoadRecords(workbook)).values()) {
    const shape = await workbook.findTable(b.table);
    if (!shape) {
      out.push({ table: b.table, status: 'missing', message: `Table ${b.table} (${b.datasetId}) is in the add-in's records but not in the workbook: it was deleted or renamed outside Excel.` });
      continue;
    }
    out.push(await verifyTable(workbook, b, shape, jwks));
  }
  return out;
}

async function verifyAudit(workbook: FileWorkbook, jwks: JSONWebKeySet | null): Promise<AuditFinding> {
  const shape = await workbook.findTable(AUDIT_TABLE);
  const head = (await workbook.getSetting<{ entries: number; hash: string }>(AUDIT_HEAD_KEY)) ?? null;
  if (!shape) {
    return head
      ? { status: 'broken', entries: 0, message: `The write-back audit table is gone, though ${counted(head.entries, 'entry', 'entries')} ${head.entries === 1 ? 'was' : 'were'} written to it.` }
      : { status: 'absent', entries: 0, message: 'No write-back audit in this workbook.' };
  }
  const table = await workbook.readRows(shape.name);
  const at = parseCell(shape.topLeft);
  const address = (r: number) => sheetCell(shape.sheet, at.row + 1 + r, at.col);
  const { entries, unchained, breaks } = await checkChain(table, address);
  const found: { address: string; problem: string; message: string }[] = breaks.map((b) => ({ address: address(b.row), problem: b.problem, message: b.message }));
  if (!head && entries > unchained) {
    found.push({ address: address(0), problem: 'head', message: "The audit is chained but the chain's head (kept in the add-in's settings part) is missing: the file was rewritten by a tool that drops the add-in's part, so entries cut off the end cannot be ruled out." });
  }
  if (head) {
    const last = table.rows.at(-1);
    const lastHash = last ? String(last[table.columns.indexOf('Hash')] ?? '') : '';
    if (head.entries !== entries || head.hash !== lastHash) {
      found.push({ address: address(Math.max(0, entries - 1)), problem: 'head', message: `The audit ends at ${counted(entries, 'entry', 'entries')}, but ${head.entries.toLocaleString('en-US')} ${head.entries === 1 ? 'was' : 'were'} written and the last one's hash was ${head.hash.slice(0, 12)}…: entries were removed or added at the end.` });
    }
  }
  const receiptAt = table.columns.indexOf(RELAY_RECEIPT);
  const cellAt = (r: number, c: number) => sheetCell(shape.sheet, at.row + 1 + r, at.col + c);
  const receipts = receiptAt < 0 ? undefined : await checkReceipts(table, receiptAt, jwks, cellAt, unchained);
  for (const p of receipts?.problems ?? []) found.push({ address: cellAt(p.row, p.column), problem: p.problem, message: p.message });
  const signedText = !receipts ? '' : ` ${counted(receipts.signed, 'entry', 'entries')} ${receipts.signed === 1 ? 'holds' : 'hold'} the relay's receipts (signatures ${receipts.signatures === 'checked' ? 'checked' : 'not checked: no --jwks'}; ${receipts.bodies === 'checked' ? `their bodies match the bodies sent; ${referencesText(receipts.references)}` : 'the bodies sent were not recorded in this older audit table'}), ${receipts.unsigned.toLocaleString('en-US')} ${receipts.unsigned === 1 ? 'says' : 'say'} the relay gave none, ${receipts.nothingSent.toLocaleString('en-US')} got no answer.`;
  const before = unchained ? ` The first ${counted(unchained, 'entry', 'entries')} ${unchained === 1 ? 'was' : 'were'} written before the chain began and ${unchained === 1 ? 'is' : 'are'} not covered.` : '';
  return found.length
    ? { status: 'broken', entries, message: `The write-back audit does not verify: ${counted(found.length, 'problem')}.${before}`, breaks: found, ...(receipts ? { receipts } : {}) }
    : { status: 'verified', entries, message: `The write-back audit's ${counted(entries, 'entry', 'entries')} ${entries === 1 ? 'forms' : 'form'} an unbroken chain.${signedText}${before}`, ...(receipts ? { receipts } : {}) };
}

/** The relay's keys from a saved file or its URL; a message when they cannot be had. */
export async function readJwks(from: string): Promise<JSONWebKeySet | string> {
  let text: string;
  try {
    if (/^https?:\/\//i.test(from)) {
      const res = await fetch(from, { signal: AbortSignal.timeout(15_000) });
      if (!res.ok) return `the relay's keys at ${from} could not be fetched: HTTP ${res.status}`;
      text = await res.text();
    } else text = readFileSync(from, 'utf8');
  } catch (e) {
    return `the relay's keys (--jwks ${from}) cannot be read: ${(e as Error).message}`;
  }
  try {
    const parsed = JSON.parse(text) as JSONWebKeySet;
    if (!parsed || !Array.isArray(parsed.keys)) throw new Error('no "keys" array');
    return parsed;
  } catch (e) {
    return `--jwks ${from} is not a JWKS (the relay's /.well-known/jwks.json): ${(e as Error).message}`;
  }
}

export async function run(argv: string[], io: { stdout(t: string): void; stderr(t: string): void } = { stdout: (t) => process.stdout.write(`${t}\n`), stderr: (t) => process.stderr.write(`${t}\n`) }): Promise<number> {
  const values = parseOptions('verify', HELP, () => {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false }, jwks: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  if (values.positionals.length !== 1) {
    io.stderr(`grc-sheets verify: give exactly one workbook file (BOOK.xlsx)\n\n${HELP}`);
    return EXIT.usage;
  }
  const path = resolve(values.positionals[0]!);
  if (!existsSync(path)) {
    io.stderr(`grc-sheets verify: there is no file ${values.positionals[0]}\n\n${HELP}`);
    return EXIT.usage;
  }
  let jwks: JSONWebKeySet | null = null;
  if (values.jwks !== undefined) {
    const got = await readJwks(values.jwks);
    if (typeof got === 'string') {
      io.stderr(`grc-sheets verify: ${got}`);
      return EXIT.usage;
    }
    jwks = got;
  }
  let workbook: FileWorkbook;
  let tables: TableFinding[];
  let audit: AuditFinding;
  try {
    workbook = openFileWorkbook(path);
  } catch (e) {
    if (isFileProblem(e)) {
      io.stderr(`grc-sheets verify: ${e.message}`);
      return EXIT.usage;
    }
    throw e;
  }
  try {
    tables = await verifyTables(workbook, jwks);
    audit = await verifyAudit(workbook, jwks);
  } catch (e) {
    if (isFileProblem(e)) {
      io.stderr(`grc-sheets verify: ${e.message}`);
      return EXIT.usage;
    }
    throw e;
  } finally {
    workbook.close();
  }
  const ok = tables.every((t) => t.status === 'verified') && audit.status !== 'broken';
  if (values.json) io.stdout(JSON.stringify({ file: path, verified: ok, tables, audit }, null, 2));
  else {
    if (!tables.length) io.stdout('No table in this workbook was loaded by grc-sheets.');
    for (const t of tables) (t.status === 'verified' ? io.stdout : io.stderr)(`${t.status === 'verified' ? 'ok' : t.status.toUpperCase()}  ${t.message}`);
    (audit.status === 'broken' ? io.stderr : io.stdout)(`${audit.status === 'broken' ? 'BROKEN' : 'ok'}  ${audit.message}`);
    for (const b of audit.breaks ?? []) io.stderr(`        ${b.message}`);
    io.stdout(ok ? `${values.positionals[0]} verifies.` : `${values.positionals[0]} does not verify.`);
  }
  // A check that ran and found something that does not verify: 1, as `grc-sheets check` does (exit.ts).
  return ok ? EXIT.ok : EXIT.failed;
}

/** How many receipts were tied to their row's write reference, and how many sign none (made before references). */
function referencesText(r: ReceiptsFinding['references']): string {
  const tied = `${counted(r.tied, 'receipt')} tied to ${r.tied === 1 ? 'its' : 'their'} row's write reference`;
  return r.untied ? `${tied}, ${counted(r.untied, 'receipt')} signing none (made before write references: tied by ${r.untied === 1 ? 'its' : 'their'} body only)` : tied;
}
