import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as post } from '../../../src/cli/post';
import { run, type RefreshIo } from '../../../src/cli/refresh';
import { run as template } from '../../../src/cli/template';
import { run as verify } from '../../../src/cli/verify';
import { fillIncidents } from '../../support/incident-book';
import { openpyxl } from '../../support/outside-readers';
import { serviceSession } from '../../../src/connect/service-client';
import { DEMO_POLICY, startSignInDemo } from '../../../src/cli/start-sign-in';
import { startDemoProvider, type DemoProvider } from '../../../src/identity/demo-provider';
import { startRelay, type Relay } from '../../../src/relay';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { captureLog } from '../../relay/helpers';

/**
 * `grc-sheets refresh` on a scheduler with no API key: the relay holds the key and people sign in (issue 17);
 * the run authenticates as a service client (client credentials at the real demo provider), the relay takes
 * it for "service: <client id>", applies its policy to the client's app role and adds the key. The sandbox,
 * the provider and the relay are real, on loopback.
 */
const FIXTURES = join(__dirname, 'fixtures');
/** The service clients' secrets: none of them may appear in any output, log line or workbook part. */
const SCHEDULER_SECRET = 'SCHEDULER-SECRET-sentinel-5d1e';
const IMPORTER_SECRET = 'IMPORTER-SECRET-sentinel-77c0';

let sandbox: Sandbox;
let provider: DemoProvider;
let relay: Relay;
let dir: string;
const log = captureLog();
const said: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 120 });
  dir = mkdtempSync(join(tmpdir(), 'grc-cli-service-'));
  const keyFile = join(dir, 'acc.key');
  writeFileSync(keyFile, `${sandbox.demoKey!.identifier}:${sandbox.demoKey!.password}\n`, { mode: 0o600 });
  const policy = join(dir, 'policy.json');
  writeFileSync(policy, JSON.stringify(DEMO_POLICY));
  provider = await startDemoProvider({
    redirectUris: [],
    serviceClients: [
      { clientId: 'grc-sheets-scheduler', secret: SCHEDULER_SECRET, roles: ['scheduled-refresh'] },
      { clientId: 'grc-sheets-importer', secret: IMPORTER_SECRET, roles: ['scheduled-import'] },
      { clientId: 'grc-sheets-stranger', secret: IMPORTER_SECRET, roles: ['no-such-role'] },
    ],
  });
  relay = await startRelay(
    {
      listen: { host: '127.0.0.1', port: 0 },
      // The demo policy names both; only sandbox-acc is used here.
      environments: {
        'sandbox-acc': { baseUrl: sandbox.url, production: false, key: { file: keyFile } },
        'sandbox-prd': { baseUrl: sandbox.url, production: true, key: { file: keyFile } },
      },
      identity: { issuer: provider.issuer, audience: provider.audience, clientId: provider.clientId, scopes: provider.scopes },
      policy,
      personalKeys: false,
    },
    { logDestination: log },
  );
}, 60_000);

