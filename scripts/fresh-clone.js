#!/usr/bin/env node
/**
 * The README on a fresh machine, as a newcomer follows it: clones this repository (its committed HEAD)
 * into a temporary folder and runs the two commands of README.md's Quick start block exactly as written,
 * read from the README itself:
 *
 *   1. `npm install && npm start`: waits for the banner, checks it names the preview URL and a demo key
 *      per sandbox, that the preview page and the relay's environments answer (both bound to the
 *      sandbox's own Swagger file) and that the ACC demo key reads risks through the relay; then Ctrl-C,
 *      which must end it with exit code 0. Where util-linux's script(1) is there (Linux), the line runs in
 *      a pseudo-terminal and Ctrl-C is typed into it, as in a terminal window, with npm's default script
 *      shell (dash on Debian: src/cli/terminal-keys.ts says why that held no Ctrl-C signal before). Without
 *      it, SIGINT goes to the whole process group, as a terminal sends it, with npm's script shell set to
 *      bash where /bin/sh is dash (a signal that dash saw becomes exit 130, docs/testing.md, Exit codes).
 *   2. `npm test`: must pass (exit 0), with npm's default script shell (sh; no bash needed).
 *
 * CI runs this instead of `npm install && npm test` in its checkout (.ci/run): the suite runs once, in the
 * clone, the way the README says. `npm run test:fresh` runs it by hand. Prints one line per step with its
 * time; exit 0 when everything held, 1 when something did not (the reason is printed), 2 when the README
 * no longer has a two-command Quick start.
 */
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, realpathSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const START_TIMEOUT_MS = 15 * 60_000; // npm install on a cold cache plus the webpack build
const STOP_TIMEOUT_MS = 60_000;

class Failure extends Error {}

/** The Quick start block's command lines, as written (a trailing `# comment` included: the shell drops it). */
function quickStart(readme) {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Quick start'));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) return null;
  return block[1].split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
}

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Whether npm's default script shell is dash, which turns a Ctrl-C'd command's exit 0 into SIGINT. */
function shIsDash() {
  try {
    return /dash$/.test(realpathSync('/bin/sh'));
  } catch {
    return false;
  }
}

/** util-linux's script(1), which runs a command in a pseudo-terminal (not macOS's script, which differs). */
function ptyRunner() {
  if (process.platform !== 'linux') return null;
  try {
    return /util-linux/.test(execFileSync('script', ['--version'], { encoding: 'utf8' })) ? 'script' : null;
  } catch {
    return null;
  }
}

/**
 * Runs a README line in bash, in its own process group as a terminal runs a foreground command; with
 * `terminal`, inside a pseudo-terminal (script(1)) whose input is ours to type into.
 */
