/**
 * One side of the saved-workbook benchmark (bench/xlsx.ts), in a process of its own so its peak RSS is its
 * own. Prints one JSON line with its figures.
 *   refresh URL ID PASSWORD FIXTURE OUT   grc-sheets' refresh of the fixture's table from the sandbox (OUT.in.xlsx
 *                                         is the workbook refreshed: a second run with the first's OUT as FIXTURE
 *                                         compares every record and checks for hand edits)
 *   refresh-changed URL ID PASSWORD FIXTURE OUT   the same with GrossImpact changed in every tenth record (10% changed)
 *   exceljs URL ID PASSWORD OUT           the same rows (same client, same converter) through ExcelJS's streaming writer
 *   million FIXTURE OUT                   a refresh to 1,048,575 rows (the sheet's last row) from generated records
 */
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { catalog } from '../src/catalog';
import { createClient, type DataRecord } from '../src/client';
import { nodeDigest, nodeFingerprints, withNodeHash } from '../src/cli/digest';
import { batchHeap } from '../src/cli/heap';
import { refreshTable, type DatasetSource } from '../src/loading/load';
import { columnSpecs, columnsOf, createRowConverter } from '../src/sheet';
import { NUMBER_FORMAT } from '../src/workbook/formats';
import { openFileWorkbook } from '../src/workbook/file';

const peakRssMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

/** What `grc-sheets refresh` gives the use case (src/cli/refresh.ts): node:crypto for both fingerprints. */
const AS_THE_CLI = { fingerprints: nodeFingerprints, digest: nodeDigest };

async function refresh(client: DatasetSource, fixture: string, out: string) {
  batchHeap();
  const input = `${out}.in.xlsx`;
  copyFileSync(fixture, input);
  const t0 = performance.now();
  const workbook = openFileWorkbook(input);
  const outcome = await refreshTable({ client, workbook, environment: 'ACC', source: 'bench', table: 'tbl_risk', ...AS_THE_CLI });
  if (!outcome.ok) throw new Error(outcome.error.message);
  const t1 = performance.now();
  workbook.saveTo(out);
  workbook.close();
  const t2 = performance.now();
  return { rows: outcome.rowCount, changes: outcome.changes?.text ?? null, downloadMs: t1 - t0, writeMs: t2 - t1, totalMs: t2 - t0, peakRssMb: peakRssMb(), fileMb: statSync(out).size / 1e6 };
}

async function exceljs(client: DatasetSource, out: string) {
  const t0 = performance.now();
  const columns = columnsOf(catalog.dataset('risk').record);
  const convert = createRowConverter(columns);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('Risks');
  sheet.columns = columnSpecs(columns).map((c) => ({ header: c.name, key: c.name, style: { numFmt: NUMBER_FORMAT[c.format] } }));
  let rows = 0;
  let writeMs = 0;
  await client.download('risk', {
    onBatch: (records) => {
      const w0 = performance.now();
      for (const r of records) sheet.addRow(convert.convert(r)).commit();
      rows += records.length;
      writeMs += performance.now() - w0;
    },
  });
  const w0 = performance.now();
  sheet.commit();
  await book.commit();
  writeMs += performance.now() - w0;
  return { rows, totalMs: performance.now() - t0, writeMs, peakRssMb: peakRssMb(), fileMb: statSync(out).size / 1e6 };
}

/** Risk records made up in this process, as many as asked: a dataset larger than the sandbox generates. */
function generated(count: number): DatasetSource {
  return {
    async download(_id, { onBatch }) {
      const batch = 5000;
      for (let i = 0; i < count; i += batch) {
        const records: DataRecord[] = [];
        for (let j = i; j < Math.min(count, i + batch); j++) {
          records.push({
            Id: `00000000-0000-4000-8000-${String(j).padStart(12, '0')}`,
            Identifier: `R-${j}`,
            Name: `Risk ${j}`,
            Description: `Generated risk number ${j} for the sheet-limit refresh.`,
            Organization: ['IT Operations', 'Finance', 'Human Resources'][j % 3],
            Owner: `owner${j % 97}@example.com`,
            Status: j % 5 ? 'Open' : 'Closed',
            GrossImpact: (j % 5) + 1,
            GrossLikelihood: (j % 4) + 1,
            DateIdentified: '2024-03-04',
          });
        }
        await onBatch?.(records);
        await new Promise((r) => setImmediate(r));
      }
      return { bytes: 0, count };
    },
  };
}

/** The sandbox's records with every tenth one's GrossImpact changed: a refresh where 10% changed at the source. */
function tenthChanged(source: DatasetSource): DatasetSource {
  return {
    download: (id, options) => {
      let n = 0;
      return source.download(id, {
        ...options,
        onBatch: (records) => options.onBatch?.(records.map((r) => (n++ % 10 === 0 ? { ...r, GrossImpact: Number(r.GrossImpact ?? 0) + 1 } : r))),
      });
    },
  };
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  const sandbox = (url: string, identifier: string, password: string) => withNodeHash(createClient({ baseUrl: url, credentials: { identifier, password } }));
  let result: object;
  if (mode === 'refresh') result = await refresh(sandbox(args[0]!, args[1]!, args[2]!), args[3]!, args[4]!);
  else if (mode === 'refresh-changed') result = await refresh(tenthChanged(sandbox(args[0]!, args[1]!, args[2]!)), args[3]!, args[4]!);
  else if (mode === 'exceljs') result = await exceljs(sandbox(args[0]!, args[1]!, args[2]!), args[3]!);
  else if (mode === 'million') result = await refresh(generated(1_048_575), args[0]!, args[1]!);
  else throw new Error(`unknown mode ${mode}`);
  console.log(JSON.stringify(result));
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
