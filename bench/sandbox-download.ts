/**
 * Sandbox download benchmark: `grc-sheets sandbox --scale 200000` in a child process, and `risk`
 * (200,000 records) downloaded by separate child processes: plain fetch + JSON.parse (the baseline),
 * the project client keeping the records, and the client handing them over in batches. Peak RSS is
 * each process's VmHWM from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '../src/client';

const SCALE = 200_000;
const RUNS = 2;
const ROOT = join(__dirname, '..');
const MB = 1024 * 1024;

type Way = 'discard' | 'fetch' | 'client' | 'client-batches';
interface Result {
  ms: number;
  bytes: number;
  records: number;
  hwmKiB: number;
}

const hwmKiB = (pid: number | 'self') =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

/** Worker side: one download in a fresh process, so its peak RSS is its own. */
async function worker(way: Way, url: string, identifier: string, password: string): Promise<Result> {
  const t0 = performance.now();
  if (way === 'discard') {
    const res = await fetch(`${url}/directdata/v3/risk`, {
      headers: { authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}` },
    });
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    return { ms: performance.now() - t0, bytes, records: SCALE, hwmKiB: hwmKiB('self') };
  }
  if (way === 'fetch') {
    const res = await fetch(`${url}/directdata/v3/risk`, {
      headers: { authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}` },
    });
    const text = await res.text();
    const records = (JSON.parse(text) as unknown[]).length;
    return { ms: performance.now() - t0, bytes: Buffer.byteLength(text), records, hwmKiB: hwmKiB('self') };
  }
  const client = createClient({ baseUrl: url, credentials: { identifier, password } });
  const r = await client.download('risk', way === 'client-batches' ? { onBatch: () => undefined } : {});
  return { ms: performance.now() - t0, bytes: r.bytes, records: r.count, hwmKiB: hwmKiB('self') };
}

/** Runs `command`, resolving with the first stdout line matching `pattern` (and the process). */
function startAndWait(
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      lines.push(...d.split('\n'));
      if (lines.some((l) => pattern.test(l))) resolve({ child, lines });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${err}`)));
  });
}

async function measure(way: Way, url: string, identifier: string, password: string): Promise<Result> {
  const env = { ...process.env, GRC_BENCH_WORKER: JSON.stringify({ way, url, identifier, password }) };
  const { child, lines } = await startAndWait(['--import', 'tsx', __filename], /^RESULT /, env);
  child.kill();
  return JSON.parse(lines.find((l) => l.startsWith('RESULT '))!.slice(7)) as Result;
}

export default async function run(): Promise<string> {
  const { child: sandbox, lines } = await startAndWait(
    ['bin/grc-sheets.js', 'sandbox', '--port', '0', '--scale', String(SCALE)],
    /^Try: /,
  );
  try {
    const url = /Base URL: (\S+)/.exec(lines.join('\n'))![1]!;
    const identifier = /identifier: (\S+)/.exec(lines.join('\n'))![1]!;
    const password = /password: +(\S+)/.exec(lines.join('\n'))![1]!;
    const idleKiB = hwmKiB(sandbox.pid!);
    const best = new Map<Way, Result>();
    for (let i = 0; i < RUNS; i++)
      for (const way of ['discard', 'fetch', 'client', 'client-batches'] as const) {
        const r = await measure(way, url, identifier, password);
        if (r.records !== SCALE) throw new Error(`${way} got ${r.records} records, expected ${SCALE}`);
        if (!best.has(way) || r.ms < best.get(way)!.ms) best.set(way, r);
      }
    const sandboxKiB = hwmKiB(sandbox.pid!);
    const base = best.get('fetch')!;
    const row = (label: string, r: Result) =>
      `| ${label} | ${Math.round(r.records / (r.ms / 1000)).toLocaleString('en')} | ${(r.bytes / MB / (r.ms / 1000)).toFixed(1)} | ${(r.ms / 1000).toFixed(2)} | ${(base.ms / r.ms).toFixed(2)}× | ${Math.round(r.hwmKiB / 1024)} | ${(r.hwmKiB / base.hwmKiB).toFixed(2)}× |`;
    return [
      '### Sandbox: download of 200,000 risks',
      '',
      `\`risk\` at \`--scale ${SCALE}\`: ${base.records.toLocaleString('en')} records, ${(base.bytes / MB).toFixed(1)} MiB of JSON. Sandbox peak RSS ${Math.round(sandboxKiB / 1024)} MiB over all downloads (${Math.round(idleKiB / 1024)} MiB before the first).`,
      '',
      '| Downloader | records/s | MiB/s | seconds | speed vs fetch+JSON.parse | client peak RSS (MiB) | RSS vs fetch+JSON.parse |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('fetch, body read and discarded (what the sandbox can serve)', best.get('discard')!),
      row('fetch + JSON.parse (baseline)', base),
      row('client.download (records kept)', best.get('client')!),
      row('client.download with onBatch (records not kept)', best.get('client-batches')!),
      '',
      `Method: sandbox and each downloader in their own Node processes on loopback; best of ${RUNS} runs per downloader; peak RSS is VmHWM from /proc/<pid>/status; the client checks every record against the catalogue schema, the baseline does not.`,
    ].join('\n');
  } finally {
    sandbox.kill('SIGTERM');
  }
}

if (process.env.GRC_BENCH_WORKER) {
  const { way, url, identifier, password } = JSON.parse(process.env.GRC_BENCH_WORKER) as {
    way: Way;
    url: string;
    identifier: string;
    password: string;
  };
  worker(way, url, identifier, password).then(
    (r) => console.log(`RESULT ${JSON.stringify(r)}`),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
