import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { BindingInputError, importBinding, parseApiFile, type ImportResult } from '../../../src/binding';
import { startRelay } from '../../../src/relay';
import { startSandbox } from '../../../src/sandbox';

/**
 * The real-world test's work on its share of the files, in a process of its own (realworld.test.ts starts
 * one per core): run by node with tsx, outside jest's module sandbox, where the same work takes a third of
 * the time (the parser and importer run about 3x slower in jest's vm contexts: 197 s against 65 s for the
 * 330 files). `node -r tsx/cjs check-files.ts LIST OUT`: LIST has `name<TAB>file` a line, OUT gets the
 * Tally as JSON.
 */

export interface Bound {
  file: string;
  endpoint: string;
  ref: string;
  words: string[];
  accept: boolean;
}

/** What the files of one share came to. */
export interface Tally {
  crashed: string[];
  /** What a refusal says (file name and places left out) → the files it refused. */
  refused: Record<string, string[]>;
  notStarted: string[];
  bound: Bound[];
  imported: number;
}

/** The writes an import binds: every bound operation that is not the catalogue's own path. */
function writes(file: string, r: ImportResult, accept: boolean): Bound[] {
  return r.entries
    .filter((e) => e.chosen && e.chosen.bound.kind === 'operation')
    .map((e) => ({ file, endpoint: e.side.e.id, ref: `${e.chosen!.f.op.method} ${e.chosen!.f.op.path}`, words: e.chosen!.evidence, accept }));
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
      (t.refused[what] ??= []).push(name);
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

async function main(list: string, out: string): Promise<void> {
  const t: Tally = { crashed: [], refused: {}, notStarted: [], bound: [], imported: 0 };
  const dir = mkdtempSync(join(tmpdir(), 'realworld-'));
  for (const line of readFileSync(list, 'utf8').split('\n').filter(Boolean)) {
    const [name, file] = line.split('\t');
    await checkFile(name!, file!, t, dir);
  }
  writeFileSync(out, JSON.stringify(t));
}

if (require.main === module) {
  const [list, out] = process.argv.slice(2);
  main(list!, out!).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
