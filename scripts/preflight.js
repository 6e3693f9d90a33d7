#!/usr/bin/env node
/**
 * `npm test`'s first step: everything the tests need from outside npm is here before the first test runs,
 * or the run stops at once with one line naming what to install. Nothing is skipped instead.
 *
 * - Run as root with apt-get on PATH (CI, a fresh container): installs the missing Debian packages, as a
 *   one-off `apt-get update` + `apt-get install`, and says so in one line.
 * - Otherwise: one line naming the packages and the command to install them, exit 1.
 *
 * Plain JavaScript with no dependencies: it also runs before `npm install` (and then says to run it).
 */
const { spawnSync } = require('node:child_process');
const { accessSync, constants, existsSync } = require('node:fs');
const { delimiter, join } = require('node:path');

const ROOT = join(__dirname, '..');
const MIN_NODE = [20, 18, 1];

/**
 * What the tests use, where they look for it (the same variable and default as the tests), and the Debian
 * package that provides it.
 */
const NEEDS = [
  {
    pkg: 'chromium',
    for: 'the browser tests (test/e2e)',
    path: (env) => env.CHROMIUM_PATH || '/usr/bin/chromium',
  },
  {
    pkg: 'redis-server',
    for: "the relay's shared rate-limit test",
    path: (env) => env.REDIS_SERVER || '/usr/bin/redis-server',
  },
  { pkg: 'libreoffice-calc-nogui', for: 'the saved-workbook tests (soffice)', command: 'soffice' },
  {
    pkg: 'python3-openpyxl',
    for: 'the saved-workbook tests (openpyxl)',
    path: (env) => env.PYTHON3 || '/usr/bin/python3',
    probe: ['-c', 'import openpyxl'],
  },
  {
    pkg: 'python3-jwt',
    for: 'the independent verifier of relay statements (test/evidence)',
    path: (env) => env.PYTHON3 || '/usr/bin/python3',
    probe: ['-c', 'import jwt'],
  },
  {
    pkg: 'python3-cryptography',
    for: 'the independent verifier of relay statements (Ed25519 keys)',
    path: (env) => env.PYTHON3 || '/usr/bin/python3',
    probe: ['-c', 'from cryptography.hazmat.primitives.asymmetric import ed25519'],
  },
];

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on the PATH, or undefined. */
function onPath(name, env) {
  for (const dir of (env.PATH || '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function met(need, env) {
  const file = need.command ? onPath(need.command, env) : need.path(env);
  if (!file || !executable(file)) return false;
  if (!need.probe) return true;
  return spawnSync(file, need.probe, { env, stdio: 'ignore' }).status === 0;
}

/** The packages still missing. */
function missing(env) {
  return NEEDS.filter((need) => !met(need, env)).map((need) => need.pkg);
}

function nodeTooOld(version) {
  const have = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < MIN_NODE.length; i++) {
    if (have[i] !== MIN_NODE[i]) return have[i] < MIN_NODE[i];
  }
  return false;
}

function installLine(pkgs) {
  return (
    `npm test needs ${pkgs.join(', ')} (${NEEDS.filter((n) => pkgs.includes(n.pkg))
      .map((n) => n.for)
      .join('; ')}): install ${pkgs.length > 1 ? 'them' : 'it'} with ` +
    `sudo apt-get install ${pkgs.join(' ')} (or your system's equivalent), then run npm test again.`
  );
}

/** Decides and acts; returns the exit code. test/scripts/preflight.test.ts runs it with a fake PATH and apt-get. */
function preflight({ env, uid, version, log }) {
  if (nodeTooOld(version)) {
    log(
      `npm test needs Node ${MIN_NODE.join('.')} or later; this is ${version}. Install a newer Node and run npm test again.`,
    );
    return 1;
  }
  if (!existsSync(join(ROOT, 'node_modules', '.bin', 'jest'))) {
    log("npm test needs the project's dependencies: run npm install first, then npm test again.");
    return 1;
  }
  let pkgs = missing(env);
  if (!pkgs.length) return 0;
  const apt = onPath('apt-get', env);
  if (uid !== 0 || !apt) {
    log(installLine(pkgs));
    return 1;
  }
  log(
    `npm test: installing ${pkgs.join(' ')} with apt-get (needed by ${NEEDS.filter((n) =>
      pkgs.includes(n.pkg),
    )
      .map((n) => n.for)
      .join('; ')}).`,
  );
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...pkgs],
  ]) {
    const r = spawnSync(apt, args, { env: aptEnv, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) {
      const why = (r.stderr || '').trim().split('\n').filter(Boolean).pop() || `exit ${r.status}`;
      log(`npm test: apt-get ${args[0]} failed (${why}). ${installLine(pkgs)}`);
      return 1;
    }
  }
  pkgs = missing(env);
  if (pkgs.length) {
    log(`npm test: apt-get installed, yet still missing: ${installLine(pkgs)}`);
    return 1;
  }
  return 0;
}

process.exitCode = preflight({
  env: process.env,
  // GRC_PREFLIGHT_UID: the user id to decide as, for test/scripts/preflight.test.ts (which may not run as root).
  uid: Number(process.env.GRC_PREFLIGHT_UID ?? (process.getuid ? process.getuid() : -1)),
  version: process.version,
  log: (line) => console.error(line),
});
