/**
 * scripts/preflight.js, npm test's first step, run as npm runs it (a real process) against a fake machine:
 * a PATH holding only fake tools, a fake apt-get that logs its calls and "installs" fake programs, and the
 * tests' own variables (CHROMIUM_PATH, REDIS_SERVER, PYTHON3) pointing into that machine.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'preflight.js');
const NOBODY = 65534;

interface Machine {
  bin: string;
  log: string;
  env: Record<string, string>;
}

function tool(file: string, body: string) {
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

/** A fake machine with the given programs installed; apt-get "installs" the others. */
function machine(installed: string[], apt: 'works' | 'fails' | 'absent' = 'works'): Machine {
  const root = mkdtempSync(join(tmpdir(), 'preflight-'));
  chmodSync(root, 0o755);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const log = join(root, 'apt.log');
  const programs: Record<string, [string, string]> = {
    chromium: ['chromium', 'exit 0'],
    'redis-server': ['redis-server', 'exit 0'],
    'libreoffice-calc-nogui': ['soffice', 'exit 0'],
    // python3 with openpyxl: the probe `python3 -c "import openpyxl"` succeeds.
    'python3-openpyxl': ['python3', 'exit 0'],
    // The same python3 answers the probes for jwt and cryptography.
    'python3-jwt': ['python3', 'exit 0'],
    'python3-cryptography': ['python3', 'exit 0'],
  };
  for (const pkg of installed) tool(join(bin, programs[pkg]![0]), programs[pkg]![1]);
  if (!installed.includes('python3-openpyxl')) tool(join(bin, 'python3'), 'exit 1'); // python3 without openpyxl
  if (apt !== 'absent') {
    const installs = Object.entries(programs)
      .map(
        ([pkg, [file, body]]) =>
          `${pkg}) printf '#!/bin/sh\\n${body}\\n' > ${bin}/${file}; /bin/chmod 755 ${bin}/${file};;`,
      )
      .join('\n    ');
    tool(
      join(bin, 'apt-get'),
      apt === 'fails'
        ? `echo "apt-get $*" >> ${log}\necho "E: Could not get lock /var/lib/apt/lists/lock" >&2\nexit 100`
        : `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> ${log}\n[ "$1" = install ] || exit 0\nfor p in "$@"; do\n  case "$p" in\n    ${installs}\n  esac\ndone`,
    );
  }
  return {
    bin,
    log,
    env: {
      PATH: bin,
      CHROMIUM_PATH: join(bin, 'chromium'),
      REDIS_SERVER: join(bin, 'redis-server'),
      PYTHON3: join(bin, 'python3'),
    },
  };
}

/** Runs the script as root (user id 0) unless told otherwise: the decision it takes, not the rights it has. */
function preflight(m: Machine, options: { uid?: number; script?: string } = {}) {
  const r = spawnSync(process.execPath, [options.script ?? SCRIPT], {
    env: { ...m.env, GRC_PREFLIGHT_UID: String(options.uid ?? 0) },
    encoding: 'utf8',
  });
  return { code: r.status, lines: r.stderr.trim() ? r.stderr.trim().split('\n') : [], out: r.stdout };
}

const aptCalls = (m: Machine) => (existsSync(m.log) ? readFileSync(m.log, 'utf8').trim().split('\n') : []);
const ALL = ['chromium', 'redis-server', 'libreoffice-calc-nogui', 'python3-openpyxl', 'python3-jwt', 'python3-cryptography'];

describe('npm test preflight', () => {
  it('everything there: says nothing, calls no apt-get, exit 0', () => {
    const m = machine(ALL);
    expect(preflight(m)).toEqual({ code: 0, lines: [], out: '' });
    expect(aptCalls(m)).toEqual([]);
  });

  it('as root with apt-get: installs what is missing in one go, says so in one line, exit 0', () => {
    const m = machine(['libreoffice-calc-nogui']);
    const r = preflight(m);
    expect(r.lines).toEqual([
      expect.stringMatching(
        /^npm test: installing chromium redis-server python3-openpyxl python3-jwt python3-cryptography with apt-get \(needed by the browser tests/,
      ),
    ]);
    expect(r.code).toBe(0);
    expect(aptCalls(m)).toEqual([
      'apt-get update -qq DEBIAN_FRONTEND=noninteractive',
      'apt-get install -y -qq chromium redis-server python3-openpyxl python3-jwt python3-cryptography DEBIAN_FRONTEND=noninteractive',
    ]);
    expect(preflight(m)).toEqual({ code: 0, lines: [], out: '' }); // and the next run finds them
  });

  it('not root, apt-get there: stops at once with one line naming the packages, apt-get untouched', () => {
    const m = machine(['chromium', 'python3-openpyxl']);
    const r = preflight(m, { uid: NOBODY });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      expect.stringMatching(
        /^npm test needs redis-server, libreoffice-calc-nogui \(.*\): install them with sudo apt-get install redis-server libreoffice-calc-nogui/,
      ),
    ]);
    expect(aptCalls(m)).toEqual([]);
  });

  it('no apt-get (not Debian): one line naming the package, exit 1', () => {
    const m = machine(['redis-server', 'libreoffice-calc-nogui', 'python3-openpyxl'], 'absent');
    expect(preflight(m)).toMatchObject({
      code: 1,
      lines: [
        expect.stringMatching(
          /^npm test needs chromium \(the browser tests \(test\/e2e\)\): install it with/,
        ),
      ],
    });
  });

  it('python3 without openpyxl counts as missing python3-openpyxl', () => {
    const m = machine(['chromium', 'redis-server', 'libreoffice-calc-nogui'], 'absent');
    expect(preflight(m).lines).toEqual([expect.stringMatching(/^npm test needs python3-openpyxl, python3-jwt, python3-cryptography \(/)]);
  });

  it('apt-get fails: one line with its reason and what to install, exit 1', () => {
    const m = machine(ALL.slice(1), 'fails');
    const r = preflight(m);
    expect(r.code).toBe(1);
    expect(r.lines).toHaveLength(2); // "installing ..." then the failure
    expect(r.lines[1]).toMatch(
      /^npm test: apt-get update failed \(E: Could not get lock .*\)\. npm test needs chromium .*sudo apt-get install chromium/,
    );
  });

  it('before npm install: says to run it first, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'preflight-clone-'));
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(SCRIPT, join(dir, 'scripts', 'preflight.js'));
    expect(preflight(machine(ALL), { script: join(dir, 'scripts', 'preflight.js') })).toMatchObject({
      code: 1,
      lines: ["npm test needs the project's dependencies: run npm install first, then npm test again."],
    });
  });
});
