import { existsSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { JSONWebKeySet } from 'jose';
import { decodeProtectedHeader } from 'jose';
import { readLoadRecords } from '../loading/loadrecords';
import { statementClaims } from '../evidence/record';
import { isFileProblem, openFileWorkbook } from '../workbook/file';
import { EXIT } from './exit';
import { parseOptions } from './options';
import { readJwks, verifyTable } from './verify';

const HELP = `Usage: grc-sheets evidence BOOK.xlsx --table NAME --out FILE [--jwks FILE|URL]

Writes a standalone evidence file for one loaded table, for the audit file: the relay's signed statement
of its last load, the relay's public key that statement needs, the record and cell fingerprints, the
control totals, what grc-sheets verify finds now, and a plain-text summary a reviewer reads without tools.
It is JSON (docs/evidence.md, "The evidence file"); the summary comes first.

Options:
  --table NAME     the table (as the workbook names it, e.g. tbl_incidents)
  --out FILE       where to write the evidence file
  --jwks FILE|URL  the relay's public keys (its /.well-known/jwks.json): needed when the table has a
                   signed statement, so the file holds the key that checks it
  -h, --help       this text

Exit codes: 0 written, and the table verifies; 1 written, and something does not verify (said in the
file and here); 2 wrong options, a workbook that cannot be read, no such table, keys that cannot be read.`;

export async function run(argv: string[], io: { stdout(t: string): void; stderr(t: string): void } = { stdout: (t) => process.stdout.write(`${t}\n`), stderr: (t) => process.stderr.write(`${t}\n`) }): Promise<number> {
  const values = parseOptions('evidence', HELP, () => {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: { table: { type: 'string' }, out: { type: 'string' }, jwks: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  const usage = (m: string) => {
    io.stderr(`grc-sheets evidence: ${m}\n\n${HELP}`);
    return EXIT.usage;
  };
  if (values.positionals.length !== 1) return usage('give exactly one workbook file (BOOK.xlsx)');
  if (!values.table) return usage('give the table with --table NAME');
  if (!values.out) return usage('give the file to write with --out FILE');
  const path = resolve(values.positionals[0]!);
  if (!existsSync(path)) return usage(`there is no file ${values.positionals[0]}`);
  let jwks: JSONWebKeySet | null = null;
  if (values.jwks !== undefined) {
    const got = await readJwks(values.jwks);
    if (typeof got === 'string') return usage(got);
    jwks = got;
  }
  let workbook;
  try {
    workbook = openFileWorkbook(path);
  } catch (e) {
    if (isFileProblem(e)) return usage(e.message);
    throw e;
  }
  try {
    const records = await readLoadRecords(workbook);
    const b = [...records.values()].find((x) => x.table.toLowerCase() === values.table!.toLowerCase());
    if (!b) return usage(`the workbook has no table ${values.table} loaded by grc-sheets (loaded tables: ${[...records.keys()].join(', ') || 'none'})`);
    const shape = await workbook.findTable(b.table);
    if (!shape) return usage(`table ${b.table} is in the add-in's records but not in the workbook (deleted or renamed outside Excel)`);
    const statement = b.evidence?.statement;
    // A register: the statement of each dataset it read (docs/evidence.md "Registers").
    const parts = b.evidence?.parts;
    if ((statement || parts?.some((p) => p.statement)) && !jwks) return usage(`table ${b.table} has ${statement ? 'a statement' : 'statements'} signed by the relay: give the relay's keys with --jwks FILE|URL, so the evidence file holds the key that checks ${statement ? 'it' : 'them'}`);
    const kidOf = (jws: string) => String(decodeProtectedHeader(jws).kid ?? '');
    const kid = statement ? kidOf(statement) : '';
    const publicKey = statement ? (jwks!.keys.find((k) => k.kid === kid) ?? null) : null;
    const partsOut = parts?.map((p) => ({ dataset: p.dataset, statement: p.statement ?? null, claims: p.statement ? statementClaims(p.statement) : null, publicKey: p.statement ? (jwks!.keys.find((k) => k.kid === kidOf(p.statement!)) ?? null) : null, ...(p.problem ? { problem: p.problem } : {}) }));
    const finding = await verifyTable(workbook, b, shape, jwks);
    const claims = statement ? statementClaims(statement) : null;
    const totals = b.evidence?.totals;
    const summary = [
      `Evidence of table ${b.table} in ${basename(path)}, written ${new Date().toISOString()} by grc-sheets evidence.`,
      `Dataset ${b.datasetId}${b.params.guid ? ` (record ${b.params.guid})` : ''} from environment ${b.environment}, loaded ${b.loadedAt}: ${b.rowCount.toLocaleString('en-US')} records.`,
      partsOut
        ? [
            `A register: the client read the ${partsOut.length} datasets below and joined them. The relay signed what the service answered for each (in "parts": each statement, its claims and the public key that checks it), not the joined table, which the cell fingerprint and the control totals cover.`,
            ...partsOut.map((p) => (p.claims ? `  ${p.dataset}: signed (key ${kidOf(p.statement!)}) at ${p.claims.time}: ${p.claims.path} answered ${p.claims.status}, ${p.claims.length.toLocaleString('en-US')} bytes, SHA-256 ${p.claims.sha256}, ${p.claims.records.toLocaleString('en-US')} records, request ${p.claims.requestId}.` : `  ${p.dataset}: no statement signed by a relay kept${p.problem ? ` (${p.problem})` : ''}.`)),
          ].join('\n')
        : claims
        ? `The relay signed (key ${kid}) at ${claims.time} that the service ${claims.environment.host} answered ${claims.path} with status ${claims.status}: ${claims.length.toLocaleString('en-US')} bytes, SHA-256 ${claims.sha256}, ${claims.records.toLocaleString('en-US')} records, for ${claims.who.kind === 'person' ? `${claims.who.name ?? ''} (${claims.who.subject})`.trim() : claims.who.kind === 'client' ? `service client ${claims.who.clientId}` : `key ${claims.who.fingerprint}`}, allowed by ${claims.rule === 'personal key' ? 'a personal key' : claims.rule}, request ${claims.requestId}.`
        : `No statement signed by a relay was kept for this load${b.evidence?.problem ? ` (${b.evidence.problem})` : ''}.`,
      ...(publicKey ? [`The relay's public key ${kid} is in "publicKey"; "statement" is the compact JWS it verifies.`] : statement ? [`The relay's keys given do not hold key ${kid}.`] : []),
      ...(b.fingerprint ? [`Record fingerprint (${b.fingerprint.method}): ${b.fingerprint.sha256}.`] : []),
      ...(b.cells ? [`Cell fingerprint (${b.cells.method}): ${b.cells.sha256}.`] : []),
      ...(totals
        ? [
            `Control totals (${totals.method}): ${totals.records.toLocaleString('en-US')} records.`,
            ...totals.columns.map((c) => `  ${c.name}: ${c.nonEmpty.toLocaleString('en-US')} non-empty${c.sum !== undefined ? `, sum ${c.sum}` : ''}${c.earliest !== undefined ? `, earliest ${c.earliest}, latest ${c.latest}` : ''}`),
          ]
        : ['No control totals kept (loaded before they were).']),
      `Checked now: ${finding.status === 'verified' ? 'verifies' : 'DOES NOT VERIFY'}. ${finding.message}`,
    ];
    const file = {
      format: 'grc-sheets-evidence/1',
      summary,
      workbook: basename(path),
      table: b.table,
      dataset: b.datasetId,
      params: b.params,
      environment: b.environment,
      loadedAt: b.loadedAt,
      records: b.rowCount,
      statement: statement ?? null,
      claims,
      publicKey,
      ...(partsOut ? { parts: partsOut } : {}),
      fingerprint: b.fingerprint ?? null,
      cells: b.cells ?? null,
      totals: totals ?? null,
      verified: finding,
    };
    writeFileSync(resolve(values.out), `${JSON.stringify(file, null, 2)}\n`);
    (finding.status === 'verified' ? io.stdout : io.stderr)(`${finding.status === 'verified' ? 'ok' : finding.status.toUpperCase()}  ${finding.message}`);
    io.stdout(`Wrote ${values.out}.`);
    return finding.status === 'verified' ? EXIT.ok : EXIT.failed;
  } catch (e) {
    if (isFileProblem(e)) return usage(e.message);
    throw e;
  } finally {
    workbook.close();
  }
}
