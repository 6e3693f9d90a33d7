import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { key } from './helpers';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'grc-sheets.js');

describe('grc-sheets sandbox (the command)', () => {
  it('documents every option in --help', () => {
    const r = spawnSync(process.execPath, [BIN, 'sandbox', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const option of [
      '--host',
      '--port',
      '--environment ACC|PRD',
      '--scale',
      '--seed',
      '--keys',
      '--binding',
      '--api-file',
      '--latency',
      '--error-rate',
      '--rate-limit-rate',
      '--drop-rate',
      '--retry-after',
      '--fault-seed',
      '/_sandbox/requested-ips/approve',
    ])
      expect(r.stdout).toContain(option);
  });

  it('prints its base URL and a demo key that works with the printed curl line', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--scale', '5'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          text += d;
          if (/^Try: .*\n/m.test(text)) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const [, id, pw, url] =
        /curl -s -u ([^:\s]+):(\S+) (http:\/\/127\.0\.0\.1:\d+\/api\/directdata\/v3\/risk)/.exec(out)!;
      expect(out).toMatch(/Base URL: http:\/\/127\.0\.0\.1:\d+\/api\n/);
      const res = await fetch(url!, {
        headers: { authorization: `Basic ${Buffer.from(`${id}:${pw}`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses an API file it cannot read with one message naming it, and starts nothing (exit 1)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-file-'));
    const file = join(dir, 'customer.yaml');
    writeFileSync(file, 'openapi: 3.0.0\npaths: [unclosed\n');
    const r = spawnSync(
      process.execPath,
      [BIN, 'sandbox', '--port', '0', '--scale', '5', '--api-file', file],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('listening');
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^grc-sheets sandbox: --api-file: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a readable Swagger 2\\.0 or OpenAPI 3 file: `,
        ),
      ),
    ]);
  });

  it('refuses a keys file that breaks the rules, naming the key, and exits 2 (a configuration error)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grc-keys-'));
    const file = join(dir, 'keys.json');
    writeFileSync(
      file,
      JSON.stringify([
        key('a', {
          name: 'Nightly export',
          createdAt: '2026-01-01T00:00:00Z',
          expiresAt: '2027-03-01T00:00:00Z',
        }),
      ]),
    );
    const r = spawnSync(process.execPath, [BIN, 'sandbox', '--port', '0', '--keys', file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/"Nightly export".*more than one year/);
  });

  it('refuses an unknown environment', () => {
    const r = spawnSync(process.execPath, [BIN, 'sandbox', '--environment', 'TST'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ACC or PRD/);
  });

  it('refuses a binding file that is not one, naming the option and the file, and exits 2 (configuration, as start does)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'grc-binding-')), 'binding.json');
    writeFileSync(file, JSON.stringify({ format: 'something else' }));
    const r = spawnSync(process.execPath, [BIN, 'sandbox', '--port', '0', '--binding', file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--binding ${file}: not a grc-sheets binding file`);
  });
});
