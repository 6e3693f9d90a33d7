import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as post } from '../../../src/cli/post';
import { run as template } from '../../../src/cli/template';
import { startRelay, type Relay } from '../../../src/relay';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { incidentResults, fillIncidents } from '../../support/incident-book';
import { openpyxl } from '../../support/outside-readers';
import { cliIo } from '../../support/sandbox';

const BIN = join(__dirname, '..', '..', '..', 'bin', 'grc-sheets.js');

/**
 * `grc-sheets post` against the real sandbox (directly and through the relay): a template made headless,
 * filled with openpyxl, validated and posted; results read back by openpyxl; records in the sandbox store.
 */
describe('grc-sheets post', () => {
  let sandbox: Sandbox;
  let relay: Relay;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 60 });
    relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url }, prd: { baseUrl: sandbox.url, production: true } } }, {});
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-post-'));
  });
  afterAll(async () => {
    await relay.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const io = () => cliIo(sandbox);
  const added = () => sandbox.store.addedRecords('incidents').length;

  /** A headless template with rows typed by openpyxl: each [name, organization or null for the list's first]. */
  async function filled(name: string, rows: [string, string | null][], connect: string[] = ['--base-url', sandbox.url, '--env', 'ACC']): Promise<{ book: string; table: string }> {
    const book = join(dir, `${name}.xlsx`);
    const cli = io();
    expect([await template(['--flow', 'incidents', ...connect, '--json', book], cli.io), cli.err]).toEqual([0, []]);
    const table = (JSON.parse(cli.out.join('\n')) as { table: string }).table;
    fillIncidents(book, table, rows);
    return { book, table };
  }

  const results = incidentResults;

  it('posts a template filled by openpyxl: records in the sandbox, each row\'s result in the file; a second post creates nothing twice', async () => {
    const { book, table } = await filled('post', [['Headless one', null], ['Headless two', null]]);
    const before = added();
    // The sandbox has no binding: the add-in asks to confirm the assumed paths; so does post.
    const asked = io();
    expect(await post([book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC'], asked.io)).toBe(1);
    expect(asked.err.join('\n')).toMatch(/Path assumed.*Give --yes to post all the same\. Nothing was sent\./);
    expect(added()).toBe(before);
    const cli = io();
    expect([await post([book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC', '--yes'], cli.io), cli.err]).toEqual([0, []]);
    expect(cli.out.join('\n')).toMatch(/2 created, 0 done, 0 failed, 0 unknown/);
    expect(added()).toBe(before + 2);
    const names = sandbox.store.addedRecords('incidents').slice(-2).map((r) => (r as { Name?: string }).Name);
    expect(names).toEqual(['Headless one', 'Headless two']);

    const rows = results(book);
    expect(rows.map((r) => [r['Name'], r['Result']])).toEqual([
      ['Headless one', 'created'],
      ['Headless two', 'created'],
    ]);
    for (const r of rows) expect(r['Result GUID']).toMatch(/^[0-9a-f-]{36}$/i);
    // The audit entry the taskpane writes, read by openpyxl: one row per posted row, by the key's fingerprint.
    const audit = openpyxl<{ who: string; result: string; hash: string }[]>(
      book,
      `wb = load_workbook(sys.argv[1])
ws = wb['Write-back audit']
heads = [c.value for c in ws[1]]
print(json.dumps([{'who': r[heads.index('Who')].value, 'result': r[heads.index('Result')].value, 'hash': r[heads.index('Hash')].value} for r in ws.iter_rows(min_row=2)]))`,
    );
    expect(audit).toEqual([1, 2].map(() => ({ who: expect.stringMatching(/^key:[0-9a-f]{12}$/), result: 'created', hash: expect.stringMatching(/^[0-9a-f]{64}$/) })));

    const again = io();
    expect(await post([book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC', '--yes'], again.io)).toBe(0);
    expect(again.out.join('\n')).toMatch(/nothing to post/);
    expect(added()).toBe(before + 2);
  }, 90_000);

  it('--dry-run lists the problems by row and column, marks their cells in the file, sends nothing', async () => {
    const { book, table } = await filled('dry', [['Good row', null], ['', null], ['Bad organization', 'Nowhere Inc']]);
    const before = added();
    const cli = io();
    expect(await post([book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC', '--dry-run'], cli.io)).toBe(1);
    const err = cli.err.join('\n');
    expect(err).toMatch(/Row 3.*Name/);
    expect(err).toMatch(/Row 4.*Reporting organization.*Nowhere Inc/);
    expect(cli.out.join('\n')).toMatch(/2 rows with errors.*Nothing was sent/);
    expect(added()).toBe(before);
    expect(results(book).every((r) => r['Result'] === null)).toBe(true);
    // The problem cells are filled as the add-in fills them (red for an error); the good row is not.
    const fills = openpyxl<Record<string, string>>(
      book,
      `ws = load_workbook(sys.argv[1])['Incidents']
heads = [c.value for c in ws[1]]
org = heads.index('Reporting organization')
print(json.dumps({ws.cell(row=r, column=c + 1).coordinate: ws.cell(row=r, column=c + 1).fill.fgColor.rgb for r in (2, 3, 4) for c in (0, org) if ws.cell(row=r, column=c + 1).fill.fill_type == 'solid'}))`,
    );
    expect(Object.values(fills)).toEqual(['FFF4CCCC', 'FFF4CCCC']);
    expect(Object.keys(fills)[0]).toBe('A3');
    expect(Object.keys(fills)[1]).toMatch(/^[A-Z]+4$/);
  }, 90_000);

  it('--json: one object a scheduler reads, for a refusal, a dry run, a post and a post with nothing left', async () => {
    const { book, table } = await filled('json', [['Json one', null], ['Json two', null], ['', null]]);
    const connect = [book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC', '--json'];
    const before = added();
    const json = async (argv: string[], code: number) => {
      const cli = io();
      expect(await post(argv, cli.io)).toBe(code);
      return JSON.parse(cli.out.join('\n')) as Record<string, unknown>;
    };
    const base = { file: book, table, environment: 'ACC' };

    expect(await json(connect, 1)).toEqual({ ...base, ok: false, saved: false, sent: false, refused: expect.stringMatching(/Path assumed.*Give --yes/) });
    const dry = await json([...connect, '--dry-run'], 1);
    expect(dry).toMatchObject({ ...base, ok: false, saved: true, sent: false, dryRun: true, toSend: 2, rowsWithErrors: 1 });
    expect(dry['problems']).toEqual([expect.objectContaining({ row: 2, sheetRow: 4, column: 'Name', severity: 'error' })]);

    const posted = await json([...connect, '--yes'], 1);
    expect(posted).toMatchObject({ ...base, ok: false, saved: true, sent: true, flow: 'incidents', withErrors: 1, cancelled: false, counts: expect.objectContaining({ created: 2, failed: 0, unknown: 0 }) });
    expect(posted['outcomes']).toEqual([
      { row: 0, sheetRow: 2, status: 'created', guid: expect.stringMatching(/^[0-9a-f-]{36}$/i), message: expect.any(String) },
      { row: 1, sheetRow: 3, status: 'created', guid: expect.stringMatching(/^[0-9a-f-]{36}$/i), message: expect.any(String) },
    ]);
    expect(added()).toBe(before + 2);
    expect(await json([...connect, '--yes'], 1)).toMatchObject({ ...base, ok: false, saved: false, sent: false, nothingToPost: true, toSend: 0, rowsWithErrors: 1 });
    expect(added()).toBe(before + 2);
  }, 90_000);

  it('exits 1 with "ok": false when the relay refuses every row before the service sees it: nothing posted is never "ok"', async () => {
    // A relay that takes no body of more than 16 bytes: it refuses each row's POST itself (413, nothing
    // forwarded), the runner tries each row again and leaves it "not sent". Reads (the standing data) go through.
    const small = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url } }, limits: { bodyBytes: 16 }, logLevel: 'silent' });
    try {
      const connect = ['--relay', small.url, '--env', 'acc'];
      const { book, table } = await filled('refused', [['Refused one', null], ['Refused two', null]], connect);
      const before = added();
      const cli = io();
      expect(await post([book, '--table', table, ...connect, '--yes', '--json'], cli.io)).toBe(1);
      const json = JSON.parse(cli.out.join('\n')) as { ok: boolean; sent: boolean; counts: Record<string, number>; outcomes: { status: string; message: string }[] };
      expect([json.ok, json.counts['not sent'], json.counts.created]).toEqual([false, 2, 0]);
      expect(json.outcomes.map((o) => o.status)).toEqual(['not sent', 'not sent']);
      expect(json.outcomes[0]!.message).toMatch(/^Not sent: .*larger than the relay accepts/);
      expect(added()).toBe(before);
      // Without --json the rows are named on stderr and the count on stdout.
      const plain = io();
      expect(await post([book, '--table', table, ...connect, '--yes'], plain.io)).toBe(1);
      expect(plain.err.join('\n')).toMatch(/GrcIncidents: row 2: not sent: Not sent: /);
      expect(plain.out.join('\n')).toMatch(/0 created, .*2 not sent \(each row's message says why\)/);
    } finally {
      await small.close();
    }
  }, 90_000);

  it('refuses a production environment without --yes-production, before anything is read; with it, the taskpane\'s own rules still apply', async () => {
    const { book, table } = await filled('prd', [['Production row', null]]);
    const before = added();
    const connect = ['--relay', relay.url, '--env', 'prd'];
    const refused = io();
    expect(await post([book, '--table', table, ...connect], refused.io)).toBe(1);
    expect(refused.err.join('\n')).toMatch(/prd is a production environment: give --yes-production.*Nothing was sent/);
    // With it, the add-in's refusal of an assumed path on production still holds (this relay has no binding).
    const assumed = io();
    expect(await post([book, '--table', table, ...connect, '--yes', '--yes-production'], assumed.io)).toBe(1);
    expect(assumed.err.join('\n')).toMatch(/assumed.*Nothing was sent/);
    expect(added()).toBe(before);
    expect(results(book)[0]!['Result']).toBeNull();
  }, 90_000);

  it('opened in Excel mid-post (its lock file appears as the first record is stored): no row is sent whose mark could not be saved; once closed, a rerun makes one record per row', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `Opened ${String(i + 1).padStart(2, '0')}`);
    const { book, table } = await filled('opened', names.map((n) => [n, null]));
    const before = added();
    const lock = join(dir, '~$opened.xlsx');
    const store = sandbox.store;
    const add = store.add;
    const args = [book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC', '--yes'];
    const cli = io();
    try {
      store.add = (dataset, rec) => {
        add.call(store, dataset, rec);
        if (dataset === 'incidents' && !existsSync(lock)) writeFileSync(lock, 'excel');
      };
      expect(await post(args, cli.io)).toBe(1);
    } finally {
      store.add = add;
    }
    expect(cli.err.join('\n')).toMatch(/is open in Excel/);
    const made = sandbox.store.addedRecords('incidents').slice(before).map((r) => (r as { Name: string }).Name);
    expect(made.length).toBeLessThan(names.length);
    // Every row whose record exists is marked in the file as saved: the rerun looks for it before sending.
    const left = new Map(results(book).map((r) => [r['Name'] as string, r['Result']]));
    for (const n of made) expect(['sending', 'created']).toContain(left.get(n));
    rmSync(lock);
    const again = io();
    expect([await post(args, again.io), again.err]).toEqual([0, []]);
    const all = sandbox.store.addedRecords('incidents').slice(before).map((r) => (r as { Name: string }).Name);
    expect(all.sort()).toEqual([...names].sort());
  }, 90_000);

  it('stopped (SIGTERM), then killed (SIGKILL) twice in a 60-row post, each just after the service stored a record it never answered, run again: every row has one record, none twice', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `Interrupted ${String(i + 1).padStart(2, '0')}`);
    const { book, table } = await filled('killed', names.map((n) => [n, null]));
    const before = added();
    const args = [BIN, 'post', book, '--table', table, '--base-url', sandbox.url, '--env', 'ACC', '--yes'];
    const env = { ...process.env, GRC_SHEETS_KEY_ID: sandbox.demoKey!.identifier, GRC_SHEETS_KEY_PASSWORD: sandbox.demoKey!.password };
    const stored = () => sandbox.store.addedRecords('incidents').slice(before).map((r) => ({ name: (r as { Name: string }).Name, id: (r as { Id: string }).Id }));
    const store = sandbox.store;
    const add = store.add;
    try {
      // Signalled as the sandbox stores the k-th record, before it answers: a condition, not a time. The
      // stop lands in the first batch marked ahead; the kills in reruns that first look for the rows left
      // "sending", in their second and third batch.
      for (const [k, signal] of [[1, 'SIGTERM'], [25, 'SIGKILL'], [50, 'SIGKILL']] as const) {
        const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        let sent = false;
        store.add = (dataset, rec) => {
          add.call(store, dataset, rec);
          if (dataset === 'incidents' && added() - before >= k && !sent) sent = child.kill(signal);
        };
        const code = await exited;
        store.add = add;
        const made = stored();
        expect(made.length).toBeGreaterThanOrEqual(k);
        expect(made.length).toBeLessThan(names.length);
        const left = new Map(results(book).map((r) => [r['Name'] as string, r]));
        expect(new Set(made.map((m) => m.name)).size).toBe(made.length);
        if (signal === 'SIGTERM') {
          // Stopped: the rows on their way finished and were saved; the rows marked ahead and never sent
          // are blank again, as they were.
          expect(code).toBe(1);
          for (const [n, r] of left) {
            const m = made.find((x) => x.name === n);
            expect([r['Result'], r['Result GUID']]).toEqual(m ? ['created', m.id] : [null, null]);
          }
          continue;
        }
        // What the killed run left on disk: a row whose record exists says it may have been sent
        // (sending, unknown) or is created with that record.
        for (const m of made) {
          const r = left.get(m.name)!;
          expect(['sending', 'unknown', 'created']).toContain(r['Result']);
          if (r['Result'] === 'created') expect(r['Result GUID']).toBe(m.id);
          expect(r['Row key']).not.toBeNull();
        }
        for (const [n, r] of left) if (!made.some((m) => m.name === n)) expect([null, 'sending', 'not sent']).toContain(r['Result']);
      }
    } finally {
      store.add = add;
    }

    const cli = io();
    expect([await post(args.slice(2), cli.io), cli.err]).toEqual([0, []]);
    expect(stored().map((m) => m.name).sort()).toEqual([...names].sort());
    const rows = results(book);
    expect(rows.map((r) => r['Result'])).toEqual(names.map(() => 'created'));
    expect(rows.map((r) => r['Result GUID'])).toEqual(names.map((n) => stored().find((m) => m.name === n)!.id));
  }, 90_000);
});
