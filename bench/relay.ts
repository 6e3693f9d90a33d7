/**
 * Relay benchmark: a fast fake upstream (a node:http server streaming a generated JSON array; the sandbox
 * generates records and would measure itself, not the proxies) reached directly, through the relay and
 * through Debian's nginx configured as a streaming reverse proxy. Each proxy runs pinned to core 1; the
 * upstream and the load generator share core 0 (for direct, the load generator gets core 1).
 */
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evidenceBench } from './relay-evidence';

const MB = 1024 * 1024;
const LARGE_MB = 256;
const SLOW_MB = 500;
const SLOW_CLIENT_MBPS = 100;
const RUNS = 5;
const DIRECT_RUNS = 3;
const HOLDERS = 1000;
/**
 * Node flags the relay runs with, as bin/grc-sheets.js and the systemd unit in docs/relay.md start it (a
 * 2 MiB young generation, an old generation that may grow fourfold before a full collection; why: the comment in
 * bin/grc-sheets.js). To measure V8's defaults, pass RELAY_NODE_FLAGS='--max-semi-space-size=16
 * --heap-growing-percent=0': with neither flag given, `grc-sheets relay` runs itself again with them, and
 * the pid measured here would be the small parent.
 */
const RELAY_NODE_FLAGS = (
  process.env.RELAY_NODE_FLAGS ?? '--max-semi-space-size=2 --heap-growing-percent=300'
)
  .split(' ')
  .filter(Boolean);
const WRK_SECONDS = 4;
const AUTH = `Basic ${Buffer.from('bench-identifier:bench-password').toString('base64')}`;
const ROOT = join(__dirname, '..');

/** The upstream: plain JS so it starts without a compiler; sizes in MiB per catalogue path. */
const UPSTREAM_JS = `
const http = require('node:http');
const sizes = { '/api/directdata/v3/risk': ${LARGE_MB}, '/api/directdata/v1/incidents': ${SLOW_MB} };
const record = JSON.stringify({ Id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', Identifier: 'R-000001', Name: 'Risk of a bench', Status: 'Open', GrossLikelihood: 3, GrossImpact: 4 });
const perChunk = Math.floor(${MB} / (record.length + 1));
const middle = Buffer.from((record + ',').repeat(perChunk));
const small = Buffer.from(JSON.stringify(Array.from({ length: 8 }, () => JSON.parse(record))));
http.createServer((req, res) => {
  const mb = sizes[req.url];
  if (!mb) { res.writeHead(200, { 'content-type': 'application/json', 'content-length': small.length }); res.end(small); return; }
  const first = Buffer.concat([Buffer.from('['), middle.subarray(1)]);
  const last = Buffer.concat([middle.subarray(0, middle.length - 1), Buffer.from(']')]);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': middle.length * mb });
  let i = 0;
  const pump = () => {
    while (i < mb) {
      const chunk = i === 0 ? first : i === mb - 1 ? last : middle;
      i++;
      if (!res.write(chunk)) return res.once('drain', pump);
    }
    res.end();
  };
  pump();
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a pinned process and resolves once a line on stdout or stderr matches. */
function startPinned(
  core: string,
  cmd: string,
  args: string[],
  ready: RegExp,
  stdout: 'pipe' | 'ignore' = 'pipe',
): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', core, cmd, ...args], {
      stdio: ['ignore', stdout, 'pipe'],
      cwd: ROOT,
    });
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      const m = ready.exec(seen);
      if (m) {
        child.stdout?.off('data', onData);
        child.stderr!.off('data', onData);
        child.stdout?.resume();
        child.stderr!.resume();
        resolve({ child, line: m[0] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${cmd} exited (${code}) before it was ready: ${seen}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function waitForPort(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 10_000;
    const attempt = () => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve();
      });
      s.once('error', () =>
        Date.now() > deadline ? reject(new Error(`nothing listens on ${port}`)) : setTimeout(attempt, 50),
      );
    };
    attempt();
  });
}

/** One large download with curl: MB/s. */
function download(core: string, url: string): number {
  const out = execFileSync('taskset', [
    '-c',
    core,
    'curl',
    '-sS',
    '-o',
    '/dev/null',
    '-H',
    `Authorization: ${AUTH}`,
    '-w',
    '%{http_code} %{size_download} %{time_total}',
    url,
  ]).toString();
  const [code, size, time] = out.trim().split(' ');
  if (code !== '200' || Number(size) < LARGE_MB * MB * 0.99)
    throw new Error(`download from ${url} gave ${out}`);
  return Number(size) / MB / Number(time);
}

function toMs(v: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/** Small GETs with wrk: req/s and latency percentiles. */
function smallGets(core: string, url: string, seconds: number): { rps: number; p50: number; p99: number } {
  const out = execFileSync('taskset', [
    '-c',
    core,
    'wrk',
    '-t1',
    '-c32',
    `-d${seconds}s`,
    '--latency',
    '-H',
    `Authorization: ${AUTH}`,
    url,
  ]).toString();
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors from ${url}:\n${out}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p50 = toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? '');
  const p99 = toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? '');
  return { rps, p50, p99 };
}

function vm(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
}

/** Reads a big answer at a fixed pace (pausing the socket), so the proxy has to hold back the upstream. */
function slowClient(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let bytes = 0;
    socket.on('data', (c: Buffer) => {
      bytes += c.length;
      const ahead = bytes / (SLOW_CLIENT_MBPS * MB) - (Date.now() - started) / 1000;
      if (ahead > 0.005) {
        socket.pause();
        setTimeout(() => socket.resume(), ahead * 1000);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(bytes));
    socket.write(
      `GET ${path} HTTP/1.1\r\nhost: bench\r\nauthorization: ${AUTH}\r\nconnection: close\r\n\r\n`,
    );
  });
}

/** What the benchmark needs on the machine, and how to get it on Debian. */
const TOOLS: [string, string, string][] = [
  ['/usr/sbin/nginx', 'nginx', 'apt-get install nginx wrk'],
  ['/usr/bin/wrk', 'wrk', 'apt-get install nginx wrk'],
  ['/usr/bin/curl', 'curl', 'apt-get install curl'],
  ['/usr/bin/taskset', 'taskset', 'apt-get install util-linux'],
];

/** Says what is missing (and how to install it) rather than failing later with "nothing listens on PORT". */
function missingTools(): string[] {
  return TOOLS.filter(
    ([path, name]) => spawnSync('sh', ['-c', `command -v ${name} || test -x ${path}`]).status !== 0,
  ).map(([, name, fix]) => `${name} not found: ${fix}`);
}

/** A connection from a given loopback source address (all of 127.0.0.0/8 is local on Linux). */
function openFrom(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1', localAddress });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

/** One small call from an address of its own ("another user"): its time to the last byte in ms. */
function timedCall(port: number, localAddress: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      { host: '127.0.0.1', port, path, localAddress, headers: { authorization: AUTH }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`normal call answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface Pressure {
  peakRss: number;
  restingRss: number;
  callsMs: number[];
  /** From the first connection to the moment every download holder had the start of its answer. */
  takenInMs: number;
}

