/**
 * The Excel part of the load benchmark, in a process of its own (bench/load.ts starts it with a capped old
 * generation, `--max-old-space-size`): loads LOAD_ROWS risks from the relay at LOAD_BASE_URL into the Excel
 * adapter driven by the fake Excel, and prints its figures as one JSON line. A load whose live heap passed
 * the cap would end this process with V8's out-of-memory error instead: the cap is a bound, not a sample.
 *
 * Two heap figures, both above the level after a full collection at the start: the peak of samples every
 * 20 ms (what the heap held, garbage not yet collected included, so it moves with when V8 collects), and
 * the peak right after each full (mark-compact) collection, which is what the load kept alive.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient } from '../src/client';
import { loadDataset } from '../src/loading/load';
import { createExcelWorkbook } from '../src/workbook/excel';
import { FakeExcel, supports } from '../test/workbook/excel/fakeExcel';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function main(): Promise<void> {
  const rows = Number(process.env.LOAD_ROWS);
  const keptRows = Number(process.env.LOAD_KEPT_ROWS);
  const baseUrl = process.env.LOAD_BASE_URL!;
  const credentials = { identifier: process.env.LOAD_IDENTIFIER!, password: process.env.LOAD_PASSWORD! };
  const xl = new FakeExcel({ keptRows });
  const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
  const client = createClient({ baseUrl, credentials });
  // As in the taskpane, where Connect's test and earlier loads have run the code before: one small load
  // through the same path first, so the figures are not those of compiling it.
  const warm = new FakeExcel();
  await client.testConnection();
  await loadDataset({ client, workbook: createExcelWorkbook(warm.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' }), datasetId: 'audit', environment: 'ACC', target: { kind: 'new-sheet' } });

  gc();
  const base = process.memoryUsage().heapUsed;
  let sampled = base;
  let live = base;
  let fullGcs = 0;
  const sample = () => {
    sampled = Math.max(sampled, process.memoryUsage().heapUsed);
  };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      fullGcs++;
      live = Math.max(live, process.memoryUsage().heapUsed);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const timer = setInterval(sample, 20);
  let firstRowsMs = NaN;
  const start = performance.now();
  const out = await loadDataset({
    client,
    workbook,
    datasetId: 'risk',
    environment: 'ACC',
    source: 'bench relay',
    target: { kind: 'new-sheet' },
    // 'writing' is reported once a write of body rows has reached Excel.
    onProgress: (p) => {
      if (p.phase === 'writing' && Number.isNaN(firstRowsMs)) firstRowsMs = performance.now() - start;
    },
  });
  const ms = performance.now() - start;
  sample();
  clearInterval(timer);
  observer.disconnect();
  // What the load left alive at its end (the observer's entries come later than this).
  gc();
  live = Math.max(live, process.memoryUsage().heapUsed);
  if (!out.ok) throw new Error(`load failed: ${out.error.code}: ${out.error.message}`);
  const table = xl.table('tbl_risk');
  const requests = xl.payloads.map((p) => p.request);
  const mib = (bytes: number) => bytes / 2 ** 20;
  process.stdout.write(
    `${JSON.stringify({
      rows,
      ms,
      firstRowsMs,
      peakSampledMb: mib(sampled - base),
      peakLiveMb: mib(live - base),
      fullGcs,
      rowCount: out.rowCount,
      tableBody: table.body,
      lastRow: xl.beyond.lastRow,
      beyondCells: xl.beyond.cells,
      busyMs: xl.busyMs,
      payloads: xl.payloads.length,
      refused: xl.payloads.filter((p) => p.refused).length,
      largest: Math.max(...requests),
      syncs: out.writes.syncs,
      maxPayloadBytes: out.writes.maxPayloadBytes,
    })}\n`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
