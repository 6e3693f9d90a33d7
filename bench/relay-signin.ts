/**
 * Sign-in at the relay under load: 200 signed-in people (real demo provider, real access tokens) each
 * refresh one dataset at the same moment through one relay, against the same 200 with typed keys
 * (personal-key mode) and against the upstream reached directly. Each person calls from their own loopback
 * address (127.0.1.N) over their own keep-alive connection, as 200 desks would. The relay runs as
 * `grc-sheets relay` pinned to core 1; the upstream, the provider and this load generator share core 0.
 *
 * Reported per mode: p50 and p99 of the 200 calls' latencies over the rounds; the signed-in mode's first
 * round (every token checked for the first time, the provider's keys fetched) apart from the rounds after
 * (each token's check remembered); and how often the relay fetched the provider's keys (from its log).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoProvider } from '../src/identity/demo-provider';
import type { DemoUser } from '../src/identity/demo-users';
import { signIn } from '../test/identity/sign-in';

const PEOPLE = 200;
const ROUNDS = 10;
const ROOT = join(__dirname, '..');
const RELAY_NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=300'];
const REDIRECT_URI = 'http://127.0.0.1/bench-signed-in';
const PATH = '/directdata/v3/risk';

/** A small dataset answer (8 records), as fast as node:http gives it. */
const UPSTREAM_JS = `
const record = { Id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', Identifier: 'R-000001', Name: 'Risk of a bench', Status: 'Open' };
const body = Buffer.from(JSON.stringify(Array.from({ length: 8 }, () => record)));
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
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

function startPinned(
  core: string,
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; line: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', core, process.execPath, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = '';
    let done = false;
    const onData = (d: Buffer) => {
      seen += d.toString();
      const m = ready.exec(seen);
      if (m && !done) {
        done = true;
        resolve({ child, line: m[0], output: () => seen });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once(
      'exit',
      (code) => done || reject(new Error(`${args.join(' ')} exited (${code}) before it was ready: ${seen}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

interface Person {
  agent: Agent;
  authorization: string;
}

/** One GET; resolves to its latency in ms once the whole answer is read. */
function get(port: number, path: string, person: Person): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent: person.agent,
        headers: { authorization: person.authorization },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${path}: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Every person calls at once; the latencies of the round. */
const round = (port: number, path: string, people: readonly Person[]) =>
  Promise.all(people.map((p) => get(port, path, p)));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const fmt = (n: number) => n.toFixed(1);