/**
 * 1,000 clients each send the start of a 1 MiB POST body and stop; 1,000 others ask for the 256 MiB
 * dataset and read nothing. Meanwhile, calls from another address must still be answered at once.
 */
async function underPressure(pid: number, port: number): Promise<Pressure> {
  const sockets: Socket[] = [];
  const restingRss = vm(pid, 'VmRSS');
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  try {
    const body = Buffer.alloc(64 * 1024, 0x20);
    const answered: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < HOLDERS; i++) {
      const up = await openFrom(port, '127.0.0.1');
      up.on('error', () => undefined);
      up.write(
        `POST /api/acc/taskdata/v1/tasks HTTP/1.1\r\nhost: bench\r\nauthorization: ${AUTH}\r\ncontent-type: application/json\r\ncontent-length: ${MB}\r\n\r\n`,
      );
      up.write(body);
      sockets.push(up);
      const down = await openFrom(port, '127.0.0.1');
      down.on('error', () => undefined);
      // Takes the first bytes of its answer (the relay has dealt with this request), then reads nothing.
      answered.push(new Promise((resolve) => down.once('data', () => (down.pause(), resolve()))));
      down.write(`GET /api/acc/directdata/v3/risk HTTP/1.1\r\nhost: bench\r\nauthorization: ${AUTH}\r\n\r\n`);
      sockets.push(down);
    }
    // The calls are made once the relay has taken all 2,000 in (every download holder has the start of
    // its answer or its refusal): a call made while they still arrive waits behind them (7 to 250 ms seen),
    // which measures the burst, not the hold. How long taking them in took is reported.
    await Promise.all(answered);
    const takenInMs = performance.now() - started;
    const callsMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      callsMs.push(await timedCall(port, '127.0.0.2', '/api/acc/directdata/v1/auditworkflow'));
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      peakRss: vm(pid, 'VmHWM'),
      restingRss,
      callsMs,
      takenInMs,
    };
  } finally {
    for (const s of sockets) s.destroy();
  }
}

