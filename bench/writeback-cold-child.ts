/**
 * Issue 27's cold validation: the first `validateRows` in a process that has done nothing else (bench/writeback.ts
 * runs it in fresh processes). Reads the sheet the benchmark built (columns, standing data, rows) from the JSON
 * file named by its argument, fits the flow, then times one validation; prints one JSON line: its milliseconds
 * and the load average.
 */
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
const t0 = performance.now();
const v = validateRows(prepared, sheet.columns, sheet.rows);
const ms = performance.now() - t0;
if (v.rows.length !== sheet.rows.length) throw new Error('validation skipped rows');
console.log(JSON.stringify({ ms, load: loadavg()[0] }));
