import { setFlagsFromString } from 'node:v8';

/**
 * A refresh is a batch job whose limit is memory, not pauses. V8 lets the old generation grow to several
 * times its live size before a full collection: a refresh holding 200,000 rows (about 200 MB live) peaked
 * at 650-750 MB, most of it garbage waiting to be collected. Growing it by a quarter instead keeps that
 * refresh under 500 MB at the same speed (`npm run bench xlsx`, BENCHMARKS.md). V8 reads the flag at every
 * full collection, so setting it when the command starts takes effect; one given on the command line wins.
 */
export function batchHeap(): void {
  if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) setFlagsFromString('--heap-growing-percent=25');
}
