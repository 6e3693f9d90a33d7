/**
 * `grc-sheets check` against a real sandbox and relay on loopback: what a key, an address and each
 * dataset's path get, as a table and as JSON. The command runs in-process with its output captured.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { bindPaths } from '../catalog/bind-paths';
import { run, type CheckIo } from '../../src/cli/check';
import { checkReport, type CheckReport } from '../../src/check/report';
import { KEY_ID_VAR, KEY_PASSWORD_VAR, readKey } from '../../src/connect/key';
import { startRelay, type Relay } from '../../src/relay';
import type { Sandbox } from '../../src/sandbox';
import { key, start } from '../sandbox/helpers';

const KEYS = [
  key('good'),
  key('no-directdata', {
    apis: ['Incidents', 'Tasks', 'Controls', 'ThirdParties', 'Forms', 'FindingReports'],
  }),
  // Allowed from an address that is not the relay's: the service refuses the relay (401).
  key('elsewhere', { allowedIps: ['203.0.113.7'] }),
];

let sandbox: Sandbox;
let relay: Relay;
let dir: string;

beforeAll(async () => {
  sandbox = await start({ keys: KEYS });
  dir = mkdtempSync(join(tmpdir(), 'grc-check-'));
  // The risk dataset "moved" in this binding: the sandbox (unbound) still serves it at its own path.
  const moved = join(dir, 'moved.json');
  writeFileSync(moved, JSON.stringify(bindPaths({ risk: '/directdata/v3/riskmoved' })));
  relay = await startRelay(
    {
      listen: { host: '127.0.0.1', port: 0 },
      // The sandbox sees the relay's calls come from loopback: that is the relay's egress address here.
      egressIp: '127.0.0.1',
      environments: { acc: { baseUrl: sandbox.url }, moved: { baseUrl: sandbox.url, binding: moved } },
      logLevel: 'silent',
    },
    {},
  );
});
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function check(
  argv: string[],
  identifier?: string,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CheckIo = {
    env: identifier ? { [KEY_ID_VAR]: identifier, [KEY_PASSWORD_VAR]: `pw-${identifier}` } : {},
    stdout: (t) => (out += `${t}\n`),
    stderr: (t) => (err += `${t}\n`),
    fetch: globalThis.fetch,
  };
  const code = await run(argv, io);
  return { code, out, err };
}

async function checkJson(argv: string[], identifier: string): Promise<{ code: number; report: CheckReport }> {
  const { code, out } = await check([...argv, '--json'], identifier);
  return { code, report: checkReport.parse(JSON.parse(out)) };
}

const through = () => ['--relay', relay.url, '--env', 'acc'];

describe('grc-sheets check', () => {
  test('a good key: every documented dataset answers, the assumed ones are listed as not checked, exit 0', async () => {
    const before = await sandbox.store.counts();
    const { code, report } = await checkJson(through(), 'good');
    expect(code).toBe(0);
    expect(report.readOnly).toBe(true);
    expect(report.ok).toBe(true);
    expect(report.authentication.ok).toBe(true);
    const risk = report.datasets.find((d) => d.id === 'risk')!;
    expect(risk).toMatchObject({
      result: 'answers',
      status: 200,
      firstRecordFits: true,
      pathSource: 'documented',
    });
    const documented = report.datasets.filter((d) => d.pathSource === 'documented');
    expect(documented.length).toBeGreaterThan(15);
    expect(documented.every((d) => d.result === 'answers' || d.result === 'empty')).toBe(true);
    const assumed = report.datasets.filter((d) => d.pathSource === 'assumed');
    expect(assumed.length).toBeGreaterThan(0);
    expect(assumed.every((d) => d.result === 'not-checked' && /assumed/.test(d.message))).toBe(true);
    expect(report.summary.failed).toBe(0);
    // It never writes: the sandbox's data is as it was.
    expect(await sandbox.store.counts()).toEqual(before);
  });

  test('the table says it is read-only first and ends with the verdict', async () => {
    const { code, out } = await check(through(), 'good');
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^Read-only: .*never creates or changes anything/);
    expect(out).toMatch(/^ok +Risks \(risk\) +\/directdata\/v3\/risk \[documented\]$/m);
    expect(out.trimEnd()).toMatch(/Check passed\.$/);
  });

  test('a key without Get direct data: every DirectData dataset fails with 403 naming the setting, exit 1', async () => {
    const { code, report } = await checkJson(through(), 'no-directdata');
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.authentication.ok).toBe(true);
    const risk = report.datasets.find((d) => d.id === 'risk')!;
    expect(risk).toMatchObject({ result: 'forbidden', status: 403 });
    expect(risk.fix).toMatch(/Get direct data/);
    expect(risk.fix).toMatch(/Application Administrator/);
    const directdata = report.datasets.filter(
      (d) => d.pathSource === 'documented' && d.path.startsWith('/directdata/'),
    );
    expect(directdata.every((d) => d.result === 'forbidden')).toBe(true);
    const { out } = await check(through(), 'no-directdata');
    expect(out).toMatch(/FAIL 403 +Risks \(risk\)/);
    expect(out).toMatch(/→ The key needs the setting Get direct data/);
    expect(out.trimEnd()).toMatch(/Check FAILED\.$/);
  });

  test('a relay whose address the key does not allow: 401 once, the rest not checked, and the address the service lists to approve', async () => {
    const { code, report } = await checkJson(through(), 'elsewhere');
    expect(code).toBe(1);
    expect(report.authentication.ok).toBe(false);
    expect(report.authentication.message).toMatch(/Requested IP addresses/);
    const refused = report.datasets.filter((d) => d.result === 'refused-key');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status).toBe(401);
    expect(
      report.datasets.filter((d) => /refused the key on an earlier dataset/.test(d.message)).length,
    ).toBeGreaterThan(5);
    // The service recorded the relay's address as requested, once, and it is the address the check names.
    const requested = sandbox.admin.requestedIps().filter((r) => r.identifier === 'elsewhere');
    expect(requested).toHaveLength(1);
    expect(requested[0]!.count).toBe(1);
    expect(report.authentication.callerIp).toBe(requested[0]!.ip);
    expect(refused[0]!.fix).toContain(`the relay's address ${requested[0]!.ip} under Requested IP addresses`);
  });

  // A service that changed is in gaps.test.ts (a stand-in that answers 404 as a service does).
  test('a path the binding moved and the (unbound) practice sandbox does not have: 404 on that dataset, saying the sandbox runs another binding; the rest answers', async () => {
    const { code, report } = await checkJson(['--relay', relay.url, '--env', 'moved'], 'good');
    expect(code).toBe(1);
    expect(report.target.binding).toMatchObject({ file: expect.any(String), sha256: expect.any(String) });
    const risk = report.datasets.find((d) => d.id === 'risk')!;
    expect(risk).toMatchObject({
      result: 'not-found',
      status: 404,
      pathSource: 'bound',
      path: '/directdata/v3/riskmoved',
    });
    expect(risk.message).toMatch(/practice sandbox has nothing at \/directdata\/v3\/riskmoved/);
    expect(risk.fix).toMatch(/started without the binding this check uses.*grc-sheets sandbox --binding FILE/);
    expect(risk.fix).not.toMatch(/service changed/);
    expect(report.datasets.find((d) => d.id === 'audit')).toMatchObject({ result: 'answers' });
    expect(report.summary.failed).toBe(1);
  });

  test('direct to the service with --base-url', async () => {
    const { code, report } = await checkJson(['--base-url', sandbox.url], 'good');
    expect(code).toBe(0);
    expect(report.target).toMatchObject({ via: 'direct', environment: null });
    expect(report.datasets.find((d) => d.id === 'audit')).toMatchObject({ result: 'answers' });
  });

  test('direct with --binding: the binding moves the path, the practice sandbox has nothing there; a bad binding file is named', async () => {
    const { report } = await checkJson(
      ['--base-url', sandbox.url, '--binding', join(dir, 'moved.json')],
      'good',
    );
    expect(report.datasets.find((d) => d.id === 'risk')).toMatchObject({
      result: 'not-found',
      pathSource: 'bound',
    });
    expect(report.datasets.find((d) => d.id === 'risk')!.fix).toMatch(/practice sandbox was started without the binding/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format": "something else"}');
    const { code, err } = await check(['--base-url', sandbox.url, '--binding', bad], 'good');
    expect(code).toBe(2);
    expect(err).toMatch(/--binding .*bad\.json: not a grc-sheets binding file/);
  });

  test("direct with --relay-config: the environment as the relay's configuration declares it, the same datasets as through the relay", async () => {
    const config = join(dir, 'relay.json');
    writeFileSync(config, JSON.stringify({ environments: { moved: { baseUrl: sandbox.url, binding: join(dir, 'moved.json'), production: false } } }));
    const viaRelay = await checkJson(['--relay', relay.url, '--env', 'moved'], 'good');
    const viaConfig = await checkJson(['--relay-config', config, '--env', 'moved'], 'good');
    expect(viaConfig.report.target).toEqual({ via: 'direct', url: sandbox.url, environment: 'moved', production: false, binding: viaRelay.report.target.binding });
    expect(viaConfig.report.datasets.map((d) => [d.id, d.path, d.pathSource, d.result])).toEqual(viaRelay.report.datasets.map((d) => [d.id, d.path, d.pathSource, d.result]));
    const without = await check(['--relay-config', config], 'good');
    expect([without.code, without.err]).toEqual([2, expect.stringContaining('--relay-config needs --env NAME')]);
  });

  test('a key on the command line is refused, saying why, before anything is called', async () => {
    for (const option of ['--password', '--password=secret', '-p', '--identifier']) {
      const { code, err, out } = await check([...through(), option, 'x']);
      expect(code).toBe(2);
      expect(err).toMatch(/is refused: a key on the command line is kept in the shell's history/);
      expect(err).toMatch(new RegExp(KEY_PASSWORD_VAR));
      expect(out).toBe('');
    }
  });

  test('without a key and without a terminal it says how to give one', async () => {
    const { code, err } = await check(through());
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`set ${KEY_ID_VAR} and ${KEY_PASSWORD_VAR}`));
  });

  test('an unknown environment names the ones the relay has', async () => {
    const { code, err } = await check(['--relay', relay.url, '--env', 'tst'], 'good');
    expect(code).toBe(2);
    expect(err).toMatch(/the relay has no environment "tst"; it has acc/);
  });
});

describe('the key prompt', () => {
  test('asks on the terminal and does not echo the password', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c: Buffer) => (shown += c.toString()));
    const asked = readKey({ env: {}, tty: { input, output } });
    input.write('my-id\n');
    await new Promise((r) => setImmediate(r));
    input.write('s3cret-pw\n');
    await expect(asked).resolves.toEqual({ identifier: 'my-id', password: 's3cret-pw' });
    expect(shown).toMatch(/API key identifier: /);
    expect(shown).toMatch(/API key password \(not shown\): /);
    expect(shown).not.toMatch(/s3cret-pw/);
  });
});
