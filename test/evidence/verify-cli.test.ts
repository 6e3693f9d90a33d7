import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/verify';
import { run as evidence } from '../../src/cli/evidence';
import { nodeFingerprints } from '../../src/cli/digest';
import { readLoadRecords, saveLoadRecord, type LoadRecord } from '../../src/loading/loadrecords';
import { loadDataset, refreshTable, type DataRecord } from '../../src/loading/load';
import { context } from '../../src/sandbox/data/context';
import { incident } from '../../src/sandbox/data/incidents';
import { risk } from '../../src/sandbox/data/risks';
import { EVIDENCE_TABLE } from '../../src/evidence/sheet';
import { plainCell } from '../../src/loading/changes';
import { openFileWorkbook, writeEmptyWorkbook } from '../../src/workbook/file';
import { libreOfficeSheets, PUT_ADDIN_PART_BACK } from '../support/outside-readers';
import { answerBytes, relayKey, signingClient, type RelayKey } from './relay-key';

/**
 * `grc-sheets verify` on real saved workbooks holding evidence: two tables loaded through a relay that
 * signs (real Ed25519 JWS of the bytes the client got), saved by the file adapter, then round-tripped
 * through openpyxl and LibreOffice, then tampered with in each way the issue names.
 */
const ctx = context(7, 1);
const data: Record<string, DataRecord[]> = {
  incidents: Array.from({ length: 150 }, (_, i) => incident(ctx, i)),
  risk: Array.from({ length: 60 }, (_, i) => risk(ctx, i)),
};
const pathOf = (id: string) => (id === 'risk' ? '/directdata/v3/risk' : `/directdata/v1/${id}`);

interface Report {
  verified: boolean;
  tables: { table: string; status: string; rows?: string[]; message: string; cells?: string; totals?: { status: string; differ?: { total: string }[] }; statement?: { status: string; message: string } }[];
  audit: { status: string };
}

