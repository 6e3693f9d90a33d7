/**
 * What the relay's statements cost (issue 25), measured in the relay benchmark's run: the large download
 * through a relay that hashes and counts it against one with evidence off (same upstream, same core),
 * the time to fetch a statement, and 200 downloads at once each getting a statement of its own.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { JWKS_PATH, STATEMENT_ID_HEADER, STATEMENTS_PATH, readStatement } from '../src/contracts/evidence';

const ROUNDS = 5;
const CONCURRENT = 200;
const FETCH_PASSES = 10;
const WRITES = 500;

/** The issue's goals, printed as they are. */
const GOAL_OVERHEAD = 0.1;
const GOAL_FETCH_P99_MS = 5;

export interface EvidenceBenchDeps {
  dir: string;
  upstreamPort: number;
  freePort(): Promise<number>;
  /** Starts a relay pinned to the proxies' core with this configuration; resolves with its pid. */
  startRelay(configFile: string): Promise<{ pid: number }>;
  /** One large download with curl from the load generator's core: MB/s. */
  download(url: string): number;
  /** Small GETs with wrk from the load generator's core (a warm-up second first): req/s and latency. */
  smallGets(url: string): { rps: number; p50: number; p99: number };
  auth: string;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string>,
  options: { localAddress?: string; agent?: Agent | false; method?: string; body?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const { body, ...rest } = options;
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false, ...rest }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (met: boolean) => (met ? '**met**' : '**missed**');

export async function evidenceBench(deps: EvidenceBenchDeps): Promise<string> {
  const keyFile = join(deps.dir, 'signing.pem');
  writeFileSync(
    keyFile,
    generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    { mode: 0o600 },
  );
  const ports = { on: await deps.freePort(), off: await deps.freePort() };
  for (const which of ['on', 'off'] as const) {
    const file = join(deps.dir, `relay-evidence-${which}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        listen: { host: '127.0.0.1', port: ports[which] },
        environments: { acc: { baseUrl: `http://127.0.0.1:${deps.upstreamPort}/api`, connections: 256 } },
        limits: { rateLimit: { requests: 1e9, windowMs: 1000 } },
        evidence: which === 'on' ? { key: { file: keyFile } } : { enabled: false },
      }),
    );
    await deps.startRelay(file);
  }
  const large = (which: 'on' | 'off') => `http://127.0.0.1:${ports[which]}/api/acc/directdata/v3/risk`;

  // Large download, with and without hashing and counting, back to back in each round (in turn first),
  // each after one unmeasured download of its own.
  const mbps = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const which of order) {
      deps.download(large(which));
      mbps[which].push(deps.download(large(which)));
    }
  }
  const perRound = mbps.on.map((on, i) => 1 - on / mbps.off[i]!);
  const overhead = 1 - median(mbps.on) / median(mbps.off);

  // Small GETs (8 records), each signed with evidence on: what a statement costs per call.
  const gets = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const which of order)
      gets[which].push(deps.smallGets(`http://127.0.0.1:${ports[which]}/api/acc/directdata/v1/auditworkflow`).rps);
  }

  // 200 downloads at once, each from its own loopback address (200 people), each fetching its statement.
  const small = '/api/acc/directdata/v1/auditworkflow';
  const downloads = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) =>
      get(ports.on, small, { authorization: deps.auth }, { localAddress: `127.0.1.${i + 1}` }),
    ),
  );
  const jwks = JSON.parse((await get(ports.on, JWKS_PATH, {})).body.toString('utf8')) as JSONWebKeySet;
  const keys = createLocalJWKSet(jwks);
  const ids = new Set<string>();
  let own = 0;
  const fetchMs: number[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (const d of downloads) {
    const id = String(d.headers[STATEMENT_ID_HEADER] ?? '');
    ids.add(id);
    const fetched = await get(ports.on, `${STATEMENTS_PATH}/${id}`, { authorization: deps.auth }, { agent });
    if (fetched.status !== 200) continue;
    const { statement } = JSON.parse(fetched.body.toString('utf8')) as { statement: string };
    const { payload } = await compactVerify(statement, keys);
    const claims = readStatement.parse(JSON.parse(Buffer.from(payload).toString('utf8')));
    // Its own: the hash of the bytes this download received, and this answer's request id.
    if (
      claims.sha256 === createHash('sha256').update(d.body).digest('hex') &&
      claims.requestId === d.headers['x-request-id'] &&
      d.status === 200
    )
      own++;
  }
  // Statement fetch latency: each of the 200 statements fetched FETCH_PASSES times, one at a time, over a
  // kept-alive connection (time to the last byte, as a client sees it).
  for (let pass = 0; pass < FETCH_PASSES; pass++)
    for (const id of ids) {
      const started = performance.now();
      const fetched = await get(ports.on, `${STATEMENTS_PATH}/${id}`, { authorization: deps.auth }, { agent });
      fetchMs.push(performance.now() - started);
      if (fetched.status !== 200) throw new Error(`statement ${id} answered ${fetched.status}`);
    }
  fetchMs.sort((a, b) => a - b);
  const p = (q: number) => fetchMs[Math.min(fetchMs.length - 1, Math.floor(q * fetchMs.length))]!;

  // A write through a signing relay takes one more GET, its receipt: each write timed, then its receipt,
  // one at a time over the same kept-alive connection.
  const writeMs: number[] = [];
  const receiptMs: number[] = [];
  const task = JSON.stringify({ Name: 'Bench task' });
  for (let i = 0; i < WRITES; i++) {
    let started = performance.now();
    const posted = await get(
      ports.on,
      '/api/acc/taskdata/v1/tasks',
      { authorization: deps.auth, 'content-type': 'application/json', 'content-length': String(task.length) },
      { agent, method: 'POST', body: task },
    );
    writeMs.push(performance.now() - started);
    started = performance.now();
    const receipt = await get(ports.on, `${STATEMENTS_PATH}/${String(posted.headers[STATEMENT_ID_HEADER])}`, { authorization: deps.auth }, { agent });
    receiptMs.push(performance.now() - started);
    if (posted.status !== 200 || receipt.status !== 200) throw new Error(`write ${posted.status}, receipt ${receipt.status}`);
  }
  agent.destroy();
  const write = median(writeMs);
  const receipt = median(receiptMs);

  return [
    '#### What the relay signs: its cost (issue 25)',
    '',
    '| figure | measured | goal | |',
    '|---|---:|---|---|',
    `| large download, evidence on (SHA-256 + record count while streaming, statement signed) | ${f(median(mbps.on))} MB/s | | |`,
    `| large download, evidence off (\`evidence.enabled: false\`) | ${f(median(mbps.off))} MB/s | | |`,
    `| overhead of hashing and counting (1 - on/off, medians) | ${f(overhead * 100, 1)}% | at most ${GOAL_OVERHEAD * 100}% | ${verdict(overhead <= GOAL_OVERHEAD)} |`,
    `| small GETs (8 records), evidence on / off | ${f(median(gets.on))} / ${f(median(gets.off))} req/s (${f((1 - median(gets.on) / median(gets.off)) * 100, 1)}% fewer) | | |`,
    `| statement fetch, p50 / p99 (${fetchMs.length} fetches) | ${f(p(0.5), 2)} / ${f(p(0.99), 2)} ms | p99 under ${GOAL_FETCH_P99_MS} ms | ${verdict(p(0.99) < GOAL_FETCH_P99_MS)} |`,
    `| ${CONCURRENT} concurrent downloads: distinct statements, each verified as its own | ${ids.size} ids, ${own} own | ${CONCURRENT} | ${verdict(ids.size === CONCURRENT && own === CONCURRENT)} |`,
    `| a write and its receipt (the one more GET a signing relay costs a write), medians of ${WRITES} | write ${f(write, 2)} ms + receipt ${f(receipt, 2)} ms (${f((receipt / write) * 100)}% more per write) | | |`,
    '',
    `Per round overhead (${ROUNDS} rounds, on and off back to back, in turn first): ${perRound.map((x) => `${f(x * 100, 1)}%`).join(', ')}; on ${mbps.on.map((x) => f(x)).join(', ')} MB/s, off ${mbps.off.map((x) => f(x)).join(', ')} MB/s. Both relays pinned to core 1 like the relay above, curl on core 0; on one core the relay hashes on its event loop (\`evidence.hashingThread\` 'auto': a hashing thread only with more than one core; pinned to both cores, with the upstream and curl on core 0, the thread measured slower on this machine); ${CONCURRENT} downloads of the 8-record answer at once from 127.0.1.1 to 127.0.1.${CONCURRENT}, each statement fetched by its caller and verified with jose against the relay's JWKS (Ed25519 key from a file); fetch latency: the ${CONCURRENT} statements fetched ${FETCH_PASSES} times one at a time over one kept-alive connection, time to the last byte.`,
  ].join('\n');
}
