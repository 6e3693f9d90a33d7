/**
 * `grc-sheets check` tells a gap of the practice sandbox from a change of the service (issue 24): the same
 * binding (a Swashbuckle-shaped file listing no DirectData paths, with an asset register only the customer's
 * service has) checked through a relay against the sandbox bound to it, and straight against a stand-in of
 * the service that answers 404 as a service does (no sandbox mark).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding } from '../../src/binding/import';
import { run, type CheckIo } from '../../src/cli/check';
import { checkReport, type CheckReport } from '../../src/check/report';
import { KEY_ID_VAR, KEY_PASSWORD_VAR } from '../../src/connect/key';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { startFakeUpstream, type FakeUpstream } from '../relay/helpers';
import { key } from '../sandbox/helpers';

const FILE = join(__dirname, '..', 'binding', 'fixtures', 'no-directdata.swashbuckle.json');

let dir: string;
let bindingFile: string;
let sandbox: Sandbox;
let relay: Relay;
let service: FakeUpstream;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grc-check-gaps-'));
  const overrides = join(dir, 'acc.overrides');
  writeFileSync(overrides, 'use organizations = GET /api/v1/Organization\n');
  const { binding } = await importBinding(FILE, { overrides });
  bindingFile = join(dir, 'acc.json');
  writeFileSync(bindingFile, JSON.stringify(binding));
  sandbox = await startSandbox({ port: 0, scale: 20, binding, apiFile: FILE, keys: [key('good')] });
  relay = await startRelay(
    { listen: { host: '127.0.0.1', port: 0 }, environments: { practice: { baseUrl: sandbox.url, binding: bindingFile } }, logLevel: 'silent' },
    {},
  );
  // The customer's service, as far as the check sees it: its asset register and the spec's audit path are gone.
  service = await startFakeUpstream();
  service.handler = (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    const gone = /\/v1\/Assets$|\/directdata\/v1\/audit$/.test(req.url ?? '');
    res.statusCode = gone ? 404 : 200;
    res.end(gone ? '{"message":"Not found."}' : '[]');
  };
}, 60_000);
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function check(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CheckIo = {
    env: { [KEY_ID_VAR]: 'good', [KEY_PASSWORD_VAR]: 'pw-good' },
    stdout: (t) => (out += `${t}\n`),
    stderr: (t) => (out += `${t}\n`),
    fetch: globalThis.fetch,
  };
  return { code: await run(argv, io), out };
}
const report = (out: string): CheckReport => checkReport.parse(JSON.parse(out));
const of = (r: CheckReport, id: string) => r.datasets.find((d) => d.id === id)!;

test('against the practice sandbox: a dataset only the service has is the sandbox gap it is, not a service change; documented ones not in the file answer', async () => {
  const { code, out } = await check(['--relay', relay.url, '--env', 'practice', '--json']);
  const r = report(out);
  expect(code).toBe(0);
  expect(of(r, 'x-assets')).toMatchObject({ result: 'sandbox-lacks', status: 404, pathSource: 'bound' });
  expect(of(r, 'x-assets').fix).toMatch(/gap of the practice sandbox, not a change of the service.*Run the check against your service's environment/);
  expect(of(r, 'audit')).toMatchObject({ result: 'answers', pathSource: 'documented', notInFile: true, path: '/directdata/v1/audit' });
  expect(of(r, 'organizations')).toMatchObject({ result: 'answers', pathSource: 'bound' });
  expect(out).not.toMatch(/service changed/);

  const table = (await check(['--relay', relay.url, '--env', 'practice'])).out;
  expect(table).toMatch(/ok \(no data in sandbox\)\s+Gets the asset register\. \(x-assets\)/);
  expect(table).toMatch(/→ Nothing to fix: this is a gap of the practice sandbox/);
  expect(table).toMatch(/Audits \(audit\)\s+\/directdata\/v1\/audit \[documented, not in your API file\]/);
  expect(table).toContain('Check passed.');
});

test('against the service: a bound path it no longer answers is a service change; a documented path the file does not list is one it does not offer', async () => {
  const { code, out } = await check(['--base-url', `${service.url}/api`, '--binding', bindingFile, '--json']);
  const r = report(out);
  expect(code).toBe(1);
  expect(of(r, 'x-assets')).toMatchObject({ result: 'not-found', pathSource: 'bound' });
  expect(of(r, 'x-assets').fix).toMatch(/service changed since the Swagger file was imported/);
  expect(of(r, 'audit')).toMatchObject({ result: 'not-found', notInFile: true });
  expect(of(r, 'audit').fix).toMatch(/your API file does not list it and the service has nothing there: this service does not offer it \(re-importing the same file changes nothing\).*"none audit"/);
  expect(of(r, 'audit').fix).not.toMatch(/service changed/);
  expect(of(r, 'auditfinding')).toMatchObject({ result: 'empty', notInFile: true });
});