afterAll(async () => {
  await relay?.close(0);
  await Promise.all([provider?.close(), sandbox?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function io(env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: RefreshIo = {
    env,
    stdout: (t) => (out.push(t), said.push(t)),
    stderr: (t) => (err.push(t), said.push(t)),
    fetch: globalThis.fetch,
  };
  return { cli, out, err };
}

/** The fixture's table, bound as if loaded from the relay's environment sandbox-acc. */
function book(name: string): string {
  const path = join(dir, name);
  const script = `import sys, zipfile
src, dst = sys.argv[1:]
part = 'xl/webextensions/webextension1.xml'
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for i in zin.infolist():
        data = zin.read(i)
        zout.writestr(i, data.replace(b'environment\\\\&quot;:\\\\&quot;ACC', b'environment\\\\&quot;:\\\\&quot;sandbox-acc') if i.filename == part else data)`;
  execFileSync('/usr/bin/python3', ['-c', script, join(FIXTURES, 'pivot-chart.xlsx'), path]);
  expect(execFileSync('unzip', ['-p', path, 'xl/webextensions/webextension1.xml']).toString()).toContain('sandbox-acc');
  return path;
}

/** Every part of the workbook, as text: for the sentinel check. */
const partsOf = (path: string) => execFileSync('unzip', ['-p', path]).toString('latin1');

const args = (path: string) => [path, '--relay', relay.url, '--env', 'sandbox-acc', '--json'];

test('with only GRC_SHEETS_CLIENT_ID and its secret file, the refresh goes through the relay, which names the client', async () => {
  const path = book('scheduled.xlsx');
  const secretFile = join(dir, 'scheduler.secret');
  writeFileSync(secretFile, `${SCHEDULER_SECRET}\n`, { mode: 0o600 });
  const { cli, out, err } = io({ GRC_SHEETS_CLIENT_ID: 'grc-sheets-scheduler', GRC_SHEETS_CLIENT_SECRET_FILE: secretFile });
  expect([await run(args(path), cli), err]).toEqual([0, []]);
  const summary = JSON.parse(out.join('\n')) as { saved: boolean; tables: { table: string; ok: boolean; rows: number }[] };
  expect(summary).toMatchObject({ saved: true, tables: [{ table: 'tbl_risk', ok: true, rows: 120 }] });
  // The read went through the relay as the service, with the relay's key.
  const read = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => String(l.path ?? l.url ?? '').includes('/directdata/v3/risk'));
  expect(read.length).toBeGreaterThan(0);
  expect(read.at(-1)).toMatchObject({ person: 'grc-sheets-scheduler', personName: 'service: grc-sheets-scheduler', status: 200 });
  expect(read.at(-1)!.key).toMatch(/^[0-9a-f]{12}$/);

  // The secret in the environment works the same way.
  const inline = io({ GRC_SHEETS_CLIENT_ID: 'grc-sheets-scheduler', GRC_SHEETS_CLIENT_SECRET: SCHEDULER_SECRET });
  expect([await run(args(path), inline.cli), inline.err]).toEqual([0, []]);
  expect(partsOf(path)).not.toContain(SCHEDULER_SECRET);

  // As a scheduler starts it: the grc-sheets command (tsx, oauth4webapi as an ES module), no key anywhere.
  const bin = join(__dirname, '..', '..', '..', 'bin', 'grc-sheets.js');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, GRC_SHEETS_CLIENT_ID: 'grc-sheets-scheduler', GRC_SHEETS_CLIENT_SECRET_FILE: secretFile };
  const done = await new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(process.execPath, [bin, 'refresh', ...args(path)], { env }, (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, out: stdout, err: stderr })),
  );
  said.push(done.out, done.err);
  expect([done.code, done.err]).toEqual([0, '']);
  expect(JSON.parse(done.out)).toMatchObject({ saved: true, tables: [{ table: 'tbl_risk', ok: true, rows: 120 }] });
}, 60_000);

test('a secret file others can read is refused, naming the variable and the fix', async () => {
  const path = book('open-secret.xlsx');
  const before = readFileSync(path);
  const secretFile = join(dir, 'open.secret');
  writeFileSync(secretFile, SCHEDULER_SECRET);
  chmodSync(secretFile, 0o644);
  const { cli, err } = io({ GRC_SHEETS_CLIENT_ID: 'grc-sheets-scheduler', GRC_SHEETS_CLIENT_SECRET_FILE: secretFile });
  expect(await run(args(path), cli)).toBe(2);
  expect(err.join('\n')).toContain(`GRC_SHEETS_CLIENT_SECRET_FILE ${secretFile} can be read by group or others (mode 644)`);
  expect(err.join('\n')).toContain(`chmod 600 ${secretFile}`);
  expect(readFileSync(path).equals(before)).toBe(true);
});

