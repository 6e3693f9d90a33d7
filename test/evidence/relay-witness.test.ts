import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { createClient, withHasher } from '../../src/client';
import { Sha256Thread } from '../../src/client/sha256-thread';
import { fingerprinter } from '../../src/loading/fingerprint';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { nodeHashPort } from '../support/sha256-thread-node';
import { nodeDigest, nodeFingerprints, withNodeHash } from '../../src/cli/digest';
import { run as evidenceFile } from '../../src/cli/evidence';
import { run as load } from '../../src/cli/load';
import { run as post } from '../../src/cli/post';
import { run as refresh } from '../../src/cli/refresh';
import { run as template } from '../../src/cli/template';
import { run as verify } from '../../src/cli/verify';
import { JWKS_PATH, WRITE_REF_HEADER, type WriteReceipt } from '../../src/contracts/evidence';
import { EVIDENCE_TABLE } from '../../src/evidence/sheet';
import { readLoadRecords, saveLoadRecord } from '../../src/loading/loadrecords';
import { datasetsRead, registerOf } from '../../src/register/registers';
import { loadDataset } from '../../src/loading/load';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { openFileWorkbook, writeEmptyWorkbook } from '../../src/workbook/file';
import { AUDIT_TABLE, RELAY_RECEIPT, SENT_BODIES } from '../../src/writeback/audit';
import { AUDIT_HEAD_KEY, chained, PREVIOUS_HASH } from '../../src/writeback/auditchain';
import { fillIncidents } from '../support/incident-book';
import { cliIo } from '../support/sandbox';
import { relayKey } from './relay-key';

/**
 * The relay as the witness, end to end: tables loaded and refreshed (the load path, headless refresh and load)
 * through the real relay keep its signed read statements; `grc-sheets post` through it keeps each row's
 * signed write receipt in the audit; `grc-sheets verify` checks both against the relay's JWKS (fetched and
 * saved) and names the tampering: a statement signed by another relay's key, a receipt removed or moved;
 * an independent Python verifier (verify_receipts.py) checks the receipts against the exact bytes sent.
 */