export default async function (): Promise<string> {
  const loadAtStart = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const dir = mkdtempSync(join(tmpdir(), 'grc-signin-bench-'));
  const children: ChildProcess[] = [];
  const users: DemoUser[] = Array.from({ length: PEOPLE }, (_, i) => ({
    subject: `person-${String(i + 1).padStart(3, '0')}`,
    name: `Bench Person ${i + 1}`,
    password: `bench-${i + 1}`,
    groups: [i % 2 ? 'reporting' : 'compliance'],
  }));
  const provider = await startDemoProvider({
    redirectUris: [REDIRECT_URI],
    users,
    accessTokenTtlSeconds: 3600,
  });
  try {
    const up = await startPinned('0', ['-e', UPSTREAM_JS], /^\d+$/m);
    children.push(up.child);
    const upstreamPort = Number(up.line);
    const keyFile = join(dir, 'acc.key');
    writeFileSync(keyFile, 'bench-held-identifier:bench-held-password\n', { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    writeFileSync(
      join(dir, 'policy.json'),
      JSON.stringify({
        contact: 'bench',
        rules: [
          {
            name: 'all',
            groups: ['reporting', 'compliance'],
            environments: ['acc'],
            datasets: ['area:Risks'],
          },
        ],
      }),
    );
    const relayPort = await freePort();
    writeFileSync(
      join(dir, 'relay.json'),
      JSON.stringify({
        listen: { host: '127.0.0.1', port: relayPort },
        environments: { acc: { baseUrl: `http://127.0.0.1:${upstreamPort}/api`, key: { file: keyFile } } },
        identity: { issuer: provider.issuer, audience: provider.audience, clientId: provider.clientId },
        policy: join(dir, 'policy.json'),
        limits: {
          rateLimit: { requests: 1e9, windowMs: 1000 },
          rateLimitPerPerson: { requests: 1e9, windowMs: 1000 },
        },
      }),
    );
    const relay = await startPinned(
      '1',
      [...RELAY_NODE_FLAGS, 'bin/grc-sheets.js', 'relay', '--config', join(dir, 'relay.json')],
      /relay listening/,
    );
    children.push(relay.child);

    const signInStarted = performance.now();
    const tokens: string[] = [];
    for (const u of users)
      tokens.push(
        (await signIn(provider, u.subject, u.password, { redirectUri: REDIRECT_URI })).access_token,
      );
    const signInMs = performance.now() - signInStarted;

    // Each person from their own address, one keep-alive connection each, kept across rounds.
    const person = (i: number, authorization: string): Person => ({
      agent: new Agent({
        keepAlive: true,
        maxSockets: 1,
        localAddress: `127.0.1.${i + 1}`,
      } as ConstructorParameters<typeof Agent>[0]),
      authorization,
    });
    const typed = users.map((u, i) =>
      person(i, `Basic ${Buffer.from(`typed-${u.subject}:pw`).toString('base64')}`),
    );
    const signedIn = users.map((_, i) => person(i, `Bearer ${tokens[i]}`));
    const direct = users.map((_, i) => person(i, 'Basic eDp5'));

    const relayPath = `/api/acc${PATH}`;
    const upstreamPath = `/api${PATH}`;
    // Connections opened and the code paths warmed, for typed keys and the upstream; not counted.
    await round(upstreamPort, upstreamPath, direct);
    await round(relayPort, relayPath, typed);
    // The first signed-in round: every token checked for the first time (new connections too, unlike the
    // typed keys' counted rounds).
    const coldMs = await round(relayPort, relayPath, signedIn);
    // The modes take turns round by round, so the shared machine's load falls on each alike.
    const directMs: number[] = [];
    const typedMs: number[] = [];
    const warmMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      directMs.push(...(await round(upstreamPort, upstreamPath, direct)));
      typedMs.push(...(await round(relayPort, relayPath, typed)));
      warmMs.push(...(await round(relayPort, relayPath, signedIn)));
    }
    const keyFetches = (relay.output().match(/sign-in provider keys fetched/g) ?? []).length;
    const loadAtEnd = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    for (const p of [...typed, ...signedIn, ...direct]) p.agent.destroy();

    const base = { p50: percentile(directMs, 50), p99: percentile(directMs, 99) };
    const typedP = { p50: percentile(typedMs, 50), p99: percentile(typedMs, 99) };
    const row = (label: string, values: number[], rounds: string) => {
      const p50 = percentile(values, 50);
      const p99 = percentile(values, 99);
      return `| ${label} | ${rounds} | ${fmt(p50)} | ${fmt(p99)} | +${fmt(p50 - base.p50)} / +${fmt(p99 - base.p99)} | ${label.startsWith('signed') ? `${p50 - typedP.p50 >= 0 ? '+' : ''}${fmt(p50 - typedP.p50)} / ${p99 - typedP.p99 >= 0 ? '+' : ''}${fmt(p99 - typedP.p99)}` : ''} |`;
    };
    return [
      '## Relay: 200 signed-in people refreshing at once',
      '',
      `${PEOPLE} people, each from their own loopback address over one keep-alive connection, each GET one small dataset (8 records) at the same moment through one relay (\`grc-sheets relay\`, core 1; upstream, demo provider and load generator on core 0). Latency of each call in ms, p50/p99 over the rounds.`,
      '',
      '| Mode | Calls | p50 | p99 | Added vs direct (p50 / p99) | Signed-in minus personal key (p50 / p99) |',
      '| --- | --- | ---: | ---: | --- | --- |',
      row('direct to the upstream', directMs, `${ROUNDS} × ${PEOPLE}`).replace(
        '| +0.0 / +0.0 |',
        '| baseline |',
      ),
      row('personal key (Basic pass-through)', typedMs, `${ROUNDS} × ${PEOPLE}`),
      row('signed in, first call of each token', coldMs, `1 × ${PEOPLE}`),
      row('signed in, checks remembered', warmMs, `${ROUNDS} × ${PEOPLE}`),
      '',
      `The relay fetched the provider's keys (JWKS) ${keyFetches} time${keyFetches === 1 ? '' : 's'} for the ${PEOPLE} tokens; signing the ${PEOPLE} people in through the provider's login form took ${(signInMs / 1000).toFixed(1)} s (not in the figures). The first signed-in round also opens its connections (the personal-key and direct rounds that opened theirs are not counted).`,
      '',
      `Load average at start ${loadAtStart}, at end ${loadAtEnd}: the machine is shared, figures from a loaded machine are noisier and higher than on a quiet one.`,
    ].join('\n');
  } finally {
    await Promise.all(children.map(stop));
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
