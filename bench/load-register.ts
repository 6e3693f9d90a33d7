/**
 * Register load benchmark (issue 26): the risk register of 100,000 risks with 20 custom fields each
 * (2,000,000 values) against loading the risks and the custom field values datasets as two plain tables,
 * in the same run, into the in-memory workbook through the relay. Goal: the register takes at most 1.3x
 * the two plain loads together, and its peak JS heap stays under 256 MiB above start.
 *
 * Runs as part of `npm run bench load`; alone: `npx tsx bench/load-register.ts` (prints the section).
 */
import { loadavg } from 'node:os';
import { createClient } from '../src/client';
import { loadDataset, type LoadSuccess } from '../src/loading/load';
import { createMemoryWorkbook, type MemoryWorkbook } from '../src/workbook/memory';
import { measured, startStack, type Stack } from './load';

const RISKS = Number(process.env.BENCH_REGISTER_RISKS ?? 100_000);
const FIELDS = 20;
const RUNS = 3;
const TIME_GOAL = 1.3;
const HEAP_GOAL_MIB = 256;
/** Five types, four fields each; no multi-select, so every field is one value per risk (20 x risks values). */
const TYPES = ['Text', 'Number', 'Date', 'Checkbox', 'Dropdown'] as const;

const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The sandbox's risk custom fields become exactly FIELDS visible ones, each filled for every risk. */
async function twentyFields({ sandboxUrl, authorization }: Stack): Promise<void> {
  const admin = `${sandboxUrl.replace(/\/api$/, '')}/_sandbox/customfields`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${admin}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${admin}${path}: ${res.status} ${await res.text()}`);
  };
  const defsRes = await fetch(`${sandboxUrl}/directdata/v3/riskcustomfieldvalues`, { headers: { authorization } });
  const defs = (await defsRes.json()) as { Id: string }[];
  for (const d of defs) await call('DELETE', `/${d.Id}`);
  for (let i = 0; i < FIELDS; i++) {
    const Type = TYPES[i % TYPES.length]!;
    await call('POST', '/riskcustomfieldvalues', { Name: `Bench field ${i + 1} (${Type})`, Type, ...(Type === 'Dropdown' ? { Options: ['Low', 'Medium', 'High'] } : {}) });
  }
}

/** The memory workbook's custom field cells that hold a value. */
function filledCustomCells(workbook: MemoryWorkbook): number {
  const t = workbook.snapshot().tables[0]!;
  const at = t.specs.map((s, i) => (s.name.startsWith('Bench field ') ? i : -1)).filter((i) => i >= 0);
  if (at.length !== FIELDS) throw new Error(`expected ${FIELDS} custom field columns, found ${at.length}`);
  let n = 0;
  for (const row of t.rows) for (const i of at) if (row[i] !== null && row[i] !== undefined) n++;
  return n;
}

export async function registerLoad(): Promise<string> {
  const stack: Stack = await startStack(RISKS);
  try {
    const { baseUrl, identifier, password } = stack;
    await twentyFields(stack);
    const client = () => createClient({ baseUrl, credentials: { identifier, password } });
    const one = async (workbook: MemoryWorkbook, datasetId: string): Promise<LoadSuccess> => {
      const out = await loadDataset({ client: client(), workbook, datasetId, environment: 'ACC', source: 'bench relay', target: { kind: 'new-sheet' } });
      if (!out.ok) throw new Error(`${datasetId}: ${out.error.code}: ${out.error.message}`);
      return out;
    };
    const plain = () =>
      measured(async () => {
        const workbook = createMemoryWorkbook();
        const risks = await one(workbook, 'risk');
        const values = await one(workbook, 'riskcustomfields');
        return { risks: risks.rowCount, values: values.rowCount };
      });
    const register = () =>
      measured(async () => {
        const workbook = createMemoryWorkbook();
        const out = await one(workbook, 'register:risks');
        return { rows: out.rowCount, columns: out.table.columns.length, workbook };
      });

    // Warm both paths (sandbox generation, JIT) once, then alternate; the best run of each counts.
    await plain();
    const warm = await register();
    const values = filledCustomCells(warm.result.workbook);
    if (warm.result.rows !== RISKS || values !== RISKS * FIELDS) throw new Error(`expected ${RISKS} rows and ${RISKS * FIELDS} values, got ${warm.result.rows} and ${values}`);
    const plains: Awaited<ReturnType<typeof plain>>[] = [];
    const registers: Awaited<ReturnType<typeof register>>[] = [];
    for (let i = 0; i < RUNS; i++) {
      plains.push(await plain());
      registers.push(await register());
    }
    const p = plains.reduce((x, y) => (y.ms < x.ms ? y : x));
    const r = registers.reduce((x, y) => (y.ms < x.ms ? y : x));
    const heap = Math.max(...registers.map((x) => x.peakHeapMb));
    const ratio = r.ms / p.ms;
    const timeMet = ratio <= TIME_GOAL;
    const heapMet = heap < HEAP_GOAL_MIB;
    const line = `Register load: goal at most ${TIME_GOAL}x the two plain loads and under ${HEAP_GOAL_MIB} MiB peak heap; figure ${ratio.toFixed(2)}x, ${f(heap)} MiB: ${timeMet && heapMet ? 'met' : 'missed'}`;
    console.log(line);

    return `### Load: the risk register, ${f(RISKS)} risks x ${FIELDS} custom fields (${f(RISKS * FIELDS)} values)

| Figure | risk + riskcustomfields as two plain tables (baseline) | register:risks as one table | Goal | Met |
|---|---:|---:|---|---|
| Total time | ${f(p.ms)} ms | ${f(r.ms)} ms | at most ${TIME_GOAL}x the baseline: ${ratio.toFixed(2)}x | ${timeMet ? 'met' : 'missed'} |
| Peak JS heap above start | ${f(p.peakHeapMb)} MiB | ${f(heap)} MiB (worst of ${RUNS} runs; the workbook's rows included) | under ${HEAP_GOAL_MIB} MiB | ${heapMet ? 'met' : 'missed'} |
| Rows | ${f(p.result.risks)} + ${f(p.result.values)} | ${f(r.result.rows)} (${r.result.columns} columns, ${f(values)} custom field values) | | |

${line}.

Method: sandbox \`--scale ${RISKS}\` and relay as child processes on loopback (as the load figures above); before the runs the sandbox's risk custom fields are replaced through its admin routes by ${FIELDS} visible fields (${TYPES.join(', ')}, four of each), each filled for every risk. Baseline: \`loadDataset\` of \`risk\` then of \`riskcustomfields\` (name/value pairs as JSON text) into one memory workbook. Register: \`loadDataset\` of \`register:risks\`, which reads the definitions, the root cause categories, the controls (for their identifiers, ${f(Math.ceil(RISKS / 2))} records), the values and the risks, and writes one typed table. Best time of ${RUNS} alternating runs after one warm-up of each; memory sampled every 20 ms after a full GC. Load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`;
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  registerLoad().then(
    (section) => console.log(section),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
