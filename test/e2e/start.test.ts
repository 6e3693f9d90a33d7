/**
 * `grc-sheets start` (what `npm start` runs after the build), as a user runs it: a child process that
 * prints where to open the preview and the demo keys, serves the add-in and the relay on one origin, over
 * HTTPS when a dev certificate exists, and stops everything on Ctrl-C (SIGINT).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { startCli, stopCli } from '../support/start-cli';
import { requireDist } from './harness';
import { relayViews } from '../relay/helpers';

const ROOT = join(__dirname, '..', '..');

beforeAll(() => requireDist());

test('without certificates it serves the preview over HTTP and prints the demo keys of both sandboxes', async () => {
  const certs = mkdtempSync(join(tmpdir(), 'grc-no-certs-'));
  const { child, banner } = await startCli(['--certs', certs]);
  try {
    const preview = /Preview in a browser: +(http:\/\/\S+\/taskpane\.html)/.exec(banner)?.[1];
    expect(preview).toBeDefined();
    expect(banner).toMatch(/sandbox-acc +identifier demo-\S+ +password \S+/);
    expect(banner).toMatch(/sandbox-prd +identifier demo-\S+ +password \S+/);
    expect(banner).toContain('npx office-addin-dev-certs install');
    const page = await fetch(preview!);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/office-loader\.[0-9a-f]{8}\.js/);
    const origin = new URL(preview!).origin;
    const environments = await relayViews(origin);
    // No binding given: both bound to the sandbox's own Swagger file, so nothing is assumed.
    expect(environments.map((e) => [e.name, e.production, e.binding !== null])).toEqual([
      ['sandbox-acc', false, true],
      ['sandbox-prd', true, true],
    ]);
    for (const e of environments)
      expect(Object.values(e.endpoints).filter((x) => x.pathSource === 'assumed')).toEqual([]);
    expect((await fetch(`${origin}/office-js/office.js`)).status).toBe(200);
  } finally {
    expect(await stopCli(child)).toBe(0);
    rmSync(certs, { recursive: true, force: true });
  }
});

test('with a dev certificate it speaks HTTPS and prints how to sideload the manifest', async () => {
  const certs = mkdtempSync(join(tmpdir(), 'grc-certs-'));
  const made = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-keyout', join(certs, 'localhost.key'), '-out', join(certs, 'localhost.crt'),
  ]);
  expect(made.status).toBe(0);
  const { child, banner } = await startCli(['--certs', certs]);
  try {
    const preview = /Preview in a browser: +(https:\/\/\S+\/taskpane\.html)/.exec(banner)?.[1];
    expect(preview).toBeDefined();
    expect(banner).toContain('Upload My Add-in');
    expect(banner).toMatch(/manifest\.xml/);
    // The test's own self-signed certificate: trust it for this one request only.
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    const page = await undiciFetch(preview!, { dispatcher });
    expect(page.status).toBe(200);
    await dispatcher.close();
  } finally {
    expect(await stopCli(child)).toBe(0);
    rmSync(certs, { recursive: true, force: true });
  }
});

test('a missing build is reported with the command that makes it', () => {
  const result = spawnSync(process.execPath, ['bin/grc-sheets.js', 'start', '--port', '0', '--dist', join(tmpdir(), 'no-such-dist')], { cwd: ROOT });
  expect(result.status).toBe(1);
  expect(result.stderr.toString()).toContain('npm run build');
});
