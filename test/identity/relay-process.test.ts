/**
 * `grc-sheets relay` as a service runs it: a real SIGHUP (through bin/grc-sheets.js, which passes signals
 * on to the relay it starts with its V8 flags) re-reads the held key and the relay goes on serving; a key
 * file others can read stops it at start with exit 2 and the fix.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSecret } from './harness';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'grc-sheets.js');
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GRC_RELAY_')));

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'relay-process-'));
  const keyFile = join(dir, 'acc.key');
  writeSecret(keyFile, 'first-identifier:first-password\n');
  const config = join(dir, 'relay.json');
  writeFileSync(
    config,
    JSON.stringify({
      listen: { host: '127.0.0.1', port: 0 },
      environments: { acc: { baseUrl: 'http://127.0.0.1:9/api', key: { file: keyFile } } },
      healthShowsKeys: true,
    }),
  );
  return { dir, keyFile, config };
}

/** Collects the relay's stdout and resolves when a line matches. */
function waitFor(
  child: ChildProcessWithoutNullStreams,
  out: { text: string },
  pattern: RegExp,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const line = out.text.split('\n').find((l) => pattern.test(l));
      if (line) {
        child.stdout.off('data', look);
        resolve(line);
      }
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => reject(new Error(`relay exited (${code}) before ${pattern}: ${out.text}`)));
    look();
  });
}

test('a real SIGHUP re-reads the held key; the relay keeps serving', async () => {
  const { keyFile, config } = setup();
  const child = spawn(process.execPath, [BIN, 'relay', '--config', config], { cwd: ROOT, env: ENV });
  const out = { text: '' };
  child.stdout.on('data', (d: Buffer) => (out.text += d.toString()));
  try {
    const listening = JSON.parse(await waitFor(child, out, /relay listening/)) as { port: number };
    const health = async () =>
      (await (await fetch(`http://127.0.0.1:${listening.port}/healthz`)).json()) as {
        keys: { acc: { fingerprint: string } };
      };
    const before = (await health()).keys.acc.fingerprint;
    writeSecret(keyFile, 'second-identifier:second-password\n');
    child.kill('SIGHUP');
    await waitFor(child, out, /held key re-read/);
    const after = (await health()).keys.acc.fingerprint;
    expect(after).not.toBe(before);
    expect(child.exitCode).toBeNull();
    expect(out.text).not.toMatch(/first-identifier|first-password|second-identifier|second-password/);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
});

test('a key file others can read: exit 2 with the chmod fix', () => {
  const { keyFile, config } = setup();
  chmodSync(keyFile, 0o644);
  const r = spawnSync(process.execPath, [BIN, 'relay', '--config', config], {
    cwd: ROOT,
    env: ENV,
    encoding: 'utf8',
  });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain(
    `environments.acc.key: file ${keyFile} can be read by group or others (mode 644)`,
  );
  expect(r.stderr).toContain(`chmod 600 ${keyFile}`);
  expect(r.stderr + r.stdout).not.toContain('first-password');
});
