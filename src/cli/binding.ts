import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BindingInputError, importBinding, type ImportResult } from '../binding';
import { formatReport } from '../binding-report';
import { keepsDocumented } from '../catalog';
import { EXIT, unreadableFile } from './exit';
import { parseOptions } from './options';

const HELP = `Usage: grc-sheets binding import <swagger.json|openapi.yaml> [--out binding.json] [--overrides FILE] [--accept]

Reads the service's Swagger 2.0 or OpenAPI 3.0/3.1 file (from the service desk) and writes a binding: which
operation of the file each catalogue dataset and operation is, and where each field goes in it (placements).
The report is printed and written next to the binding as <name>.report.txt. See docs/binding.md.

Options:
  --out FILE        the binding file to write (default binding.json)
  --overrides FILE  the admin's choices, one per line (default <name>.overrides next to --out; applied when it
                    exists, and started with the open decisions as comments when it does not)
  --accept          take the best candidate where two operations fit nearly equally (never one whose
                    fields fit while no word says it is the operation: that takes a "use" line)
  -h, --help        this help

Exit status: 0 every endpoint bound or its consequence reported; 1 decisions open (the binding and the report
are written: add the report's "use" lines to the overrides file and import again, or pass --accept);
2 wrong usage or a bad input file (a missing file, not a Swagger or OpenAPI file: nothing written).`;

/** binding.json -> binding.report.txt, next to it (`p`: the platform's path rules; path.win32 in tests). */
export function reportPathFor(out: string, p: path.PlatformPath = path): string {
  return p.join(p.dirname(out), `${p.basename(out).replace(/\.json$/i, '')}.report.txt`);
}

/** binding.json -> binding.overrides, next to it. */
export function overridesPathFor(out: string, p: path.PlatformPath = path): string {
  return p.join(p.dirname(out), `${p.basename(out).replace(/\.json$/i, '')}.overrides`);
}

/** A new overrides file: how to write lines, and the open decisions' choices commented out. */
function starterOverrides(result: ImportResult): string {
  const lines = [
    '# grc-sheets binding overrides: the admin\'s choices, applied by every `grc-sheets binding import`.',
    '# One per line; # starts a comment. docs/binding.md explains each:',
    '#   use <id> = <METHOD> <path>        none <id>          unplace <id> <field>',
    '#   place <id> <field> = body <pointer> [<encoding JSON>]      answer <id> = header location',
    '#   default <id> <extra column key> = <JSON value>',
    '#   map <id> <field> "<catalogue value>" = <the file\'s value, JSON>',
  ];
  for (const e of result.entries) {
    if (!e.decision) continue;
    lines.push('', `# ${e.side.e.title}: ${e.decision.reason}. Uncomment one:`);
    for (const c of e.decision.candidates) lines.push(`# use ${e.side.e.id} = ${c.f.op.method} ${c.f.op.path}`);
  }
  // Enums the file does not name: one line per value, the file's value to fill in.
  for (const c of result.binding.consequences.filter((x) => x.kind === 'enum-unread')) {
    lines.push('', `# ${c.endpoint} ${c.columns.join(', ')}: which of the file's values means each? Fill in and uncomment:`);
    for (const l of c.unread?.maps ?? []) lines.push(`# ${l}`);
  }
  const kept = result.entries.filter((e) => !e.chosen && keepsDocumented(result.binding, e.side.e));
  if (kept.length) {
    lines.push('', "# Documented datasets the file does not list: kept at the spec's path. Uncomment to take one away:");
    for (const e of kept) lines.push(`# none ${e.side.e.id}   # ${e.side.e.title}, GET ${e.side.e.path}`);
  }
  return lines.join('\n') + '\n';
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export async function run(argv: string[]): Promise<number> {
  const values = parseOptions('binding', HELP, () =>
    parseArgs({
      args: argv,
      options: {
        out: { type: 'string', default: 'binding.json' },
        overrides: { type: 'string' },
        accept: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    }),
  );
  // parseOptions sees --help only at the top level; parseArgs with positionals nests it under values.
  if (typeof values !== 'number' && values.values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  if (typeof values === 'number') return values;
  const [sub, file, ...more] = values.positionals;
  if (sub !== 'import' || !file || more.length) {
    console.error(
      `grc-sheets binding: ${sub !== 'import' ? 'expected "import"' : !file ? 'give the Swagger or OpenAPI file' : `unexpected ${more.join(' ')}`}\n\n${HELP}`,
    );
    return EXIT.usage;
  }
  const missing = unreadableFile(file, "the service's Swagger or OpenAPI file");
  if (missing) {
    console.error(`grc-sheets binding import: ${missing}\nNothing was written.`);
    return EXIT.usage;
  }
  const out = values.values.out;
  const report = reportPathFor(out);
  const overrides = values.values.overrides ?? overridesPathFor(out);
  const given = values.values.overrides !== undefined;
  try {
    if (given && !existsSync(overrides))
      throw new BindingInputError(`${overrides}: no such overrides file (leave out --overrides to start one next to --out)`);
    const apply = existsSync(overrides);
    const result = await importBinding(file, { accept: values.values.accept, ...(apply ? { overrides } : {}) });
    const text = formatReport(result, { binding: out, report, overrides });
    writeAtomically(out, JSON.stringify(result.binding, null, 2) + '\n');
    writeAtomically(report, text);
    if (!apply) writeAtomically(overrides, starterOverrides(result));
    process.stdout.write(text);
    return result.unresolved.length ? EXIT.failed : EXIT.ok;
  } catch (e) {
    if (e instanceof BindingInputError) {
      console.error(`grc-sheets binding import: ${e.message}\nNothing was written.`);
      return EXIT.usage;
    }
    throw e;
  }
}
