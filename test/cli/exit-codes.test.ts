/**
 * One exit code convention for every `grc-sheets` command (src/cli/exit.ts, the README, `grc-sheets --help`):
 * 0 done or stopped normally, 1 could not do its job for a reason outside the command line, 2 a wrong option,
 * configuration or input file. Each command is run as a user runs it: in-process for the quick refusals,
 * as a real process (through npx where the README says npx) for Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';

const ROOT = join(__dirname, '..', '..');
const COMMANDS = ['sandbox', 'relay', 'check', 'binding', 'start'];

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true)),
    jest.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true)),
    jest.spyOn(console, 'log').mockImplementation((s) => void out.push(String(s))),
    jest.spyOn(console, 'error').mockImplementation((s) => void err.push(String(s))),
  ];
  try {
    const code = await main(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
}

describe('every command: help 0, a wrong option 2', () => {
  it.each(COMMANDS)('grc-sheets %s --help exits 0, --no-such-option exits 2 naming it', async (name) => {
    expect((await cli([name, '--help'])).code).toBe(0);
    const wrong = await cli([name, '--no-such-option']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--no-such-option');
  });

  it('grc-sheets alone prints the convention and exits 2; an unknown command exits 2', async () => {
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.out).toMatch(/0 {2}stopped normally[\s\S]*1 {2}could not start[\s\S]*2 {2}a wrong option/);
    expect((await cli(['nonsense'])).code).toBe(2);
  });
});

describe('grc-sheets binding import of a file that cannot be read', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'exit-codes-'));

  it('a missing file: says it does not exist, in words, exits 2 and writes nothing', async () => {
    const d = dir();
    const r = await cli(['binding', 'import', join(d, 'swagger.json'), '--out', join(d, 'b.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `${join(d, 'swagger.json')} does not exist. Give the path of the service's Swagger`,
    );
    expect(r.err).not.toMatch(/ENOENT|errno|at .*\.ts/);
    expect(readdirSync(d)).toEqual([]);
  });

  it('a folder, or a file it may not read: said so, exit 2', async () => {
    const d = dir();
    expect((await cli(['binding', 'import', d])).err).toContain(`${d} is a folder.`);
    const locked = join(d, 'locked.json');
    writeFileSync(locked, '{}');
    chmodSync(locked, 0o000);
    const r = await cli(['binding', 'import', locked, '--out', join(d, 'b.json')]);
    // root reads any file whatever its mode: then the file is read and refused as not a Swagger file.
    expect(r.err).toMatch(process.getuid?.() === 0 ? /not a Swagger or OpenAPI file/ : /permission denied/);
    expect(r.code).toBe(2);
  });
});

describe('every command given a file that does not exist: said in words, exit 2, nothing started', () => {
  const missing = join(tmpdir(), 'grc-sheets-no-such-file.json');
  it.each([
    ['sandbox', ['--port', '0', '--binding', missing], '--binding'],
    ['sandbox', ['--port', '0', '--keys', missing], '--keys'],
    ['start', ['--port', '0', '--binding', missing], '--binding'],
    ['start', ['--port', '0', '--binding-prd', missing], '--binding-prd'],
    ['relay', ['--config', missing], '--config'],
    ['check', ['--base-url', 'http://127.0.0.1:9/api', '--binding', missing], '--binding'],
    ['binding', ['import', missing, '--out', join(tmpdir(), 'grc-sheets-unwritten.json')], 'binding import:'],
    ['template', ['--flow', 'incidents', '--relay-config', missing, '--env', 'ACC', join(tmpdir(), 'grc-sheets-unwritten.xlsx')], '--relay-config'],
    ['template', ['--flow', 'incidents', '--base-url', 'http://127.0.0.1:9/api', '--binding', missing, '--env', 'ACC', join(tmpdir(), 'grc-sheets-unwritten.xlsx')], '--binding'],
  ])('grc-sheets %s %j', async (name, args, option) => {
    const r = await cli([name, ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${option} ${missing} does not exist. Give the path of`);
    expect(r.err).not.toMatch(/ENOENT|errno/);
  });
});

/** Starts a command in its own process group, as a terminal does, and waits until it prints `ready`. */
function startInTerminal(command: string, args: string[], ready: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const started = new Promise<void>((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      if (out.includes(ready)) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void exited.then((code) => reject(new Error(`exited ${code} before it was ready:\n${out}`)));
  });
  // The exit code, or the signal and what the command printed: a stop that is not 0 says where it went wrong.
  const stopped = exited.then((code) => (code === 0 ? 0 : `${code}\n${out}`));
  return { child, started, exited, stopped };
}

/** A command run in a pseudo-terminal (test/cli/pty_ctrl_c.py), Ctrl-C typed once `ready` is printed. */
function typeCtrlCInTerminal(argv: string[], ready: string): Promise<{ code?: number; signal?: number; typed: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [join(__dirname, 'pty_ctrl_c.py'), ready, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(JSON.parse(out)));
  });
}

describe('Ctrl-C is a normal stop: exit 0', () => {
  // Typed in a terminal, Ctrl-C is read as a key (src/cli/terminal-keys.ts): no SIGINT reaches npm's script
  // shell, so even Debian's dash (which dies of a SIGINT and makes npm exit 130) passes our 0 on.
  it("npx grc-sheets sandbox in a terminal, Ctrl-C typed, npm's default script shell (dash on Debian): 0", async () => {
    const r = await typeCtrlCInTerminal(['env', '-u', 'npm_config_script_shell', 'npx', 'grc-sheets', 'sandbox', '--port', '0'], 'Base URL');
    expect(r.typed).toBe(true);
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 0, signal: undefined });
  });

  it('npx grc-sheets relay in a terminal (it runs itself again with its V8 flags, in its own group): Ctrl-C typed stops it gracefully, 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grc-ctrl-c-'));
    const config = join(dir, 'relay.json');
    writeFileSync(config, JSON.stringify({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: 'http://127.0.0.1:9/api' } } }));
    const r = await typeCtrlCInTerminal(['env', '-u', 'npm_config_script_shell', 'npx', 'grc-sheets', 'relay', '--config', config], 'listening on');
    rmSync(dir, { recursive: true, force: true });
    expect(r.typed).toBe(true);
    expect(r.output).toContain('relay stopped');
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 0, signal: undefined });
  });

  // A SIGINT sent to the group (no terminal: a script's `kill -INT -PGID`) still reaches npm's script shell.
  // A shell that passes the command's code on (bash: macOS's /bin/sh, Fedora's) ends 0; Debian's dash dies of
  // it, which no project setting can change without breaking Windows (docs/testing.md, Exit codes). So bash.
  it('npx grc-sheets sandbox, Ctrl-C (SIGINT to the whole process group: npm, its shell, the sandbox)', async () => {
    const run = startInTerminal('npx', ['grc-sheets', 'sandbox', '--port', '0'], 'Base URL', {
      ...process.env,
      npm_config_script_shell: 'bash',
    });
    await run.started;
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.stopped).toBe(0);
  });

  it('grc-sheets sandbox given SIGINT twice (npm forwards the one the terminal sent) still exits 0', async () => {
    const run = startInTerminal(
      process.execPath,
      ['bin/grc-sheets.js', 'sandbox', '--port', '0'],
      'Base URL',
    );
    await run.started;
    run.child.kill('SIGINT');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });
});