describe('the real relay signs what the workbook keeps', () => {
  let sandbox: Sandbox;
  let relay: Relay;
  let dir: string;
  let jwksUrl: string;
  let jwksFile: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 40 });
    relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url } }, logLevel: 'silent' }, {});
    dir = mkdtempSync(join(tmpdir(), 'grc-witness-'));
    jwksUrl = relay.url + JWKS_PATH;
    jwksFile = join(dir, 'jwks.json');
    writeFileSync(jwksFile, await (await fetch(jwksUrl)).text());
  });
  afterAll(async () => {
    await relay.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Report {
    verified: boolean;
    tables: { table: string; status: string; statement?: { status: string; message: string } }[];
    audit: { status: string; message: string; breaks?: { address: string; problem: string; message: string }[]; receipts?: { signed: number; unsigned: number; signatures: string; problems: unknown[] } };
  }
  async function verifyBook(path: string, keys: string | null = jwksFile) {
    const out: string[] = [];
    const code = await verify([path, '--json', ...(keys ? ['--jwks', keys] : [])], { stdout: (t) => out.push(t), stderr: () => undefined });
    return { code, report: JSON.parse(out.join('\n')) as Report };
  }

  it('a table loaded through the relay keeps its signed statement, the Evidence sheet says signed, and verify passes with the JWKS fetched or saved; headless refresh stores the new statement', async () => {
    const empty = join(dir, 'empty.xlsx');
    writeEmptyWorkbook(empty);
    const wb = openFileWorkbook(empty);
    const { identifier, password } = sandbox.demoKey!;
    const client = withNodeHash(createClient({ baseUrl: `${relay.url}/api/acc`, credentials: { identifier, password } }));
    const loaded = await loadDataset({ client, workbook: wb, environment: 'acc', datasetId: 'risk', target: { kind: 'new-sheet' }, fingerprints: nodeFingerprints, digest: nodeDigest });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const book = join(dir, 'loaded.xlsx');
    wb.saveTo(book);
    wb.close();
    const first = loaded.record.evidence!;
    expect(first.problem).toBeUndefined();
    const claims = decodeJwt(first.statement!);
    expect(claims).toMatchObject({ kind: 'read', dataset: 'risk', records: loaded.rowCount, environment: { name: 'acc' }, who: { kind: 'key', fingerprint: expect.stringMatching(/^key:[0-9a-f]{12}$/) }, requestId: first.requestId });

    const check = openFileWorkbook(book);
    const { columns, rows } = await check.readRows(EVIDENCE_TABLE);
    check.close();
    expect(rows.filter((r) => r[columns.indexOf('Total')] === 'records').map((r) => String(r[columns.indexOf('Signature')]))).toEqual([expect.stringMatching(/^signed by the relay /)]);

    for (const keys of [jwksUrl, jwksFile]) {
      const { code, report } = await verifyBook(book, keys);
      expect([code, report.tables]).toEqual([0, [expect.objectContaining({ table: loaded.table.name, status: 'verified', statement: expect.objectContaining({ status: 'verified' }) })]]);
    }

    // Headless: grc-sheets refresh through --relay stores the relay's statement of the refresh's download.
    const cli = cliIo(sandbox);
    expect([await refresh([book, '--relay', relay.url, '--env', 'acc', '--json'], cli.io), cli.err]).toEqual([0, []]);
    expect((JSON.parse(cli.out.join('\n')) as { tables: { evidence: string }[] }).tables[0]!.evidence).toMatch(/^Signed by the relay on .+, unchanged since\.$/);
    const after = openFileWorkbook(book);
    const b = (await readLoadRecords(after)).get(loaded.table.name)!;
    after.close();
    expect(b.evidence!.statement).toBeDefined();
    expect(b.evidence!.requestId).not.toBe(first.requestId);
    expect((await verifyBook(book, jwksUrl)).code).toBe(0);

    // Headless grc-sheets load through --relay: the new table keeps the relay's statement too.
    const loads = cliIo(sandbox);
    expect(await load([book, '--dataset', 'incidents', '--relay', relay.url, '--env', 'acc'], loads.io)).toBe(0);
    const both = await verifyBook(book, jwksUrl);
    expect(both.code).toBe(0);
    expect(both.report.tables.map((t) => [t.status, t.statement?.status])).toEqual([['verified', 'verified'], ['verified', 'verified']]);

    // Tamper: the same claims signed by another relay's key.
    const stranger = await relayKey('another-relay-1');
    const foreign = await stranger.sign(decodeJwt(b.evidence!.statement!));
    const swapped = openFileWorkbook(book);
    await saveLoadRecord(swapped, { ...b, evidence: { ...b.evidence!, statement: foreign } });
    const tampered = join(dir, 'foreign.xlsx');
    swapped.saveTo(tampered);
    swapped.close();
    const { code, report } = await verifyBook(tampered);
    expect(code).toBe(1);
    expect(report.tables.find((t) => t.table === loaded.table.name)).toMatchObject({ status: 'statement', statement: { status: 'unknown-key', message: expect.stringContaining('another-relay-1') } });
  }, 120_000);

  it("as the taskpane hashes, on its worker (worker_threads standing in for the Web Worker): the download's hash checks against the relay's statement, the record fingerprint is node:crypto's and the cell print the one made on this thread, also where the worker cannot start", async () => {
    const { identifier, password } = sandbox.demoKey!;
    const plain = createClient({ baseUrl: `${relay.url}/api/acc`, credentials: { identifier, password } });
    const common = { environment: 'acc', datasetId: 'risk', target: { kind: 'new-sheet' } } as const;
    const reference = await loadDataset({ ...common, client: withNodeHash(plain), workbook: createMemoryWorkbook(), fingerprints: nodeFingerprints });
    if (!reference.ok) throw new Error(reference.error.message);
    const working = new Sha256Thread(nodeHashPort);
    const missing = new Sha256Thread(() => {
      throw new ReferenceError('Worker is not defined');
    });
    try {
      for (const thread of [working, missing]) {
        const out = await loadDataset({ ...common, client: withHasher(plain, thread.hasher), workbook: createMemoryWorkbook(), fingerprints: () => fingerprinter(thread.hasher), cellDigests: thread.lineDigests });
        if (!out.ok) throw new Error(out.error.message);
        expect(out.record.evidence!.problem).toBeUndefined();
        expect(decodeJwt(out.record.evidence!.statement!)).toMatchObject({ kind: 'read', dataset: 'risk', records: reference.rowCount });
        expect(out.record.fingerprint).toEqual(reference.record.fingerprint);
        expect(out.record.cells).toEqual(reference.record.cells);
      }
      expect([working.failed, missing.failed]).toEqual([null, expect.stringMatching(/could not start: Worker is not defined/)]);
    } finally {
      working.stop();
    }
  });

  it("a register loaded through the relay keeps each dataset's statement; verify checks each and names one swapped or removed", async () => {
    const empty = join(dir, 'register-empty.xlsx');
    writeEmptyWorkbook(empty);
    const wb = openFileWorkbook(empty);
    const { identifier, password } = sandbox.demoKey!;
    const client = withNodeHash(createClient({ baseUrl: `${relay.url}/api/acc`, credentials: { identifier, password } }));
    const loaded = await loadDataset({ client, workbook: wb, environment: 'acc', datasetId: 'register:risks', target: { kind: 'new-sheet' }, fingerprints: nodeFingerprints, digest: nodeDigest });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const book = join(dir, 'register.xlsx');
    wb.saveTo(book);
    wb.close();
    const parts = loaded.record.evidence!.parts!;
    const read = datasetsRead(registerOf('register:risks')!.register);
    expect(parts.map((p) => p.dataset).sort()).toEqual([...read].sort());
    for (const p of parts) expect([p.dataset, decodeJwt(p.statement!)]).toEqual([p.dataset, expect.objectContaining({ kind: 'read', dataset: p.dataset, requestId: p.requestId })]);
    expect(decodeJwt(parts.find((p) => p.dataset === 'risk')!.statement!).records).toBe(loaded.rowCount);

    const check = openFileWorkbook(book);
    const { columns, rows } = await check.readRows(EVIDENCE_TABLE);
    check.close();
    expect(rows.filter((r) => r[columns.indexOf('Total')] === 'records').map((r) => String(r[columns.indexOf('Signature')]))).toEqual([expect.stringMatching(new RegExp(`^signed by the relay .+: each of the ${read.length} datasets the register read`))]);
    const { code, report } = await verifyBook(book, jwksUrl);
    expect([code, report.tables]).toEqual([0, [expect.objectContaining({ table: loaded.table.name, status: 'verified', statement: expect.objectContaining({ status: 'verified', message: expect.stringContaining("the join is the client's") }) })]]);

    // The evidence file holds each dataset's statement with the public key that checks it.
    const out = join(dir, 'register-evidence.json');
    expect(await evidenceFile([book, '--table', loaded.table.name, '--out', out, '--jwks', jwksFile], { stdout: () => undefined, stderr: () => undefined })).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { summary: string[]; parts: { dataset: string; statement: string; publicKey: { kid: string } | null }[] };
    expect(file.parts.map((p) => [p.dataset, p.statement, p.publicKey?.kid])).toEqual(parts.map((p) => [p.dataset, p.statement, expect.any(String)]));
    expect(file.summary.join('\n')).toContain('not the joined table');

    // Headless refresh through the relay: the new load's statements replace the old, and the state says so.
    const cli = cliIo(sandbox);
    expect([await refresh([book, '--relay', relay.url, '--env', 'acc', '--json'], cli.io), cli.err]).toEqual([0, []]);
    expect((JSON.parse(cli.out.join('\n')) as { tables: { evidence: string }[] }).tables[0]!.evidence).toMatch(new RegExp(`^Signed by the relay on .+, each of the ${read.length} datasets the register read, unchanged since\\.$`));
    const after = openFileWorkbook(book);
    const b = (await readLoadRecords(after)).get(loaded.table.name)!;
    after.close();
    expect(b.evidence!.parts!.map((p) => p.requestId)).not.toContain(parts[0]!.requestId);
    expect((await verifyBook(book, jwksUrl)).code).toBe(0);

    // Tampers of the kept statements (the binding rewritten, as a workbook editor could): each named.
    async function tampered(name: string, changed: typeof parts) {
      const edit = openFileWorkbook(book);
      await saveLoadRecord(edit, { ...b, evidence: { ...b.evidence!, parts: changed } });
      const path = join(dir, name);
      edit.saveTo(path);
      edit.close();
      const found = await verifyBook(path);
      expect(found.code).toBe(1);
      return found.report.tables[0]!;
    }
    const kept = b.evidence!.parts!;
    const [first, second] = [kept[0]!, kept[1]!];
    const swapped = await tampered('register-swapped.xlsx', kept.map((p) => (p === first ? { ...first, statement: second.statement! } : p)));
    expect(swapped).toMatchObject({ status: 'statement', statement: { status: 'other-load', message: expect.stringContaining(`statement of ${first.dataset} does not belong here: it is of dataset ${second.dataset}`) } });
    const removed = await tampered('register-removed.xlsx', kept.map((p) => (p === second ? { dataset: p.dataset } : p)));
    expect(removed).toMatchObject({ status: 'statement', statement: { status: 'incomplete', message: expect.stringContaining(`${second.dataset} has none`) } });
  }, 120_000);

  it("grc-sheets post through the relay keeps each row's signed receipt in the audit; verify checks them and names a receipt removed, copied, forged, moved from another row (identical bodies too) or from another workbook, a body hash and a write reference edited; the Python verifier checks them with the bytes sent", async () => {
    const connect = ['--relay', relay.url, '--env', 'acc'];
    // The exact bytes of each write sent, by the write's reference (its request header), for the Python verifier.
    const sentDir = join(dir, 'sent');
    mkdirSync(sentDir);
    const saving: typeof fetch = (input, init) => {
      const ref = new Headers(init?.headers).get(WRITE_REF_HEADER);
      if (ref && init?.body instanceof Uint8Array) writeFileSync(join(sentDir, ref), init.body);
      return fetch(input, init);
    };
    const blank = join(dir, 'incidents.xlsx');
    const made = cliIo(sandbox);
    expect([await template(['--flow', 'incidents', ...connect, '--json', blank], made.io), made.err]).toEqual([0, []]);
    const table = (JSON.parse(made.out.join('\n')) as { table: string }).table;
    /** A copy of the new incidents workbook, these rows filled in. */
    const filled = (name: string, rows: [string, string | null][]) => {
      const path = join(dir, name);
      copyFileSync(blank, path);
      fillIncidents(path, table, rows);
      return path;
    };
    /** Posts the workbook at `path` (of `rows` rows) through the relay (through `through`, when given). */
    async function posted(path: string, rows: number, through = saving) {
      const sent = cliIo(sandbox);
      sent.io.fetch = through;
      expect(await post([path, '--table', table, ...connect, '--yes'], sent.io)).toBe(0);
      // Only the warning that identical rows are each sent.
      expect(sent.err).toEqual(rows > 1 ? Array.from({ length: rows }, () => expect.stringContaining('(warning): this row is identical to row')) : []);
      expect(sent.out.join('\n')).toMatch(new RegExp(`${rows} created`));
      return path;
    }
    // Two identical creates: byte-identical bodies, told apart only by each write's reference. A copy of the
    // workbook is another workbook with the same creates, posted later.
    const book = filled('post.xlsx', [['Witnessed twin', null], ['Witnessed twin', null]]);
    copyFileSync(book, join(dir, 'other.xlsx'));
    await posted(book, 2);

    const wb = openFileWorkbook(book);
    const audit = await wb.readRows(AUDIT_TABLE);
    const head = await wb.getSetting(AUDIT_HEAD_KEY);
    wb.close();
    const col = (n: string) => audit.columns.indexOf(n);
    expect(audit.columns.slice(-4)).toEqual([RELAY_RECEIPT, SENT_BODIES, PREVIOUS_HASH, 'Hash']);
    const stored = sandbox.store.addedRecords('incidents').slice(-2) as { Guid?: string; GUID?: string }[];
    expect(stored).toHaveLength(2);
    for (const row of audit.rows) {
      const receipt = decodeJwt(String(row[col(RELAY_RECEIPT)])) as unknown as WriteReceipt;
      expect(receipt).toMatchObject({ kind: 'write', method: 'POST', status: expect.any(Number), environment: { name: 'acc' }, who: { kind: 'key', fingerprint: row[col('Who')] }, bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(receipt.status).toBeGreaterThanOrEqual(200);
      expect(receipt.status).toBeLessThan(300);
      // The client's own hash of the bytes it sent and its reference of the write, kept in the chain, are the ones the relay signed.
      expect(receipt.writeRef).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row[col(SENT_BODIES)]).toBe(`${receipt.bodySha256} ${receipt.writeRef}`);
    }
    const [first, second] = audit.rows.map((r) => decodeJwt(String(r[col(RELAY_RECEIPT)])) as unknown as WriteReceipt);
    expect(first!.bodySha256).toBe(second!.bodySha256);
    expect(first!.writeRef).not.toBe(second!.writeRef);

    for (const keys of [jwksUrl, jwksFile]) {
      const { code, report } = await verifyBook(book, keys);
      expect(code).toBe(0);
      expect(report.audit).toMatchObject({ status: 'verified', message: expect.stringContaining("2 receipts tied to their row's write reference"), receipts: { signed: 2, unsigned: 0, signatures: 'checked', bodies: 'checked', references: { tied: 2, untied: 0 }, problems: [] } });
    }
    /** The audit with `cut`'s cells and the chain recomputed over them (so that the chain alone would not tell), saved as `name`. */
    async function rechained(name: string, cells: typeof audit.rows) {
      const rows = await chained(cells.map((r) => [...r]), '');
      const edit = openFileWorkbook(book);
      await edit.writeRows(AUDIT_TABLE, 0, rows);
      await edit.setSetting(AUDIT_HEAD_KEY, { ...(head as { entries: number }), hash: rows.at(-1)!.at(-1) });
      const path = join(dir, name);
      edit.saveTo(path);
      edit.close();
      return verifyBook(path);
    }
    const receiptCell = (row: number) => expect.stringMatching(new RegExp(`^'Write-back audit'!\\$?${String.fromCharCode(65 + col(RELAY_RECEIPT))}\\$?${row}$`));
    const bodyCell = (row: number) => expect.stringMatching(new RegExp(`^'Write-back audit'!\\$?${String.fromCharCode(65 + col(SENT_BODIES))}\\$?${row}$`));

    // Tamper: the second row's receipt removed, and the chain recomputed so that it alone would not tell.
    const cut = audit.rows.map((r) => r.slice(0, col(PREVIOUS_HASH)));
    cut[1]![col(RELAY_RECEIPT)] = '';
    const relinked = await chained(cut, '');
    const edit = openFileWorkbook(book);
    await edit.writeRows(AUDIT_TABLE, 0, relinked);
    await edit.setSetting(AUDIT_HEAD_KEY, { ...(head as { entries: number }), hash: relinked.at(-1)!.at(-1) });
    const removed = join(dir, 'receipt-removed.xlsx');
    edit.saveTo(removed);
    edit.close();
    const { code, report } = await verifyBook(removed);
    expect(code).toBe(1);
    expect(report.audit.breaks).toEqual([expect.objectContaining({ problem: 'receipt-removed', address: expect.stringMatching(/^'Write-back audit'!\$?[A-Z]+\$?3$/), message: expect.stringContaining('the receipt was removed') })]);

    // Tamper: a receipt copied from the other row (chain recomputed again): named as copied.
    cut[1]![col(RELAY_RECEIPT)] = cut[0]![col(RELAY_RECEIPT)]!;
    const copiedRows = await chained(cut, '');
    const copy = openFileWorkbook(book);
    await copy.writeRows(AUDIT_TABLE, 0, copiedRows);
    await copy.setSetting(AUDIT_HEAD_KEY, { ...(head as { entries: number }), hash: copiedRows.at(-1)!.at(-1) });
    const copied = join(dir, 'receipt-copied.xlsx');
    copy.saveTo(copied);
    copy.close();
    const again = await verifyBook(copied);
    expect(again.code).toBe(1);
    expect(again.report.audit.breaks?.map((b) => b.problem)).toContain('copied');

    // Tamper: the first row's receipt altered to say the service answered another body (chain recomputed): forged.
    const [h, payload, sig] = String(audit.rows[0]![col(RELAY_RECEIPT)]).split('.');
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), answerSha256: '0'.repeat(64) })).toString('base64url');
    cut[1]![col(RELAY_RECEIPT)] = audit.rows[1]![col(RELAY_RECEIPT)]!;
    cut[0]![col(RELAY_RECEIPT)] = `${h}.${altered}.${sig}`;
    const forgedRows = await chained(cut, '');
    const forge = openFileWorkbook(book);
    await forge.writeRows(AUDIT_TABLE, 0, forgedRows);
    await forge.setSetting(AUDIT_HEAD_KEY, { ...(head as { entries: number }), hash: forgedRows.at(-1)!.at(-1) });
    const forgedBook = join(dir, 'receipt-forged.xlsx');
    forge.saveTo(forgedBook);
    forge.close();
    const forged = await verifyBook(forgedBook);
    expect(forged.code).toBe(1);
    expect(forged.report.audit.breaks).toEqual([expect.objectContaining({ problem: 'forged', address: expect.stringMatching(/2$/) })]);

    // Tamper: the two rows' receipts swapped (each moved from the other row, chain recomputed): their bodies
    // are identical, but each signs a write reference the row did not send, named at the row's receipt.
    const swapped = audit.rows.map((r) => r.slice(0, col(PREVIOUS_HASH)));
    [swapped[0]![col(RELAY_RECEIPT)], swapped[1]![col(RELAY_RECEIPT)]] = [swapped[1]![col(RELAY_RECEIPT)]!, swapped[0]![col(RELAY_RECEIPT)]!];
    const moved = await rechained('receipt-moved.xlsx', swapped);
    expect(moved.code).toBe(1);
    expect(moved.report.audit.breaks).toEqual([
      expect.objectContaining({ problem: 'other-write', address: receiptCell(2), message: expect.stringContaining(`write reference ${second!.writeRef}`) }),
      expect.objectContaining({ problem: 'other-write', address: receiptCell(3), message: expect.stringContaining(`write reference ${first!.writeRef}`) }),
    ]);

    // Tamper: the first row's receipt replaced by the receipt of the same create posted from another
    // workbook (same person, environment and body; chain recomputed): its reference is not this row's.
    const other = openFileWorkbook(await posted(join(dir, 'other.xlsx'), 2));
    const otherReceipt = String((await other.readRows(AUDIT_TABLE)).rows[0]![col(RELAY_RECEIPT)]);
    other.close();
    expect((decodeJwt(otherReceipt) as unknown as WriteReceipt).bodySha256).toBe(first!.bodySha256);
    const foreign = audit.rows.map((r) => r.slice(0, col(PREVIOUS_HASH)));
    foreign[0]![col(RELAY_RECEIPT)] = otherReceipt;
    const fromOther = await rechained('receipt-other-book.xlsx', foreign);
    expect(fromOther.code).toBe(1);
    expect(fromOther.report.audit.breaks).toEqual([expect.objectContaining({ problem: 'other-write', address: receiptCell(2), message: expect.stringContaining('another workbook') })]);

    // Tamper: the first row's body hash edited, its reference kept (chain recomputed): its receipt no longer matches it.
    const edited = audit.rows.map((r) => r.slice(0, col(PREVIOUS_HASH)));
    edited[0]![col(SENT_BODIES)] = `${'f'.repeat(64)} ${first!.writeRef}`;
    const bodyEdited = await rechained('body-edited.xlsx', edited);
    expect(bodyEdited.code).toBe(1);
    expect(bodyEdited.report.audit.breaks).toEqual([expect.objectContaining({ problem: 'body-mismatch', address: bodyCell(2), message: expect.stringContaining('f'.repeat(64)) })]);

    // Tamper: the first row's write reference edited to the other row's (chain recomputed).
    edited[0]![col(SENT_BODIES)] = `${first!.bodySha256} ${second!.writeRef}`;
    const refEdited = await rechained('ref-edited.xlsx', edited);
    expect(refEdited.code).toBe(1);
    expect(refEdited.report.audit.breaks).toEqual([expect.objectContaining({ problem: 'other-write', address: receiptCell(2), message: expect.stringContaining('reference was edited') })]);

    // A write whose answer the relay had but the client lost (its connection failed once the answer was in):
    // the row is found in the service after the unknown outcome, and its audit row holds the write's line
    // and the receipt fetched by the write's reference; verify passes.
    let lostRef: string | null = null;
    const losing: typeof fetch = async (input, init) => {
      const answer = await saving(input, init);
      if (lostRef !== null || init?.method !== 'POST') return answer;
      lostRef = new Headers(init.headers).get(WRITE_REF_HEADER);
      await answer.arrayBuffer();
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    };
    const lostBook = await posted(filled('lost.xlsx', [['Witnessed lost', null]]), 1, losing);
    const lw = openFileWorkbook(lostBook);
    const lostRow = (await lw.readRows(AUDIT_TABLE)).rows[0]!;
    lw.close();
    expect(String(lostRow[col('Message')])).toMatch(/^Found in the service after an unknown outcome/);
    const lostReceipt = decodeJwt(String(lostRow[col(RELAY_RECEIPT)])) as unknown as WriteReceipt;
    expect(lostReceipt).toMatchObject({ kind: 'write', method: 'POST', writeRef: lostRef });
    expect(lostRow[col(SENT_BODIES)]).toBe(`${lostReceipt.bodySha256} ${lostRef}`);
    expect((await verifyBook(lostBook)).report.audit).toMatchObject({ status: 'verified', receipts: { signed: 1, references: { tied: 1, untied: 0 }, problems: [] } });

    // The independent verifier (python3-jwt, openpyxl): each receipt's signature with the saved JWKS, its
    // reference and body hash against its row, and the body hash recomputed from the exact bytes sent.
    expect(readdirSync(sentDir)).toEqual(expect.arrayContaining([first!.writeRef, second!.writeRef, (decodeJwt(otherReceipt) as unknown as WriteReceipt).writeRef, lostRef]));
    expect(readdirSync(sentDir)).toHaveLength(5);
    // The bytes sent, one body changed by a byte.
    const changedDir = join(dir, 'sent-changed');
    cpSync(sentDir, changedDir, { recursive: true });
    writeFileSync(join(changedDir, second!.writeRef!), Buffer.concat([readFileSync(join(sentDir, second!.writeRef!)), Buffer.from(' ')]));
    // One run (each python start costs about half a second): the untouched workbooks, then the tampered ones.
    const books = [book, lostBook, ...['receipt-moved', 'receipt-forged', 'body-edited'].map((n) => join(dir, `${n}.xlsx`))];
    let python: { code: number; found: unknown };
    try {
      python = { code: 0, found: JSON.parse(execFileSync('/usr/bin/python3', [join(__dirname, 'verify_receipts.py'), jwksFile, ...books.flatMap((b) => [sentDir, b]), changedDir, book], { stdio: 'pipe' }).toString()) };
    } catch (e) {
      python = { code: (e as { status: number }).status, found: JSON.parse(String((e as { stdout: Buffer }).stdout)) };
    }
    expect(python).toEqual({
      code: 1,
      found: [
        { receipts: 2, problems: [] },
        { receipts: 1, problems: [] },
        { receipts: 2, problems: [{ row: 2, problem: 'writeRef' }, { row: 3, problem: 'writeRef' }] },
        { receipts: 2, problems: [{ row: 2, problem: 'signature' }] },
        { receipts: 2, problems: [{ row: 2, problem: 'row-body' }] },
        { receipts: 2, problems: [{ row: 3, problem: 'bytes' }] },
      ],
    });
  }, 120_000);
});
