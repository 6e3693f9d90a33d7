/**
 * package-lock.json carries every platform's optional natives (issue 27). `npm install` on one platform
 * writes the lockfile; a lockfile written without the others' entries makes `npm ci` on Windows or macOS
 * install no native binding for swc (jest's transform) or for jest's resolver, and `npm test` fails there.
 * The expected entries are derived from the lockfile itself: every optionalDependencies of every package in
 * it (what npm would look for on some platform), not a hand list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
}
type Packages = Record<string, LockEntry>;

const LOCK = join(__dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as { lockfileVersion: number; packages: Packages };

/**
 * Whether `version` is in `range`, for the range forms optional dependencies use here (exact, ^, ~); another
 * form is reported rather than guessed (semver is not a dependency of ours).
 */
function satisfies(version: string, range: string): boolean | 'unknown range' {
  const m = /^([~^]?)(\d+)\.(\d+)\.(\d+)$/.exec(range);
  const v = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!m) return 'unknown range';
  if (!v) return false;
  const [want, have] = [m.slice(2).map(Number), v.slice(1).map(Number)] as [number[], number[]];
  const cmp = have[0]! - want[0]! || have[1]! - want[1]! || have[2]! - want[2]!;
  if (m[1] === '') return cmp === 0;
  if (cmp < 0) return false;
  // ~1.2.3: same minor; ^1.2.3: same major (^0.2.3: same minor; ^0.0.3: exactly).
  if (m[1] === '~' || want[0] === 0)
    return have[0] === want[0] && have[1] === want[1] && (m[1] === '~' || want[1] !== 0 || cmp === 0);
  return have[0] === want[0];
}

/** Where Node (and npm ci) finds `name` from the package at `from`: its own node_modules, then each parent's. */
function locate(packages: Packages, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const here = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[here]) return here;
    if (!dir) return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up < 0 ? '' : dir.slice(0, up);
  }
}

interface Found {
  /** `dependent -> optional@range: why`, one per optional dependency npm ci could not install from the lockfile. */
  problems: string[];
  /** The lockfile entries of the optional dependencies, by location. */
  entries: Map<string, LockEntry>;
}

function optionalNatives(packages: Packages): Found {
  const problems: string[] = [];
  const entries = new Map<string, LockEntry>();
  for (const [at, entry] of Object.entries(packages)) {
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      const where = locate(packages, at, name);
      const dependent = at || '(root)';
      const dep = where ? packages[where] : undefined;
      if (!where || !dep) problems.push(`${dependent} -> ${name}@${range}: no entry`);
      else if (!dep.link && !dep.integrity) problems.push(`${dependent} -> ${name}@${range}: no integrity`);
      else if (!dep.link && satisfies(dep.version ?? '', range) !== true)
        problems.push(`${dependent} -> ${name}@${range}: the entry is ${dep.version}`);
      else entries.set(where, dep);
    }
  }
  return { problems, entries };
}

describe('package-lock.json: every platform can npm ci from it', () => {
  it('holds an entry (version in range, integrity) for every optional dependency of every package', () => {
    expect(lock.lockfileVersion).toBe(3);
    const { problems, entries } = optionalNatives(lock.packages);
    expect(problems).toEqual([]);
    // Not vacuous: the natives of jest's transform (swc) and resolver are among them, for the three systems.
    const oses = new Set([...entries.values()].flatMap((e) => e.os ?? []));
    for (const os of ['win32', 'darwin', 'linux']) expect(oses).toContain(os);
    for (const native of [
      '@swc/core-win32-x64-msvc',
      '@swc/core-darwin-arm64',
      '@unrs/resolver-binding-win32-arm64-msvc',
      '@unrs/resolver-binding-darwin-x64',
    ])
      expect(entries.has(`node_modules/${native}`)).toBe(true);
  });

  it('reads the range forms in use', () => {
    expect([satisfies('1.16.22', '1.16.22'), satisfies('1.16.21', '1.16.22')]).toEqual([true, false]);
    expect([
      satisfies('2.3.9', '~2.3.2'),
      satisfies('2.4.0', '~2.3.2'),
      satisfies('2.3.1', '~2.3.2'),
    ]).toEqual([true, false, false]);
    expect([
      satisfies('4.9.0', '^4.1.6'),
      satisfies('5.0.0', '^4.1.6'),
      satisfies('0.11.4', '^0.11.0'),
      satisfies('0.12.0', '^0.11.0'),
    ]).toEqual([true, false, true, false]);
    expect(satisfies('1.0.0', '>=1')).toBe('unknown range');
  });

  it('names what is missing when a platform entry is dropped (as npm install on one platform used to)', () => {
    const packages: Packages = { ...lock.packages };
    delete packages['node_modules/@swc/core-win32-x64-msvc'];
    packages['node_modules/@unrs/resolver-binding-darwin-arm64'] = {
      ...packages['node_modules/@unrs/resolver-binding-darwin-arm64'],
      version: '0.0.1',
    };
    const { problems } = optionalNatives(packages);
    expect(problems).toEqual([
      expect.stringMatching(/^node_modules\/@swc\/core -> @swc\/core-win32-x64-msvc@[\d.]+: no entry$/),
      expect.stringMatching(
        /^node_modules\/unrs-resolver -> @unrs\/resolver-binding-darwin-arm64@[\d.]+: the entry is 0\.0\.1$/,
      ),
    ]);
  });
});
