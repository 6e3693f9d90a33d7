/**
 * `grc-sheets check --relay` through a relay that holds the environment's key: the report names the held
 * key's fingerprint and its remaining validity (the date the admin recorded; the service's API shows none).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type CheckIo } from '../../src/cli/check';
import { checkReport } from '../../src/check/report';
import { KEY_ID_VAR, KEY_PASSWORD_VAR } from '../../src/connect/key';
import { keyFingerprint } from '../../src/client/key-fingerprint';
import { startRelay, type Relay } from '../../src/relay';
import type { Sandbox } from '../../src/sandbox';
import { key, start } from '../sandbox/helpers';
import { writeSecret } from './harness';

let sandbox: Sandbox;
let relay: Relay;
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  sandbox = await start({ keys: [key('good')] });
  const dir = mkdtempSync(join(tmpdir(), 'grc-check-held-'));
  writeSecret(join(dir, 'acc.key'), 'good:pw-good\n');
  relay = await startRelay(
    {
      listen: { host: '127.0.0.1', port: 0 },
      environments: {
        acc: { baseUrl: sandbox.url, key: { file: join(dir, 'acc.key'), expires: day(20) } },
        tst: { baseUrl: sandbox.url, key: { file: join(dir, 'acc.key') } },
        open: { baseUrl: sandbox.url },
      },
      logLevel: 'silent',
      // What check reports of the held key is on /healthz only where the administrator shows it.
      healthShowsKeys: true,
    },
    {},
  );
});
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

async function check(env: string, json: boolean) {
  let out = '';
  const io: CheckIo = {
    env: { [KEY_ID_VAR]: 'good', [KEY_PASSWORD_VAR]: 'pw-good' },
    stdout: (t) => (out += `${t}\n`),
    stderr: () => undefined,
    fetch: globalThis.fetch,
  };
  const code = await run(['--relay', relay.url, '--env', env, ...(json ? ['--json'] : [])], io);
  return { code, out };
}

test('the held key: fingerprint, expiry and days left, in the JSON and the table', async () => {
  const { code, out } = await check('acc', true);
  expect(code).toBe(0);
  const report = checkReport.parse(JSON.parse(out));
  expect(report.heldKey).toEqual({
    fingerprint: await keyFingerprint('good'),
    expires: day(20),
    daysLeft: 20,
    status: 'expiring',
  });
  const table = (await check('acc', false)).out;
  expect(table).toContain(
    `Held key at the relay: ${await keyFingerprint('good')}, expires ${day(20)} (20 days left). EXPIRES SOON`,
  );
});

test('no expiry recorded says how to record it; an environment without a held key says nothing of one', async () => {
  expect((await check('tst', false)).out).toContain(
    'no expiry date recorded: set environments.tst.key.expires',
  );
  const open = await check('open', true);
  expect(checkReport.parse(JSON.parse(open.out)).heldKey).toBeUndefined();
  expect((await check('open', false)).out).not.toContain('Held key');
});