test('a wrong secret stops the run before anything is read, naming GRC_SHEETS_CLIENT_SECRET; nothing is written', async () => {
  const path = book('wrong-secret.xlsx');
  const before = readFileSync(path);
  const { cli, out, err } = io({ GRC_SHEETS_CLIENT_ID: 'grc-sheets-scheduler', GRC_SHEETS_CLIENT_SECRET: 'not-the-secret' });
  expect(await run(args(path), cli)).toBe(2);
  expect(out).toEqual([]);
  expect(err.join('\n')).toMatch(/the sign-in provider refused service client grc-sheets-scheduler \(invalid_client[^)]*\): check GRC_SHEETS_CLIENT_SECRET and GRC_SHEETS_CLIENT_ID/);
  expect(err.join('\n')).not.toContain('not-the-secret');
  expect(readFileSync(path).equals(before)).toBe(true);
});

test("a client whose role the policy does not give the dataset is refused by the policy's rule, named", async () => {
  const path = book('importer.xlsx');
  const before = readFileSync(path);
  const { cli, out, err } = io({ GRC_SHEETS_CLIENT_ID: 'grc-sheets-importer', GRC_SHEETS_CLIENT_SECRET: IMPORTER_SECRET });
  expect(await run(args(path), cli)).toBe(1);
  // With --json the table's error is in the summary a scheduler reads.
  expect(err).toEqual([]);
  const summary = JSON.parse(out.join('\n')) as { saved: boolean; tables: { ok: boolean; error: { message: string } }[] };
  expect(summary).toMatchObject({ saved: false, tables: [{ ok: false }] });
  const text = summary.tables[0]!.error.message;
  expect(text).toContain('Service client grc-sheets-importer (roles scheduled-import)');
  expect(text).toContain('Refused by rule "scheduled-import" (datasets)');
  expect(text).toContain(DEMO_POLICY.contact);
  expect(readFileSync(path).equals(before)).toBe(true);
  const refused = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.person === 'grc-sheets-importer' && l.status === 403);
  expect(refused.length).toBeGreaterThan(0);
}, 60_000);

test('a client whose role no rule names is refused before anything is read, saying so', async () => {
  const path = book('stranger.xlsx');
  const before = readFileSync(path);
  const { cli, out, err } = io({ GRC_SHEETS_CLIENT_ID: 'grc-sheets-stranger', GRC_SHEETS_CLIENT_SECRET: IMPORTER_SECRET });
  expect(await run(args(path), cli)).toBe(1);
  expect(out).toEqual([]);
  expect(err.join('\n')).toContain("no rule of the relay's policy is for service: grc-sheets-stranger (its roles: no-such-role)");
  expect(readFileSync(path).equals(before)).toBe(true);
});

test('without a key or a service client, the refusal names both ways', async () => {
  const path = book('none.xlsx');
  const { cli, err } = io({});
  expect(await run(args(path), cli)).toBe(2);
  expect(err.join('\n')).toMatch(/set GRC_SHEETS_KEY_ID and GRC_SHEETS_KEY_PASSWORD.*Or, through a relay that holds the keys, set GRC_SHEETS_CLIENT_ID and GRC_SHEETS_CLIENT_SECRET_FILE \(or GRC_SHEETS_CLIENT_SECRET\)/s);
});

