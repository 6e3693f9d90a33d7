/**
 * Change report benchmark: 200,000 risks as the table holds them (the catalogue's row converter) against
 * the same with 10% of the records changed in one field, plus the cell fingerprint a refresh makes of
 * them, and what a refresh reads of the table before it writes (readBeforeRefresh: two streamed passes, the
 * hand-edit check and the change list), each run once (the machine is shared: the load average is reported).
 */
import { loadavg } from 'node:os';
import { catalog } from '../src/catalog';
import { columnsOf, createRowConverter } from '../src/sheet';
import { compareTables, describeChanges } from '../src/loading/changes';
import { recordKeyColumns } from '../src/loading/recordkey';
import { readBeforeRefresh } from '../src/loading/refreshread';
import { makeCellPrint, rowPrints } from '../src/loading/tableprint';
import { nodeDigest } from '../src/cli/digest';
import { createMemoryWorkbook } from '../src/workbook/memory';
import { columnSpecs } from '../src/sheet';

const ROWS = 200_000;
const nodeHash = nodeDigest;

function time<T>(f: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = f();
  return { ms: performance.now() - t, value };
}
async function timeAsync<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await f();
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
  const printNode = time(() => makeCellPrint(rowPrints(before, names, keys), keys, nodeHash));
  const printJs = time(() => makeCellPrint(rowPrints(before, names, keys), keys));
  const edited = { columns: names, rows: before.rows.map((r) => [...r]) };
  for (let i = 0; i < 10; i++) edited.rows[i * 17_001]![names.indexOf('Name')] = 'Typed over';
  const tableOf = async (rows: typeof before.rows) => {
    const workbook = createMemoryWorkbook();
    const sheet = await workbook.addSheet('Risks');
    const shape = await workbook.createTable({ name: 'tbl_risk', sheet, anchor: 'A1', columns: columnSpecs(columns) });
    await workbook.writeRows(shape.name, 0, rows);
    return { workbook, table: { ...shape, rowCount: rows.length } };
  };
  const asLoaded = await tableOf(before.rows);
  const typedOver = await tableOf(edited.rows);
  const incomingPrints = rowPrints(after, names, keys);
  const edits = await timeAsync(() =>
    readBeforeRefresh({ ...typedOver, incoming: after, incomingPrints, keyColumns: keys, stored: { print: printNode.value, fields: names }, digest: nodeHash, limit: 100_000 }),
  );
  const changes = await timeAsync(() => readBeforeRefresh({ ...asLoaded, incoming: after, incomingPrints, keyColumns: keys, stored: { print: printNode.value, fields: names }, digest: nodeHash, limit: 100_000 }));
  const row = (what: string, ms: number, note: string) => `| ${what} | ${Math.round(ms).toLocaleString('en-US')} ms | ${note} |`;
  return [
    '## Change report (200,000 risks, 10% changed)',
    '',
    `One run each, load average ${load} when it started (2 cores shared with other work).`,
    '',
    '| Step | Time | Result |',
    '|---|---|---|',
    row('Compare by key (compareTables)', compare.ms, `${describeChanges(compare.value.summary)}; ${compare.value.changes.length.toLocaleString('en-US')} field changes listed`),
    row('Cell fingerprint, node:crypto (CLI)', printNode.ms, `${printNode.value.buckets.length / 8} buckets`),
    row('Cell fingerprint, built-in SHA-256 (taskpane)', printJs.ms, printJs.value.sha256 === printNode.value.sha256 ? 'same hash' : 'DIFFERENT HASH'),
    row('Before a refresh, node:crypto: the pass over the table, print check, change list (readBeforeRefresh)', changes.ms, describeChanges(changes.value.compared.summary)),
    row('Before a refresh with the hand-edit check, 10 cells edited (readBeforeRefresh)', edits.ms, `${edits.value.edits?.cells.filter((c) => c.certain).length ?? 0} cells named with their old value`),
  ].join('\n');
}