function nginxConfig(dir: string, listen: number, upstreamPort: number): string {
  return `worker_processes 1;
daemon off;
user root;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log ${dir}/nginx-access.log;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream grc { server 127.0.0.1:${upstreamPort}; keepalive 32; }
  server {
    listen 127.0.0.1:${listen};
    location /api/acc/ {
      proxy_pass http://grc/api/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
`;
}

const f = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

export default async function (): Promise<string> {
  const missing = missingTools();
  if (missing.length)
    throw Object.assign(new Error(`the relay benchmark cannot run here:\n  ${missing.join('\n  ')}`), {
      missingTools: true,
    });
  const loadAtStart = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const dir = mkdtempSync(join(tmpdir(), 'grc-relay-bench-'));
  const children: ChildProcess[] = [];
  try {
    writeFileSync(join(dir, 'upstream.js'), UPSTREAM_JS);
    const up = await startPinned('0', process.execPath, [join(dir, 'upstream.js')], /^\d+$/m);
    children.push(up.child);
    const upstreamPort = Number(up.line);

    // tsx compiles the relay's TypeScript at its first start and caches it; a start that compiles holds
    // about 12 MB more for the rest of its life. Measure the relay as it runs after that first start.
    execFileSync(process.execPath, ['bin/grc-sheets.js', 'relay', '--help'], { cwd: ROOT, stdio: 'ignore' });
    const relayPort = await freePort();
    writeFileSync(
      join(dir, 'relay.json'),
      JSON.stringify({
        listen: { host: '127.0.0.1', port: relayPort },
        environments: { acc: { baseUrl: `http://127.0.0.1:${upstreamPort}/api` } },
        limits: { rateLimit: { requests: 1e9, windowMs: 1000 } },
      }),
    );
    const relay = await startPinned(
      '1',
      process.execPath,
      [...RELAY_NODE_FLAGS, 'bin/grc-sheets.js', 'relay', '--config', join(dir, 'relay.json')],
      /listening on/,
      'ignore',
    );
    children.push(relay.child);

    const nginxPort = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, nginxPort, upstreamPort));
    const nginx = spawn('taskset', ['-c', '1', '/usr/sbin/nginx', '-c', join(dir, 'nginx.conf'), '-p', dir], {
      stdio: 'ignore',
    });
    children.push(nginx);
    const nginxExit = new Promise<never>((_, reject) =>
      nginx.once('exit', (code) => {
        let log = '';
        try {
          log = readFileSync(join(dir, 'nginx-error.log'), 'utf8').trim();
        } catch {
          // no log written
        }
        reject(new Error(`nginx exited (${code}) before it listened${log ? `: ${log}` : ''}`));
      }),
    );
    nginxExit.catch(() => undefined);
    await Promise.race([waitForPort(nginxPort), nginxExit]);

    const targets = {
      direct: { core: '1', base: `http://127.0.0.1:${upstreamPort}/api` },
      relay: { core: '0', base: `http://127.0.0.1:${relayPort}/api/acc` },
      nginx: { core: '0', base: `http://127.0.0.1:${nginxPort}/api/acc` },
    };
    // Memory first, on the fresh relay: what streaming 500 MiB to a slow client costs, nothing else.
    const rssBefore = vm(relay.child.pid!, 'VmRSS');
    const startupPeak = vm(relay.child.pid!, 'VmHWM');
    // Resets the kernel's peak-RSS mark (VmHWM), so the peak read afterwards is the streaming's alone.
    writeFileSync(`/proc/${relay.child.pid}/clear_refs`, '5');
    let rssPeakSampled = rssBefore;
    const sampler = setInterval(
      () => (rssPeakSampled = Math.max(rssPeakSampled, vm(relay.child.pid!, 'VmRSS'))),
      50,
    );
    const slowStarted = Date.now();
    const got = await slowClient(relayPort, '/api/acc/directdata/v1/incidents');
    clearInterval(sampler);
    const slowSeconds = (Date.now() - slowStarted) / 1000;
    const hwm = vm(relay.child.pid!, 'VmHWM');
    if (got < SLOW_MB * MB * 0.99) throw new Error(`slow client got only ${got} bytes`);

    // Warm-up: JIT, keep-alive pools, nginx's upstream connections.
    for (const t of Object.values(targets)) smallGets(t.core, `${t.base}/directdata/v1/auditworkflow`, 2);
    // Rounds put relay and nginx back to back, in turn first, so a change in the machine's load hits both
    // alike. Each figure is taken right after one unmeasured call of the same kind on the same path: the first
    // download after a stretch of other traffic pays for a new upstream connection (the keep-alive has
    // expired) and for V8 optimising the large-answer path again, and the path measured just before it may
    // have left the upstream busy. Those first downloads are kept and reported as the cold figure.
    // The direct path is a reference measured in a phase of its own: its load generator runs on the
    // proxies' core, and a proxy measured right after it would be measured on a core just freed.
    type Runs = { mbps: number[]; cold: number[]; gets: { rps: number; p50: number; p99: number }[] };
    const runs: Record<string, Runs> = {};
    for (const name of Object.keys(targets)) runs[name] = { mbps: [], cold: [], gets: [] };
    const proxies = ['relay', 'nginx'] as const;
    for (let round = 0; round < RUNS; round++) {
      const order = round % 2 === 0 ? proxies : ([...proxies].reverse() as (typeof proxies)[number][]);
      for (const name of order) {
        const t = targets[name];
        runs[name]!.cold.push(download(t.core, `${t.base}/directdata/v3/risk`));
        runs[name]!.mbps.push(download(t.core, `${t.base}/directdata/v3/risk`));
      }
      for (const name of order) {
        const t = targets[name];
        smallGets(t.core, `${t.base}/directdata/v1/auditworkflow`, 1);
        runs[name]!.gets.push(smallGets(t.core, `${t.base}/directdata/v1/auditworkflow`, WRK_SECONDS));
      }
    }
    for (let round = 0; round < DIRECT_RUNS; round++) {
      const t = targets.direct;
      runs.direct!.mbps.push(download(t.core, `${t.base}/directdata/v3/risk`));
      runs.direct!.gets.push(smallGets(t.core, `${t.base}/directdata/v1/auditworkflow`, WRK_SECONDS));
    }
    const median = <T>(xs: T[], by: (x: T) => number): T =>
      [...xs].sort((x, y) => by(x) - by(y))[Math.floor(xs.length / 2)]!;
    const results: Record<string, { mbps: number; rps: number; p50: number; p99: number }> = {};
    for (const [name, x] of Object.entries(runs))
      results[name] = { mbps: median(x.mbps, (v) => v), ...median(x.gets, (g) => g.rps) };
    const rssAfter = vm(relay.child.pid!, 'VmRSS');
    // Ratios per round (the three paths of a round ran back to back, under the same load), then their median
    // and spread: the figure the targets are about.
    const perRound = (pick: (name: string, i: number) => number) =>
      Array.from({ length: RUNS }, (_, i) => pick('relay', i) / pick('nginx', i));
    const dlRatios = perRound((name, i) => runs[name]!.mbps[i]!);
    const getRatios = perRound((name, i) => runs[name]!.gets[i]!.rps);
    const coldRatios = perRound((name, i) => runs[name]!.cold[i]!);
    const spread = (xs: number[]) =>
      `${median(xs, (v) => v).toFixed(2)}x (${Math.min(...xs).toFixed(2)} to ${Math.max(...xs).toFixed(2)})`;
    const range = (xs: number[]) => `${f(Math.min(...xs))} to ${f(Math.max(...xs))}`;

    // What signing costs, on two relays of its own (evidence on and off), with the main relay stopped.
    await stop(relay.child);
    const evidence = await evidenceBench({
      dir,
      upstreamPort,
      freePort,
      auth: AUTH,
      download: (url) => download('0', url),
      smallGets(url) {
        smallGets('0', url, 1);
        return smallGets('0', url, WRK_SECONDS);
      },
      async startRelay(configFile) {
        const started = await startPinned(
          '1',
          process.execPath,
          [...RELAY_NODE_FLAGS, 'bin/grc-sheets.js', 'relay', '--config', configFile],
          /listening on/,
          'ignore',
        );
        children.push(started.child);
        return { pid: started.child.pid! };
      },
    });

    // Last, on a fresh relay: 1,000 unfinished uploads and 1,000 stalled downloads at once.
    const pressured = await startPinned(
      '1',
      process.execPath,
      [...RELAY_NODE_FLAGS, 'bin/grc-sheets.js', 'relay', '--config', join(dir, 'relay.json')],
      /listening on/,
      'ignore',
    );
    children.push(pressured.child);
    const pressure = await underPressure(pressured.child.pid!, relayPort);
    const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

    const r = results.relay!;
    const n = results.nginx!;
    const d = results.direct!;
    const row = (name: string, x: typeof r) =>
      `| ${name} | ${f(x.mbps)} | ${f(x.rps)} | ${f(x.p50, 2)} | ${f(x.p99, 2)} |`;

    return [
      '### Relay: large download, small GETs, memory',
      '',
      `Fake upstream streaming a generated JSON array (${LARGE_MB} MiB) and a small JSON answer (8 records, about 1 KB), reached directly, through the relay and through nginx ${spawnSync('/usr/sbin/nginx', ['-v']).stderr.toString().trim().replace('nginx version: ', '')} (proxy_buffering off, HTTP/1.1 upstream keepalive 32, 1 worker).`,
      '',
      '| path | large download MB/s | small GETs req/s | p50 ms | p99 ms |',
      '|---|---:|---:|---:|---:|',
      row('direct', d),
      row('relay', r),
      row('nginx', n),
      '',
      '| ratio | large download | small GETs req/s | target |',
      '|---|---:|---:|---|',
      `| relay / nginx, median of ${RUNS} rounds (lowest to highest) | ${spread(dlRatios)} | ${spread(getRatios)} | download >= 0.9x, GETs >= 0.6x |`,
      `| relay / nginx, first download of each round (cold), median (lowest to highest) | ${spread(coldRatios)} | | |`,
      `| relay / nginx, ratio of the medians above | ${ratio(r.mbps, n.mbps)} | ${ratio(r.rps, n.rps)} | |`,
      `| relay / direct | ${ratio(r.mbps, d.mbps)} | ${ratio(r.rps, d.rps)} | |`,
      '',
      `Spread over the ${RUNS} rounds: relay download ${range(runs.relay!.mbps)} MB/s (cold ${range(runs.relay!.cold)}), nginx ${range(runs.nginx!.mbps)} MB/s (cold ${range(runs.nginx!.cold)}); relay small GETs ${range(runs.relay!.gets.map((g) => g.rps))} req/s, nginx ${range(runs.nginx!.gets.map((g) => g.rps))} req/s.`,
      '',
      `Under pressure (a fresh relay, default limits): ${HOLDERS} clients each send the first 64 KiB of a 1 MiB POST body and stop, ${HOLDERS} others ask for the ${LARGE_MB} MiB dataset, take its first bytes and read nothing more, all from 127.0.0.1 (the relay had taken all ${2 * HOLDERS} in, every download holder with the start of its answer or its refusal, ${f(pressure.takenInMs / 1000, 1)} s after the first connected); then, while they hold, 20 small calls from 127.0.0.2, one every 100 ms. **Peak RSS ${f(pressure.peakRss)} MB** (target < 250 MB; ${f(pressure.restingRss)} MB before); the calls took ${f(Math.min(...pressure.callsMs), 1)} to **${f(Math.max(...pressure.callsMs), 1)} ms** (median ${f(
        median(pressure.callsMs, (v) => v),
        1,
      )} ms; target < 100 ms; in order: ${pressure.callsMs.map((v) => f(v)).join(', ')} ms). With the default limits the relay holds at most 20 MiB of unfinished bodies from one address (the rest are refused 503 relay-busy) and streams at most 32 answers to one address at once (the rest are refused 429 too-many-in-flight); the calls from 127.0.0.2 are not affected by either. Load average (1, 5, 15 min) at the start of the benchmark: ${loadAtStart}; at the end: ${loadAverage}.`,
      '',
      '',
      `Relay memory while streaming ${SLOW_MB} MiB to a client reading at ${SLOW_CLIENT_MBPS} MiB/s (${f(slowSeconds, 1)} s): **peak RSS ${f(hwm)} MB** (kernel VmHWM, reset before the stream; target < 150 MB; sampled every 50 ms: ${f(rssPeakSampled)} MB). RSS before the stream ${f(rssBefore)} MB (startup peak ${f(startupPeak)} MB); after all the runs below ${f(rssAfter)} MB.`,
      '',
      evidence,
      '',
      `Method: ${RUNS} rounds with relay and nginx back to back (each first in turn), medians shown; each figure follows one unmeasured call of its kind on the same path (a download; 1 s of wrk), and the relay's and nginx's unmeasured downloads are the cold figures; direct is measured in ${DIRECT_RUNS} rounds of its own after them; curl downloads ${LARGE_MB} MiB; wrk -t1 -c32 -d${WRK_SECONDS}s on an 8-record answer with Basic auth; relay and nginx pinned to core 1, upstream and load generator to core 0 (direct: load generator on core 1); the relay logs every request (one JSON line, written in 64 KiB blocks to /dev/null), nginx writes its access log; the relay's TypeScript is compiled (tsx's cache) before it starts; the relay runs with \`node ${RELAY_NODE_FLAGS.join(' ')}\` (RELAY_NODE_FLAGS to change).`,
    ].join('\n');
  } finally {
    for (const c of children.reverse()) await stop(c);
    rmSync(dir, { recursive: true, force: true });
  }
}
