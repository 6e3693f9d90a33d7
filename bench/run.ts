/**
 * `npm run bench [name ...]`: runs the benchmarks (all, or those named) and rewrites BENCHMARKS.md with
 * their figures. Each benchmark is a module in this folder whose default export returns a Markdown
 * section (a heading, the table of figures with ratios against a baseline measured in the same run).
 */
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';

const BENCHES: Record<string, string> = {
  sandbox: './sandbox-download',
  relay: './relay',
  relaysignin: './relay-signin',
  load: './load',
  writeback: './writeback',
  bundle: './bundle',
  binding: './binding-import',
  xlsx: './xlsx',
  changes: './changes',
};

async function main() {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
  const file = join(__dirname, '..', 'BENCHMARKS.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sections = new Map<string, string>();
  for (const m of previous.matchAll(/<!-- bench:(\w+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) sections.set(m[1]!, m[2]!);
  for (const name of names) {
    const path = BENCHES[name];
    if (!path) throw new Error(`unknown benchmark "${name}"; known: ${Object.keys(BENCHES).join(', ')}`);
    console.log(`\n== ${name}`);
    const mod = (await import(path)) as { default: () => Promise<string> };
    const section = await mod.default();
    console.log(section);
    sections.set(name, `${section.trim()}\n\n_Run ${new Date().toISOString()}: \`npm run bench ${name}\`_\n\n`);
  }
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const body = Object.keys(BENCHES)
    .filter((n) => sections.has(n))
    .map((n) => `<!-- bench:${n} -->\n${sections.get(n)}<!-- /bench:${n} -->`)
    .join('\n\n');
  writeFileSync(file, `# Benchmarks\n\nAll figures: \`npm run bench\` on this machine: ${machine}.\nEach section says the command that re-runs it alone.\n\n${body}\n`);
}

main().catch((e) => {
  // A missing tool is said in one line with its fix, not as a stack trace.
  console.error((e as { missingTools?: boolean }).missingTools ? (e as Error).message : e);
  process.exitCode = 1;
});