test('a template made and posted as a service client: the audit names the client as the one who ran it', async () => {
  const book = join(dir, 'import.xlsx');
  const env = { GRC_SHEETS_CLIENT_ID: 'grc-sheets-importer', GRC_SHEETS_CLIENT_SECRET: IMPORTER_SECRET };
  const made = io(env);
  expect([await template(['--flow', 'incidents', '--relay', relay.url, '--env', 'sandbox-acc', '--json', book], made.cli), made.err]).toEqual([0, []]);
  const table = (JSON.parse(made.out.join('\n')) as { table: string }).table;
  fillIncidents(book, table, [['Imported overnight', null]]);
  const before = sandbox.store.addedRecords('incidents').length;
  const posted = io(env);
  expect([await post([book, '--table', table, '--relay', relay.url, '--env', 'sandbox-acc', '--yes'], posted.cli), posted.err]).toEqual([0, []]);
  expect(sandbox.store.addedRecords('incidents').length).toBe(before + 1);
  const audit = openpyxl<Record<string, string>[]>(
    book,
    `ws = load_workbook(sys.argv[1])['Write-back audit']
heads = [c.value for c in ws[1]]
print(json.dumps([{h: r[heads.index(h)].value for h in ('Who', 'Result', 'Person ID', 'Key fingerprint')} for r in ws.iter_rows(min_row=2)]))`,
  );
  expect(audit).toEqual([{ Who: 'service: grc-sheets-importer', Result: 'created', 'Person ID': 'grc-sheets-importer', 'Key fingerprint': expect.stringMatching(/^key:[0-9a-f]{12}$/) }]);
  // The relay's receipt of the write is on the audit row, signed as the service client's, and verifies.
  const found: string[] = [];
  expect(await verify([book, '--json', '--jwks', `${relay.url}/.well-known/jwks.json`], { stdout: (t) => found.push(t), stderr: () => undefined })).toBe(0);
  expect(JSON.parse(found.join('\n'))).toMatchObject({ audit: { status: 'verified', receipts: { signed: 1, problems: [] } } });
  expect(partsOf(book)).not.toContain(IMPORTER_SECRET);
}, 60_000);

test('the token is renewed a minute before it expires (a long post keeps going), and only then', async () => {
  const tokenRequests: string[] = [];
  const counting: typeof fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith('/token')) tokenRequests.push(url);
    return globalThis.fetch(input, init);
  };
  let clock = Date.now();
  const session = await serviceSession(relay.url, { clientId: 'grc-sheets-scheduler', secret: SCHEDULER_SECRET, secretVar: 'GRC_SHEETS_CLIENT_SECRET' }, {}, counting, () => clock);
  expect(session.me).toMatchObject({ subject: 'grc-sheets-scheduler', name: 'service: grc-sheets-scheduler', groups: ['scheduled-refresh'] });
  expect(session.me.may.environments).toEqual(['sandbox-acc', 'sandbox-prd']);
  const read = () => session.fetch(`${relay.url}/api/sandbox-acc/directdata/v3/risk`).then((r) => r.status);
  expect(await read()).toBe(200);
  expect(tokenRequests).toHaveLength(1);
  // The demo provider's tokens live 600 s: at 539 s the same one is sent, at 541 s a new one.
  clock += 539_000;
  expect(await read()).toBe(200);
  expect(tokenRequests).toHaveLength(1);
  clock += 2_000;
  expect(await read()).toBe(200);
  expect(tokenRequests).toHaveLength(2);
});

test('grc-sheets start --sign-in lists the demo service clients beside the demo users, with what the policy gives them', async () => {
  const demo = await startSignInDemo({});
  try {
    const banner = demo.bannerLines().join('\n');
    expect(banner).toMatch(/riley +password reporting-demo/);
    expect(banner).toMatch(/grc-sheets-scheduler +secret scheduler-demo-secret +role scheduled-refresh: refreshes risks on sandbox-acc and sandbox-prd/);
    expect(banner).toMatch(/grc-sheets-importer +secret importer-demo-secret +role scheduled-import: reads and posts incidents on sandbox-acc/);
  } finally {
    await demo.close();
  }
});

test('no secret in any output or relay log line', () => {
  const everything = [...said, ...log.lines].join('\n');
  expect(said.length).toBeGreaterThan(0);
  for (const secret of [SCHEDULER_SECRET, IMPORTER_SECRET, Buffer.from(`grc-sheets-scheduler:${SCHEDULER_SECRET}`).toString('base64')])
    expect(everything).not.toContain(secret);
  // Nor the bearer tokens: no JWT in what the run said or the relay logged.
  expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
});
