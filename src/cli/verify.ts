import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeEdits } from '../loading/edits';
import { verifyTables } from '../loading/verify';
import { isFileProblem, openFileWorkbook } from '../workbook/file';
import { EXIT } from './exit';
import { parseOptions } from './options';

const HELP = `Usage: grc-sheets verify BOOK.xlsx [--json]

Checks each table grc-sheets refreshed in a saved workbook against what its last refresh recorded: that
the table is there and that its cells are still the ones the refresh wrote (none edited by hand), and
prints each table's fingerprint (environment, dataset, time, record count, SHA-256 of the records; see
docs/workbook.md, Fingerprints). Reads the file only; no network, no key.

Options:
  --json       print the findings as JSON
  -h, --help   this text

Exit codes: 0 every table is as its last refresh left it; 1 a table was edited or is missing, or the
file cannot be read; 2 wrong options.`;

export interface VerifyIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: VerifyIo = {
  stdout: (t) => process.stdout.write(`${t}\n`),
  stderr: (t) => process.stderr.write(`${t}\n`),
};

export async function run(argv: string[], io: VerifyIo = processIo): Promise<number> {
  const values = parseOptions('verify', HELP, () => {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } }, strict: true });
    return { ...parsed.values, positionals: parsed.positionals };
  });
  if (typeof values === 'number') return values;
  if (values.positionals.length !== 1 || !existsSync(resolve(values.positionals[0]!))) {
    io.stderr(`grc-sheets verify: give one workbook file that exists\n\n${HELP}`);
    return EXIT.usage;
  }
  const name = values.positionals[0]!;
  let checks;
  try {
    const workbook = openFileWorkbook(resolve(name));
    try {
      checks = await verifyTables(workbook);
    } finally {
      workbook.close();
    }
  } catch (e) {
    if (!isFileProblem(e)) throw e;
    io.stderr(`grc-sheets verify: ${e.message}`);
    return EXIT.failed;
  }
  if (values.json) {
    io.stdout(JSON.stringify({ file: resolve(name), tables: checks.map(({ binding, ...c }) => ({ ...c, environment: binding.environment, datasetId: binding.datasetId, loadedAt: binding.loadedAt, rowCount: binding.rowCount, ...(binding.fingerprint ? { fingerprint: binding.fingerprint } : {}) })) }, null, 2));
  } else {
    if (!checks.length) io.stdout(`${name}: no table was loaded by grc-sheets.`);
    for (const c of checks) {
      const b = c.binding;
      const origin = `${b.datasetId} from ${b.environment}, ${b.loadedAt}, ${b.rowCount.toLocaleString('en-US')} rows${b.fingerprint ? `, records sha256 ${b.fingerprint.sha256}` : ''}`;
      const finding =
        c.state === 'unchanged'
          ? 'as its last refresh wrote it'
          : c.state === 'edited'
            ? `EDITED by hand since then: ${describeEdits(c.edits)}`
            : c.state === 'missing'
              ? 'MISSING: the table is no longer in the workbook'
              : 'not checked: its last load recorded no cell digest (a load in Excel; refresh it with grc-sheets once)';
      io.stdout(`${c.table} (${origin}): ${finding}`);
    }
  }
  return checks.some((c) => c.state === 'edited' || c.state === 'missing') ? EXIT.failed : EXIT.ok;
}
