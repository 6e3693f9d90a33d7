/**
 * `grc-sheets relay` and `grc-sheets start` as a newcomer meets them: a missing config, the example config
 * used as it is, a port in use, and one exit code convention for every command.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'grc-sheets.js');

/** The environment without any GRC_RELAY_* variable, so only what the test passes configures the relay. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GRC_RELAY_')));

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: ENV });
}

/** Runs the command until it exits on its own (it should: each case here is a refusal at start). */
function cliAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: ENV,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stderr }));
  });
}

async function occupiedPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('grc-sheets relay (the command)', () => {
  it('says the configuration is missing and how to pass it, exit 2', () => {
    const r = cli(['relay']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no configuration given');
    expect(r.stderr).toContain('grc-sheets relay --config relay.json');
    expect(r.stderr).toContain('relay.example.json');
    expect(r.stderr).not.toMatch(/expected record|environment variables:/);
  });

  it('checks every file relay.example.json names, by field, before starting (exit 2)', () => {
    const r = cli(['relay', '--config', 'relay.example.json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tls.cert: /etc/grc-relay/fullchain.pem does not exist');
    expect(r.stderr).toContain('tls.key: /etc/grc-relay/privkey.pem does not exist');
    expect(r.stderr).toContain('staticDir: /opt/grc-sheets/dist does not exist');
    expect(r.stderr).not.toMatch(/ENOENT|realpath|\n\s+at /);
  });

  it('names the CA file of an environment, and a folder given where a file belongs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-cli-'));
    const config = join(dir, 'relay.json');
    writeFileSync(
      config,
      JSON.stringify({
        listen: { port: 0 },
        tls: { cert: dir, key: join(dir, 'key.pem') },
        environments: { acc: { baseUrl: 'https://grc-acc.example.com/api', ca: join(dir, 'ca.pem') } },
      }),
    );
    const r = cli(['relay', '--config', config]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`tls.cert: ${dir} is a folder`);
    expect(r.stderr).toContain(`tls.key: ${join(dir, 'key.pem')} does not exist`);
    expect(r.stderr).toContain(`environments.acc.ca: ${join(dir, 'ca.pem')} does not exist`);
  });

  it('says which port is in use and how to choose another, exit 1', async () => {
    const taken = await occupiedPort();
    const port = (taken.address() as AddressInfo).port;
    try {
      const dir = mkdtempSync(join(tmpdir(), 'relay-cli-'));
      const config = join(dir, 'relay.json');
      writeFileSync(
        config,
        JSON.stringify({
          listen: { host: '127.0.0.1', port },
          environments: { acc: { baseUrl: 'http://127.0.0.1:9/api' } },
        }),
      );
      const r = await cliAsync(['relay', '--config', config]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('listen.port');
      expect(r.stderr).toContain('GRC_RELAY_PORT');
      expect(r.stderr).not.toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });
});

describe('grc-sheets relay: the young generation it runs with', () => {
  /** Pids whose parent is `pid` (Linux /proc). */
  function childrenOf(pid: number): number[] {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  }

  it.each([
    ['SIGTERM to the command', false],
    ['Ctrl-C (SIGINT to its process group)', true],
  ])(
    'runs the relay with its V8 flags when started without them; %s still stops it gracefully',
    async (_, group) => {
      const dir = mkdtempSync(join(tmpdir(), 'relay-cli-'));
      const config = join(dir, 'relay.json');
      writeFileSync(
        config,
        JSON.stringify({
          listen: { host: '127.0.0.1', port: 0 },
          environments: { acc: { baseUrl: 'http://127.0.0.1:9/api' } },
        }),
      );
      const child = spawn(process.execPath, [BIN, 'relay', '--config', config], {
        cwd: ROOT,
        env: ENV,
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: group,
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Said once the relay listens and takes SIGTERM as a graceful stop.
      await new Promise<void>((resolve) => {
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          err += d;
          if (err.includes('grc-sheets relay: listening on')) resolve();
        });
      });
      const relays = childrenOf(child.pid!);
      expect(relays).toHaveLength(1);
      const argv = readFileSync(`/proc/${relays[0]}/cmdline`, 'utf8').split('\0');
      expect(argv).toEqual(expect.arrayContaining(['--max-semi-space-size=2', '--heap-growing-percent=300']));
      if (group) process.kill(-child.pid!, 'SIGINT');
      else child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  );
});

describe('grc-sheets start and the exit code convention', () => {
  it('says which port is in use and to use npm start -- --port N, exit 1', async () => {
    const taken = await occupiedPort();
    const port = (taken.address() as AddressInfo).port;
    const dist = mkdtempSync(join(tmpdir(), 'start-dist-'));
    writeFileSync(join(dist, 'taskpane.html'), '<!doctype html>');
    try {
      const r = await cliAsync([
        'start',
        '--http',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--scale',
        '5',
        '--dist',
        dist,
      ]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('npm start -- --port N');
      expect(r.stderr).not.toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });

  it('documents one exit code convention in --help, for the tool and each command', () => {
    for (const args of [['--help'], ['relay', '--help'], ['sandbox', '--help'], ['start', '--help']]) {
      const r = cli(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Exit codes (every command):');
      expect(r.stdout).toMatch(/2 {2}a wrong option, configuration or input file/);
    }
    const wrong = cli(['relay', '--no-such-option']);
    expect(wrong.status).toBe(2);
    expect(cli(['no-such-command']).status).toBe(2);
  });
});