describe('grc-sheets verify: evidence on saved workbooks', () => {
  let dir: string;
  let book: string;
  let refreshed: string;
  let jwks: string;
  let relay: RelayKey;
  let olderIncidents: string;
  let riskStatement: string;
  const outside = (name: string, script: string, src = book) => {
    const dst = join(dir, name);
    execFileSync('/usr/bin/python3', ['-c', `import sys, re, zipfile\nsrc, dst = sys.argv[1], sys.argv[2]\n${script}\n${PUT_ADDIN_PART_BACK}`, src, dst], { stdio: 'pipe', timeout: 120_000 });
    return dst;
  };
  /** An openpyxl edit of the saved workbook, the add-in's part put back as Excel would keep it (or a tamperer would). */
  const openpyxlEdit = (name: string, edit: string, src = book) => outside(name, `from openpyxl import load_workbook\nwb = load_workbook(src)\n${edit}\ntmp = dst + '.openpyxl'\nwb.save(tmp)`, src);
  /** The table's evidence in the add-in's settings changed, as someone editing the part would. */
  const withBinding = async (name: string, table: string, change: (b: LoadRecord) => LoadRecord, src = book) => {
    const wb = openFileWorkbook(src);
    const b = (await readLoadRecords(wb)).get(table)!;
    await saveLoadRecord(wb, change(b));
    const dst = join(dir, name);
    wb.saveTo(dst);
    wb.close();
    return dst;
  };
  const withRows = async (name: string, change: (rows: (string | number | boolean | null)[][]) => (string | number | boolean | null)[][]) => {
    const wb = openFileWorkbook(book);
    const { rows } = await wb.readRows('tbl_incidents');
    const next = change(rows);
    await wb.writeRows('tbl_incidents', 0, next);
    await wb.setRowCount('tbl_incidents', next.length);
    const dst = join(dir, name);
    wb.saveTo(dst);
    wb.close();
    return dst;
  };
  async function verify(path: string, keys: string | null = jwks) {
    const out: string[] = [];
    const code = await run([path, '--json', ...(keys ? ['--jwks', keys] : [])], { stdout: (t) => out.push(t), stderr: () => undefined });
    const report = JSON.parse(out.join('\n')) as Report;
    return { code, report, incidents: report.tables.find((t) => t.table === 'tbl_incidents')! };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'grc-evidence-'));
    relay = await relayKey('relay-2026-11');
    jwks = join(dir, 'jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [relay.jwk] }));
    const empty = join(dir, 'empty.xlsx');
    writeEmptyWorkbook(empty);
    const wb = openFileWorkbook(empty);
    const { client, signed } = signingClient(relay, (id) => data[id]!, pathOf);
    for (const datasetId of ['incidents', 'risk']) {
      const out = await loadDataset({ client, workbook: wb, environment: 'ACC', datasetId, target: { kind: 'new-sheet' }, fingerprints: nodeFingerprints });
      if (!out.ok) throw new Error(out.error.message);
    }
    book = join(dir, 'book.xlsx');
    wb.saveTo(book);
    wb.close();
    olderIncidents = signed[0]!.statement;
    riskStatement = signed[1]!.statement;
    const again = openFileWorkbook(book);
    const out = await refreshTable({ client, workbook: again, environment: 'ACC', table: 'tbl_incidents' });
    if (!out.ok) throw new Error(out.error.message);
    refreshed = join(dir, 'refreshed.xlsx');
    again.saveTo(refreshed);
    again.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("verifies each table's signature, load, cells and totals, and keeps one Evidence group per load, newest first", async () => {
    const { code, report } = await verify(refreshed);
    expect(code).toBe(0);
    for (const t of report.tables) expect(t).toMatchObject({ status: 'verified', cells: 'verified', totals: { status: 'verified' }, statement: { status: 'verified' } });
    const wb = openFileWorkbook(refreshed);
    const { columns, rows } = await wb.readRows(EVIDENCE_TABLE);
    wb.close();
    const col = (n: string) => columns.indexOf(n);
    const groups = rows.filter((r) => r[col('Total')] === 'records').map((r) => [r[col('Table')], r[col('Recorded')], r[col('Who')]]);
    expect(groups).toEqual([
      ['tbl_incidents', 150, 'Ann Auditor (ann@example.com)'],
      ['tbl_risk', 60, 'Ann Auditor (ann@example.com)'],
      ['tbl_incidents', 150, 'Ann Auditor (ann@example.com)'],
    ]);
    expect(rows.every((r) => String(r[col('Signature')]).startsWith('signed by the relay'))).toBe(true);
  });

  it('without --jwks checks all but the signatures, and says so', async () => {
    const { code, incidents } = await verify(refreshed, null);
    expect(code).toBe(0);
    expect(incidents.statement).toMatchObject({ status: 'unchecked', message: expect.stringContaining('--jwks') });
  });

  it("shows in LibreOffice (recalculating the file) that every recorded total adds up", () => {
    const sheet = libreOfficeSheets(book).get('Evidence')!;
    const head = sheet[0]!;
    const same = sheet.slice(1).filter((r) => r.length > 1).map((r) => [r[head.indexOf('Table')], r[head.indexOf('Total')], r[head.indexOf('Column')], r[head.indexOf('Adds up')]]);
    expect(same.length).toBeGreaterThan(20);
    expect(same.filter((r) => r[3] !== 'yes')).toEqual([]);
  });

  it('still verifies after openpyxl saved it (date-times compared at the millisecond) and after LibreOffice did', async () => {
    const py = openpyxlEdit('openpyxl-saved.xlsx', '');
    // openpyxl rewrites date-time serials: some differ from what the load wrote even at 15 digits.
    const before = openFileWorkbook(book);
    const after = openFileWorkbook(py);
    const [was, now] = [await before.readRows('tbl_incidents'), await after.readRows('tbl_incidents')];
    before.close();
    after.close();
    const at = was.columns.indexOf('Date registered');
    expect(was.rows.filter((r, i) => plainCell(r[at]) !== plainCell(now.rows[i]![at])).length).toBeGreaterThan(0);
    expect(await verify(py)).toMatchObject({ code: 0, report: { verified: true } });
    const out = join(dir, 'lo');
    const profile = mkdtempSync(join(tmpdir(), 'grc-lo-profile-'));
    try {
      execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', 'xlsx:Calc Office Open XML', '--outdir', out, book], { stdio: 'pipe', timeout: 120_000 });
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
    const lo = outside('lo-saved.xlsx', `import shutil\ntmp = ${JSON.stringify(join(out, 'book.xlsx'))}`);
    const { code, report } = await verify(lo);
    expect(report.tables.filter((t) => t.status !== 'verified')).toEqual([]);
    expect(code).toBe(0);
  });

  it('names one cell edited (openpyxl) by its row, totals unchanged', async () => {
    const { code, incidents } = await verify(openpyxlEdit('cell.xlsx', "wb['Incidents']['B5'] = 'Edited by hand'"));
    expect(code).toBe(1);
    expect(incidents).toMatchObject({ status: 'edited', cells: 'edited', totals: { status: 'verified' } });
    expect(incidents.rows).toContain('Incidents!A5');
    expect(incidents.rows!.length).toBeLessThan(60);
  });

  it('names a row deleted and a row added: the record count and the totals that differ', async () => {
    const deleted = await verify(await withRows('deleted.xlsx', (rows) => rows.filter((_, i) => i !== 10)));
    expect(deleted.code).toBe(1);
    expect(deleted.incidents).toMatchObject({ status: 'edited', cells: 'edited', totals: { status: 'differ' } });
    expect(deleted.incidents.totals!.differ).toEqual(expect.arrayContaining([expect.objectContaining({ total: 'records', recorded: '150', now: '149' })]));
    expect(deleted.incidents.message).toMatch(/It had 150 rows after that load and has 149 now/);
    const added = await verify(await withRows('added.xlsx', (rows) => [...rows, rows[3]!.map((c, i) => (i === 0 ? '0b5c3d1e-1111-4a4a-8b8b-999999999999' : c))]));
    expect(added.code).toBe(1);
    expect(added.incidents.totals!.differ).toEqual(expect.arrayContaining([expect.objectContaining({ total: 'records', recorded: '150', now: '151' })]));
  });

  it('names a value sorted into another row, which no total can see', async () => {
    const wb = openFileWorkbook(book);
    const { columns } = await wb.readRows('tbl_incidents', 0, 1);
    wb.close();
    const at = columns.indexOf('Date registered');
    const { code, incidents } = await verify(await withRows('sorted.xlsx', (rows) => rows.map((r, i) => (i === 3 ? rows[4]! : i === 4 ? rows[3]! : r).map((c, k) => (k === at ? (i === 3 ? rows[4]![at]! : i === 4 ? rows[3]![at]! : c) : (i === 3 ? rows[3]![k]! : i === 4 ? rows[4]![k]! : c))))));
    expect(code).toBe(1);
    expect(incidents).toMatchObject({ status: 'edited', cells: 'edited', totals: { status: 'verified' } });
    expect(incidents.rows).toEqual(expect.arrayContaining(['Incidents!A5', 'Incidents!A6']));
  });

  it("names a statement swapped in from another table or from an older load", async () => {
    const other = await verify(await withBinding('swapped.xlsx', 'tbl_incidents', (b) => ({ ...b, evidence: { ...b.evidence!, statement: riskStatement } })));
    expect(other.code).toBe(1);
    expect(other.incidents).toMatchObject({ status: 'statement', statement: { status: 'other-load', message: expect.stringContaining('another table') } });
    const older = await verify(await withBinding('older.xlsx', 'tbl_incidents', (b) => ({ ...b, evidence: { ...b.evidence!, statement: olderIncidents } }), refreshed));
    expect(older.code).toBe(1);
    expect(older.incidents).toMatchObject({ status: 'statement', statement: { status: 'other-load', message: expect.stringContaining('another load') } });
  });

  it("names a forged signature and a statement signed by another relay's key", async () => {
    const wb = openFileWorkbook(book);
    const b = (await readLoadRecords(wb)).get('tbl_incidents')!;
    wb.close();
    const [head, payload, sig] = b.evidence!.statement!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, sha256: 'f'.repeat(64) })).toString('base64url');
    const forged = await verify(await withBinding('forged.xlsx', 'tbl_incidents', (x) => ({ ...x, evidence: { ...x.evidence!, statement: `${head}.${altered}.${sig}` } })));
    expect(forged.code).toBe(1);
    expect(forged.incidents).toMatchObject({ status: 'statement', statement: { status: 'forged' } });
    const stranger = await relayKey('another-relay-1');
    const foreign = await stranger.sign(claims);
    const other = await verify(await withBinding('foreign.xlsx', 'tbl_incidents', (x) => ({ ...x, evidence: { ...x.evidence!, statement: foreign } })));
    expect(other.code).toBe(1);
    expect(other.incidents).toMatchObject({ status: 'statement', statement: { status: 'unknown-key', message: expect.stringContaining('another-relay-1') } });
  });

  it('writes a standalone evidence file that an independent Python verifier (python3-jwt) checks against the JWKS and the saved answer', async () => {
    const file = join(dir, 'incidents-evidence.json');
    const out: string[] = [];
    expect(await evidence([book, '--table', 'tbl_incidents', '--jwks', jwks, '--out', file], { stdout: (t) => out.push(t), stderr: (t) => out.push(t) })).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { summary: string[]; publicKey: { kid: string }; totals: { records: number }; statement: string };
    expect(written.publicKey.kid).toBe('relay-2026-11');
    expect(written.totals.records).toBe(150);
    expect(written.summary.join('\n')).toMatch(/The relay signed \(key relay-2026-11\) at .* answered \/directdata\/v1\/incidents with status 200: .* 150 records, for Ann Auditor \(ann@example.com\)/);
    expect(written.summary.join('\n')).toMatch(/Date registered: 150 non-empty, earliest \d{4}-\d\d-\d\dT/);
    const answer = join(dir, 'incidents-answer.json');
    writeFileSync(answer, answerBytes(data.incidents!));
    const python = (args: string[]) => {
      try {
        return { code: 0, found: JSON.parse(execFileSync('/usr/bin/python3', [join(__dirname, 'verify_statement.py'), ...args], { stdio: 'pipe' }).toString()) };
      } catch (e) {
        const err = e as { status: number; stdout: Buffer };
        return { code: err.status, found: JSON.parse(err.stdout.toString()) };
      }
    };
    expect(python([jwks, file, answer])).toMatchObject({ code: 0, found: { signature: 'valid', problems: [], claims: { records: 150, dataset: 'incidents' } } });
    // One byte of the answer changed: the hash and the record fingerprint no longer agree.
    const changed = join(dir, 'incidents-answer-changed.json');
    writeFileSync(changed, readFileSync(answer, 'utf8').replace('Generated incident 1.', 'Generated incident 7.'));
    expect(python([jwks, file, changed])).toMatchObject({ code: 1, found: { signature: 'valid', problems: ['sha256', 'fingerprint'] } });
    const [head, payload, sig] = written.statement.split('.');
    const forged = join(dir, 'forged-evidence.json');
    writeFileSync(forged, JSON.stringify({ ...written, statement: `${head}.${Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('"records":150', '"records":151')).toString('base64url')}.${sig}` }));
    expect(python([jwks, forged, answer])).toMatchObject({ code: 1, found: { signature: 'invalid' } });
  });

  it('gives the control totals docs/evidence.md says an auditor recomputes with openpyxl', async () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'evidence.md'), 'utf8');
    const script = /```python\n(import datetime, json, math, sys[\s\S]*?)```/.exec(doc)![1]!;
    const wb = openFileWorkbook(book);
    const bindings = await readLoadRecords(wb);
    wb.close();
    for (const [table, sheet] of [['tbl_incidents', 'Incidents'], ['tbl_risk', 'Risks']] as const) {
      const { method: _method, ...recorded } = bindings.get(table)!.evidence!.totals;
      const recomputed = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, book, sheet, JSON.stringify(recorded)]).toString());
      expect(recomputed).toEqual(recorded);
    }
    expect(bindings.get('tbl_risk')!.evidence!.totals.columns.filter((c) => c.sum !== undefined && c.sum !== '0').length).toBeGreaterThan(0);
  });

  it('says exit 2 for keys that cannot be read', async () => {
    const err: string[] = [];
    expect(await run([book, '--jwks', join(dir, 'none.json')], { stdout: () => undefined, stderr: (t) => err.push(t) })).toBe(2);
    expect(err.join('\n')).toMatch(/--jwks/);
  });
});