function run(line, cwd, { inherit = false, env = {}, terminal = false } = {}) {
  const [command, args] = terminal ? ['script', ['-qefc', line, '/dev/null']] : ['bash', ['-c', line]];
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: inherit ? 'inherit' : [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true', ...(terminal ? { SHELL: '/bin/bash' } : {}), ...env },
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited };
}

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Failure(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function get(url, headers = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

/** `npm install && npm start` up to its banner, the checks, then Ctrl-C. */
async function start(line, clone) {
  const began = Date.now();
  const terminal = ptyRunner() !== null;
  const dash = !terminal && shIsDash();
  // Every layer between this process and grc-sheets, each passing the exit code of the one below it on.
  const layers = terminal
    ? `script (a pseudo-terminal, Ctrl-C typed) <- bash -c "${line}" <- npm <- sh -c (npm's default${shIsDash() ? ', dash' : ''}) <- grc-sheets start`
    : `bash -c "${line}" <- npm <- ${dash ? 'bash (npm_config_script_shell; /bin/sh is dash)' : "sh -c (npm's default)"} <- grc-sheets start`;
  if (dash)
    console.log(
      "fresh clone: /bin/sh is dash, which re-raises a Ctrl-C signal it saw whatever its child's exit code: npm's script shell set to bash for this line (docs/testing.md, Exit codes)",
    );
  const { child, exited } = run(line, clone, { terminal, env: dash ? { npm_config_script_shell: 'bash' } : {} });
  const ctrlC = () => (terminal ? child.stdin.write('\x03') : process.kill(-child.pid, 'SIGINT'));
  let out = '';
  const banner = new Promise((resolve, reject) => {
    const seen = (d) => {
      out += d.toString().replace(/\r/g, ''); // a terminal's line ends are \r\n
      if (out.includes('Ctrl-C stops everything.')) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    exited.then(({ code, signal }) =>
      reject(new Failure(`"${line}" ended (${signal ?? code}) before its banner:\n${out.slice(-3000)}`)),
    );
  });
  try {
    await within(banner, START_TIMEOUT_MS, `the banner of "${line}"`);
    console.log(`fresh clone: "${line}" printed its banner after ${seconds(began)}`);
    const preview = /Preview in a browser:\s+(\S+\/taskpane\.html)/.exec(out);
    const environments = /Relay environments:\s+(\S+\/api\/environments)/.exec(out);
    const keys = Object.fromEntries(
      [...out.matchAll(/^\s+(sandbox-acc|sandbox-prd)\s+identifier (\S+)\s+password (\S+)$/gm)].map((m) => [
        m[1],
        { identifier: m[2], password: m[3] },
      ]),
    );
    if (!preview) throw new Failure(`the banner has no "Preview in a browser" URL:\n${out}`);
    if (!environments) throw new Failure(`the banner has no "Relay environments" URL:\n${out}`);
    if (!keys['sandbox-acc'] || !keys['sandbox-prd'])
      throw new Failure(`the banner does not give a demo key for sandbox-acc and sandbox-prd:\n${out}`);
    const page = await get(preview[1]);
    if (page.status !== 200 || !/id="?root/.test(page.text))
      throw new Failure(`${preview[1]} answered ${page.status} without the taskpane`);
    const listed = JSON.parse((await get(environments[1])).text);
    const names = listed.map((e) => e.name).sort();
    if (names.join() !== 'sandbox-acc,sandbox-prd') throw new Failure(`the relay lists ${names.join(', ')}`);
    // The list is the environments' names; each environment's view (its binding) is served on its own.
    const views = await Promise.all(names.map(async (name) => JSON.parse((await get(`${environments[1]}/${name}`)).text)));
    const unbound = views.filter((v) => !v.binding).map((v) => v.name);
    if (unbound.length)
      throw new Failure(`${unbound.join(', ')} should be bound to the sandbox's own Swagger file`);
    const origin = new URL(preview[1]).origin;
    const { identifier, password } = keys['sandbox-acc'];
    const risks = await get(`${origin}/api/sandbox-acc/directdata/v3/risk`, {
      authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`,
    });
    if (risks.status !== 200 || !Array.isArray(JSON.parse(risks.text)))
      throw new Failure(
        `the ACC demo key could not read risks through the relay: ${risks.status} ${risks.text.slice(0, 200)}`,
      );
    console.log(
      `fresh clone: banner, preview page, environments (bound) and a first dataset through the relay: ok`,
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) ctrlC();
  }
  const { code, signal } = await within(exited, STOP_TIMEOUT_MS, 'the stop after Ctrl-C');
  if (code !== 0) throw new Failure(`stopped with Ctrl-C, ${layers}, ended with ${signal ?? code}, not 0`);
  console.log(`fresh clone: Ctrl-C stopped it, exit code 0 from ${layers}`);
}

async function main() {
  const lines = quickStart(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  if (!lines || lines.length !== 2) {
    console.error(
      `fresh clone: README.md's Quick start should hold exactly two commands; found ${JSON.stringify(lines)}`,
    );
    return 2;
  }
  const began = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'grc-sheets-fresh-'));
  const clone = join(dir, 'grc-sheets');
  try {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], { stdio: 'inherit' });
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone }).toString().trim();
    console.log(`fresh clone: ${head} cloned into ${clone}`);
    await start(lines[0], clone);
    const testBegan = Date.now();
    const { code, signal } = await run(lines[1], clone, { inherit: true }).exited;
    if (code !== 0)
      throw new Failure(`"${lines[1]}" ended with ${signal ?? code} after ${seconds(testBegan)}`);
    console.log(`fresh clone: "${lines[1]}" passed in ${seconds(testBegan)}`);
    console.log(`fresh clone: the README's Quick start holds on a fresh clone (${seconds(began)} in all)`);
    return 0;
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    console.error(`fresh clone: ${e.message}`);
    return 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    console.error(`fresh clone: ${e instanceof Error ? e.stack : e}`);
    process.exitCode = 1;
  },
);
