import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BindingFileError, BindingInputError, formatReport, importBinding, loadBinding } from '../binding';
import { EXIT, unreadableFile } from './exit';
import { parseOptions } from './options';

const HELP = `Usage: grc-sheets binding import <swagger.json|openapi.yaml> [--out binding.json] [--accept]

Reads the service's Swagger 2.0 or OpenAPI 3.x file (from the service desk) and writes a binding: where each
catalogue dataset and operation lives in this environment and how its properties are named. The report is
printed and written next to the binding as <name>.report.txt. See docs/binding.md.

Options:
  --out FILE   the binding file to write (default binding.json); picks made in an existing one are kept
  --accept     take the best candidate where two operations fit nearly equally (ambiguous)
  -h, --help   this help

Exit status: 0 every endpoint bound or reported missing; 1 ambiguous endpoints without a pick (the binding
and the report are written: pick in the file or pass --accept); 2 wrong usage or a bad input file (a
missing file, not a Swagger or OpenAPI file, an --out that is not a binding: nothing written).`;

/** binding.json -> binding.report.txt, next to it. */
export function reportPathFor(out: string): string {
  return join(dirname(out), `${basename(out).replace(/\.json$/i, '')}.report.txt`);
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
  try {
    const previous = existsSync(out) ? loadBinding(out) : undefined;
    const result = await importBinding(file, { previous, accept: values.values.accept });
    const text = formatReport(result, { binding: out, report });
    writeAtomically(out, JSON.stringify(result.binding, null, 2) + '\n');
    writeAtomically(report, text);
    process.stdout.write(text);
    return result.unresolved.length ? EXIT.failed : EXIT.ok;
  } catch (e) {
    if (e instanceof BindingInputError || e instanceof BindingFileError) {
      console.error(`grc-sheets binding import: ${e.message}\nNothing was written.`);
      return EXIT.usage;
    }
    throw e;
  }
}
