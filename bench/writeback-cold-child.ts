/**
 * Issue 27's cold validation: the first `validateRows` in a process that has done nothing else (bench/writeback.ts
 * runs it in fresh processes). Reads the sheet the benchmark built (columns, standing data, rows) from the JSON
 * file named by its argument, fits the flow, then times one validation; prints one JSON line: its milliseconds,
 * the process's CPU milliseconds over it, the load average and a digest of the Validation (the same in every run).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Cell } from '../src/workbook/port';
import { incidentsFlow } from '../src/writeback/flows/incidents';
import { validateRows } from '../src/writeback/rows/validate';
import { fitFlow } from '../src/writeback/environment/fitted-flow';
import { bindEnvironment } from '../src/writeback/environment/context';

const sheet = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  columns: string[];
  standing: [string, Record<string, unknown>[]][];
  rows: Cell[][];
};
const prepared = fitFlow(incidentsFlow, bindEnvironment({ name: 'ACC', production: false }), new Map(sheet.standing));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const v = validateRows(prepared, sheet.columns, sheet.rows);
const ms = performance.now() - t0;
// The process's CPU over the call, all threads: the optimizing compiler and the garbage collector work beside
// the main thread, and on a busy machine the time waited for a core shows in ms but not here.
const cpu = process.cpuUsage(cpu0);
if (v.rows.length !== sheet.rows.length) throw new Error('validation skipped rows');
const digest = createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 12);
console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, load: loadavg()[0], digest }));
