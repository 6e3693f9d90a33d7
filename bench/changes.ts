/**
 * Change report benchmark: 200,000 risks as the table holds them (the catalogue's row converter) against
 * the same with 10% of the records changed in one field, plus the cell fingerprint a refresh makes of
 * them and the hand-edit check, each run once (the machine is shared: the load average is reported).
 */
import { createHash } from 'node:crypto';
import { plainCell } from '../src/loading/changes';
import { sha256Hex } from '../src/loading/sha256';
import { lineOf } from '../src/loading/tableprint';
import { loadavg } from 'node:os';
import { catalog } from '../src/catalog';
import { columnsOf, createRowConverter } from '../src/sheet';
import { compareTables, describeChanges } from '../src/loading/changes';
import { recordKeyColumns } from '../src/loading/recordkey';
import { findEdits, makeCellPrint, rowPrints, type HasherFactory } from '../src/loading/tableprint';

const ROWS = 200_000;
const nodeHash: HasherFactory = () => {
  const h = createHash('sha256');
  return { update: (b: Uint8Array) => h.update(b), hex: () => h.digest('hex') };
};

function time<T>(f: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = f();
  return { ms: performance.now() - t, value };
}

export default async function bench(): Promise<string> {
  const columns = columnsOf(catalog.dataset('risk').record);
  const convert = createRowConverter(columns);
  const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
  const record = (i: number, v: number) => ({ Id: guid(i), Identifier: `R-${i}`, Name: `Risk ${i}`, Status: 'Active', GrossImpact: v, NetImpact: i % 3, DateIdentified: '2025-03-04', ControlGuids: [guid(1), guid(2)] });
  const names = columns.map((c) => c.name);
  const before = { columns: names, rows: Array.from({ length: ROWS }, (_, i) => convert.convert(record(i, i % 5))) };
  const after = { columns: names, rows: Array.from({ length: ROWS }, (_, i) => convert.convert(record(i, i % 10 === 0 ? 9 : i % 5))) };
  const keys = recordKeyColumns(columns);
  const load = loadavg()[0]!.toFixed(1);
  const compare = time(() => compareTables(before, after, keys, 100_000));
  const printNode = time(() => makeCellPrint(rowPrints(before, names, keys, nodeHash), keys, nodeHash));
  const printJs = time(() => makeCellPrint(rowPrints(before, names, keys), keys));
  // The row digests alone (the bulk of a cell fingerprint), node:crypto against the taskpane's one-shot SHA-256.
  const lines = before.rows.map((r) => lineOf(r.map((c) => plainCell(c))));
  const digestsNode = time(() => lines.map((l) => createHash('sha256').update(l).digest('hex')));
  const digestsJs = time(() => lines.map(sha256Hex));
  const edited = { columns: names, rows: before.rows.map((r) => [...r]) };
  for (let i = 0; i < 10; i++) edited.rows[i * 17_001]![names.indexOf('Name')] = 'Typed over';
  const edits = time(() => findEdits(printNode.value, edited, after, names, nodeHash));
  const row = (what: string, ms: number, note: string) => `| ${what} | ${Math.round(ms).toLocaleString('en-US')} ms | ${note} |`;
  return [
    '## Change report (200,000 risks, 10% changed)',
    '',
    `One run each, load average ${load} when it started (2 cores shared with other work).`,
    '',
    '| Step | Time | Result |',
    '|---|---|---|',
    row('Compare by key (compareTables)', compare.ms, `${describeChanges(compare.value.summary)}; ${compare.value.changes.length.toLocaleString('en-US')} field changes listed`),
    row('Row digests only, node:crypto createHash per row', digestsNode.ms, `${lines.length.toLocaleString('en-US')} lines`),
    row('Row digests only, built-in sha256Hex (taskpane)', digestsJs.ms, digestsJs.value.every((d, i) => d === digestsNode.value[i]) ? 'same digests' : 'DIFFERENT DIGESTS'),
    row('Cell fingerprint, node:crypto (CLI)', printNode.ms, `${printNode.value.buckets.length / 8} buckets`),
    row('Cell fingerprint, built-in SHA-256 (taskpane)', printJs.ms, printJs.value.sha256 === printNode.value.sha256 ? 'same hash' : 'DIFFERENT HASH'),
    row('Hand-edit check, 10 cells edited (findEdits)', edits.ms, `${edits.value?.cells.filter((c) => c.certain).length ?? 0} cells named with their old value`),
  ].join('\n');
}
