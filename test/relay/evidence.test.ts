/**
 * The relay as witness: a real relay in front of a real sandbox on loopback signs what the service sent
 * (dataset downloads) and what was posted (writes); its caller, and only its caller, fetches the statement;
 * the signing key is read by reference and rotated without a restart.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as threads from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { request } from 'undici';
import { boundOf, catalog, encodeRequest, type BoundOperation } from '../../src/catalog';
import { createClient } from '../../src/client';
import {
  JWKS_PATH,
  STATEMENT_ID_HEADER,
  STATEMENT_TYPE,
  STATEMENTS_PATH,
  statementPayload,
  type ReadStatement,
  type WriteReceipt,
} from '../../src/contracts/evidence';
import { startRelay, type Relay } from '../../src/relay';
import type { ToThread } from '../../src/relay/answer-hasher';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { keyFingerprint } from '../../src/client/key-fingerprint';
import { checkStatement } from '../../src/client/statement-check';
import { demoClient } from '../support/sandbox';
import { captureLog, errorCode } from './helpers';

const pem = (type: 'ed25519' | 'ec') =>
  (type === 'ec'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('ed25519')
  ).privateKey
    .export({ format: 'pem', type: 'pkcs8' })
    .toString();
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const dir = mkdtempSync(join(tmpdir(), 'relay-evidence-'));
const keyFile = join(dir, 'signing.pem');
let sandbox: Sandbox;
let relay: Relay;
let log: ReturnType<typeof captureLog>;
let auth: string;

/**
 * A service answering one large dataset (about 3 MiB: an envelope, records with nested arrays, escapes,
 * several-byte characters), in chunks of uneven sizes; `gate`, when set, holds the answer after its first
 * 1 MiB until it resolves.
 */
const LARGE = Buffer.from(
  JSON.stringify({
    count: 12_000,
    items: Array.from({ length: 12_000 }, (_, i) => ({
      Id: i,
      Name: `Risk "${i}" [é,😀] \\ {x}`,
      Tags: [[i, 'a'], ['}']],
    })),
  }),
);
let gate: Promise<void> | null = null;
/** 23 MiB of small records: more than the relay may hold for its hashing thread and the sockets buffer. */
const HUGE_RECORDS = 300_000;
const HUGE = Buffer.from(`[${`{"Id":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","Name":"Risk of a bench","Open":true}`.repeat(HUGE_RECORDS).replaceAll('}{', '},{')}]`);
/** How far the service has written its answer, and whether it waits for the relay to read. */
const served = { bytes: 0, waiting: false };
let service: Server;

/** Resolves when a log line containing `text` has been written. */
function waitForLine(text: string): Promise<string> {
  return new Promise((resolve) => {
    const found = log.lines.find((l) => l.includes(text));
    if (found) return resolve(found);
    const write = log.write;
    log.write = (s: string) => {
      write(s);
      if (s.includes(text)) resolve(s);
    };
  });
}

async function jwks(): Promise<JSONWebKeySet> {
  const r = await request(relay.url + JWKS_PATH);
  expect(r.statusCode).toBe(200);
  return (await r.body.json()) as JSONWebKeySet;
}

async function statementOf(id: string, authorization = auth): Promise<{ status: number; body: string }> {
  const r = await request(`${relay.url}${STATEMENTS_PATH}/${id}`, { headers: { authorization } });
  return { status: r.statusCode, body: await r.body.text() };
}

/** Verifies a JWS with the relay's JWKS as any JOSE library would, and returns its checked claims and kid. */
async function verified(jws: string) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(await jwks()));
  expect(protectedHeader.typ).toBe(STATEMENT_TYPE);
  return { claims: statementPayload.parse(JSON.parse(Buffer.from(payload).toString('utf8'))), kid: protectedHeader.kid };
}

beforeAll(async () => {
  writeFileSync(keyFile, pem('ed25519'), { mode: 0o600 });
  sandbox = await startSandbox({ port: 0, scale: 50, seed: 5 });
  const { identifier, password } = sandbox.demoKey!;
  auth = `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`;
  service = createServer((req, res) => {
    const body = req.url === '/api/directdata/v1/incidents' ? HUGE : LARGE;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    void (async () => {
      for (let at = 0, size = 1; at < body.length; at += size, size = (size * 7 + 4093) % 99_991) {
        if (at >= 1 << 20 && gate) await gate;
        if (!res.write(body.subarray(at, at + size))) {
          served.waiting = true;
          await new Promise((r) => res.once('drain', r));
          served.waiting = false;
        }
        served.bytes = at + size;
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  log = captureLog();
  relay = await startRelay(
    {
      listen: { host: '127.0.0.1', port: 0 },
      environments: {
        acc: { baseUrl: sandbox.url },
        big: { baseUrl: `http://127.0.0.1:${(service.address() as { port: number }).port}/api` },
      },
      allowedOrigins: ['https://addin.example.com'],
      // The hashing thread whatever the machine's cores ('auto' uses it on more than one).
      evidence: { key: { file: keyFile }, hashingThread: true },
    },
    { logDestination: log },
  );
});
afterAll(async () => {
  await relay.close();
  await sandbox.close();
  await new Promise((resolve) => service.close(resolve));
});

describe('the relay signs what the service sent', () => {
  it('signs a download: its hash, length and records are those of the bytes the sandbox sent', async () => {
    const path = '/directdata/v3/risk';
    const through = await request(`${relay.url}/api/acc${path}`, { headers: { authorization: auth } });
    const bytes = Buffer.from(await through.body.arrayBuffer());
    const id = through.headers[STATEMENT_ID_HEADER] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // The same call straight to the sandbox: the bytes the service sends.
    const direct = Buffer.from(
      await (await request(`${sandbox.url}${path}`, { headers: { authorization: auth } })).body.arrayBuffer(),
    );
    expect(sha256(bytes)).toBe(sha256(direct));

    const fetched = await statementOf(id);
    expect(fetched.status).toBe(200);
    const jws = (JSON.parse(fetched.body) as { statement: string }).statement;
    const { claims, kid } = await verified(jws);
    expect(kid).toBe(decodeProtectedHeader(jws).kid);
    const read = claims as ReadStatement;
    expect(read).toMatchObject({
      kind: 'read',
      environment: { name: 'acc', host: new URL(sandbox.url).host },
      dataset: 'risk',
      path: `${new URL(sandbox.url).pathname}${path}`,
      status: 200,
      sha256: sha256(direct),
      length: direct.length,
      records: (JSON.parse(direct.toString('utf8')) as unknown[]).length,
      who: { kind: 'key', fingerprint: await keyFingerprint(sandbox.demoKey!.identifier) },
      rule: 'personal key',
      requestId: through.headers['x-request-id'],
    });
    expect(read.records).toBe(50);
    expect(Date.parse(read.time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('the client checks the statement of its download and puts it on the result', async () => {
    const result = await demoClient(sandbox, { baseUrl: `${relay.url}/api/acc` }).download('incidents');
    expect(result.evidence).toMatchObject({ ok: true, claims: { kind: 'read', dataset: 'incidents', records: result.count } });
    if (!result.evidence.ok) throw new Error(result.evidence.message);
    expect(result.evidence.claims).toMatchObject({ length: result.bytes });
    expect((await verified(result.evidence.statement)).kid).toBe(result.evidence.kid);
  });

  it('a client whose bytes were changed on the way sees that they differ from the signed ones', async () => {
    // One character of the answer changed between the relay and the client (same length, still JSON).
    const tampering = createClient({
      baseUrl: `${relay.url}/api/acc`,
      credentials: { identifier: sandbox.demoKey!.identifier, password: sandbox.demoKey!.password },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!input.includes('/directdata/')) return response;
        const text = (await response.text()).replace('"Name":"', '"Name":"X');
        return new Response(text.replace(/"Name":"X./, '"Name":"X'), { status: response.status, headers: response.headers });
      },
    });
    const result = await tampering.download('incidents');
    expect(result.evidence).toMatchObject({ ok: false, code: 'hash-mismatch', claims: { length: result.bytes } });
  });

  it('a client straight to the service has no statement, and says so', async () => {
    const result = await demoClient(sandbox).download('incidents');
    expect(result.evidence).toMatchObject({ ok: false, code: 'unsigned' });
  });

  it('gives a statement to its caller only', async () => {
    const through = await request(`${relay.url}/api/acc/directdata/v1/auditworkflow`, {
      headers: { authorization: auth, origin: 'https://addin.example.com' },
    });
    await through.body.arrayBuffer();
    const id = through.headers[STATEMENT_ID_HEADER] as string;
    // A taskpane on an allowed origin can read the id.
    expect(String(through.headers['access-control-expose-headers']).toLowerCase()).toContain(STATEMENT_ID_HEADER);
    const other = `Basic ${Buffer.from(`${sandbox.demoKey!.identifier}:another-password`).toString('base64')}`;
    const refused = await statementOf(id, other);
    expect(refused.status).toBe(403);
    expect(errorCode(refused.body)).toBe('statement-not-yours');
    const anonymous = await request(`${relay.url}${STATEMENTS_PATH}/${id}`);
    expect(anonymous.statusCode).toBe(401);
    expect(errorCode(await anonymous.body.text())).toBe('no-credentials');
    const unknown = await statementOf('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown.body)).toBe('statement-not-found');
    expect((await statementOf(id)).status).toBe(200);
  });

  it('signs a receipt of a write: method, path, body hash, status, answer hash and the write\'s reference', async () => {
    const client = demoClient(sandbox, { baseUrl: `${relay.url}/api/acc` });
    const encoded = encodeRequest(
      boundOf(catalog.operation('incident-create')) as BoundOperation,
      { Name: 'Witnessed', ReportingOrganization: 'Finance' },
      {},
    );
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    const answer = await client.send('incident-create', encoded.request);
    const receipt = await client.receipt(answer);
    if (!receipt.ok) throw new Error(receipt.message);
    const claims = (await verified(receipt.statement)).claims as WriteReceipt;
    expect(claims).toMatchObject({
      kind: 'write',
      method: 'POST',
      path: `${new URL(sandbox.url).pathname}/incidents`,
      status: answer.status,
      bodySha256: sha256(encoded.request.body === undefined ? '' : JSON.stringify(encoded.request.body)),
      answerSha256: sha256(JSON.stringify(answer.body)),
      who: { kind: 'key', fingerprint: await keyFingerprint(sandbox.demoKey!.identifier) },
      // The client's fresh reference of this write (its request header), which the service never saw.
      writeRef: answer.writeRef,
    });
    expect(answer.writeRef).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The client's own hash of the body it sent (what the audit row keeps) is the signed one; a receipt
    // of another body is refused.
    expect(answer.sentSha256).toBe(claims.bodySha256);
    expect(await client.receipt({ ...answer, sentSha256: '0'.repeat(64) })).toMatchObject({ ok: false, code: 'hash-mismatch', message: expect.stringContaining('The body sent differs') });
    // By the write's reference (what a client whose answer was lost knows): the same receipt, to its caller only.
    expect(await client.receiptOf({ sha256: answer.sentSha256!, ref: answer.writeRef! })).toMatchObject({ ok: true, statement: receipt.statement });
    const other = `Basic ${Buffer.from(`${sandbox.demoKey!.identifier}:another-password`).toString('base64')}`;
    expect(await statementOf(`ref/${answer.writeRef}`, other)).toMatchObject({ status: 404, body: expect.stringContaining('statement-not-found') });
    expect(await statementOf(`ref/${answer.writeRef}`)).toEqual({ status: 200, body: JSON.stringify({ statement: receipt.statement }) });
    expect((await statementOf('ref/not-a-reference')).status).toBe(404);
  });

  it('hashes and counts a large answer on its hashing thread, or on its event loop: the figures of the bytes the service sent', async () => {
    const through = await request(`${relay.url}/api/big/directdata/v3/risk`, { headers: { authorization: auth } });
    const bytes = Buffer.from(await through.body.arrayBuffer());
    expect(bytes.equals(LARGE)).toBe(true);
    const fetched = await statementOf(through.headers[STATEMENT_ID_HEADER] as string);
    expect(fetched.status).toBe(200);
    const { claims } = await verified((JSON.parse(fetched.body) as { statement: string }).statement);
    expect(claims).toMatchObject({ dataset: 'risk', sha256: sha256(LARGE), length: LARGE.length, records: 12_000 });
    // The same figures from a relay that hashes on its event loop (as 'auto' does on one core).
    const here = await startRelay({
      listen: { host: '127.0.0.1', port: 0 },
      environments: { big: { baseUrl: `http://127.0.0.1:${(service.address() as { port: number }).port}/api` } },
      evidence: { key: { file: keyFile }, hashingThread: false },
    }, { logDestination: captureLog() });
    try {
      const answer = await request(`${here.url}/api/big/directdata/v3/risk`, { headers: { authorization: auth } });
      expect(Buffer.from(await answer.body.arrayBuffer()).equals(LARGE)).toBe(true);
      const r = await request(`${here.url}${STATEMENTS_PATH}/${answer.headers[STATEMENT_ID_HEADER] as string}`, { headers: { authorization: auth } });
      const { payload } = await compactVerify(((await r.body.json()) as { statement: string }).statement, createLocalJWKSet((await (await request(here.url + JWKS_PATH)).body.json()) as JSONWebKeySet));
      expect(JSON.parse(Buffer.from(payload).toString('utf8'))).toMatchObject({ sha256: sha256(LARGE), length: LARGE.length, records: 12_000 });
    } finally {
      await here.close();
    }
  });

  it('holds the service back while its hashing thread is behind, then signs the whole answer', async () => {
    // The batches sent to the thread wait here, as if it were slow, until the test lets them through.
    const post = threads.Worker.prototype.postMessage;
    const waiting: (() => void)[] = [];
    const spy = jest.spyOn(threads.Worker.prototype, 'postMessage').mockImplementation(function (this: threads.Worker, ...args) {
      waiting.push(() => post.apply(this, args));
    });
    const through = await request(`${relay.url}/api/big/directdata/v1/incidents`, { headers: { authorization: auth } });
    const read = through.body.arrayBuffer();
    // Held: the relay stops reading once 8 batches wait, so the service waits for it before its end.
    while (!(served.waiting && waiting.length >= 8) && served.bytes < HUGE.length)
      await new Promise((resolve) => setImmediate(resolve));
    expect(served.bytes).toBeLessThan(HUGE.length);
    expect(waiting).toHaveLength(8);
    spy.mockRestore();
    for (const deliver of waiting) deliver();
    expect(Buffer.from(await read).equals(HUGE)).toBe(true);
    const fetched = await statementOf(through.headers[STATEMENT_ID_HEADER] as string);
    expect((await verified((JSON.parse(fetched.body) as { statement: string }).statement)).claims).toMatchObject({
      sha256: sha256(HUGE),
      length: HUGE.length,
      records: HUGE_RECORDS,
    });
  });

  it('a hashing thread that fails signs nothing: the statement fetch says why; the next answer gets a new thread', async () => {
    // The thread the relay sends the answer's batches to: the test stops it, as a crash would.
    const spy = jest.spyOn(threads.Worker.prototype, 'postMessage');
    try {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const through = await request(`${relay.url}/api/big/directdata/v3/risk`, { headers: { authorization: auth } });
      // Read as it comes: a client that reads nothing holds the relay back (TCP flow control), and on a loaded
      // machine with small socket buffers no batch would reach the thread before the gate.
      const read = through.body.arrayBuffer();
      // Before the gate, the answer's first batch has gone to the thread (a batch of bytes: not a message
      // another answer could still send, such as an abandoned answer's goodbye).
      const batch = () => spy.mock.calls.findIndex(([m]) => (m as ToThread).bytes !== null && !(m as ToThread).end);
      while (batch() < 0) await new Promise((resolve) => setImmediate(resolve));
      const hashing = spy.mock.contexts[batch()] as threads.Worker;
      const failedLine = waitForLine('the hashing thread failed');
      await hashing.terminate();
      await failedLine;
      open();
      expect(Buffer.from(await read).equals(LARGE)).toBe(true);
      const fetched = await statementOf(through.headers[STATEMENT_ID_HEADER] as string);
      expect(fetched.status).toBe(500);
      expect(errorCode(fetched.body)).toBe('statement-not-signed');
      // terminate() gives exit code 1, but 0 when this test runs alone (seen on node 20): the code is not the point.
      expect(fetched.body).toMatch(/hashing thread failed while this answer passed \(it exited with code \d+\)/);
      // The client's check of the answer says so too.
      const check = await checkStatement(
        { baseUrl: `${relay.url}/api/big`, authorization: auth, fetch },
        through.headers[STATEMENT_ID_HEADER] as string,
        { kind: 'write' },
      );
      expect(check).toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/^The relay did not give the statement \(500\): No statement: the relay's hashing thread failed/) });
    } finally {
      gate = null;
      spy.mockRestore();
    }
    const again = await request(`${relay.url}/api/big/directdata/v3/risk`, { headers: { authorization: auth } });
    await again.body.arrayBuffer();
    const fetched = await statementOf(again.headers[STATEMENT_ID_HEADER] as string);
    expect(fetched.status).toBe(200);
    expect((await verified((JSON.parse(fetched.body) as { statement: string }).statement)).claims).toMatchObject({
      sha256: sha256(LARGE),
      records: 12_000,
    });
  });

  it('rotates its key without a restart: the new kid signs, the old one stays listed', async () => {
    const before = (await jwks()).keys.map((k) => k.kid);
    expect(before).toHaveLength(1);
    // A rotation as an operator does it: the new key written beside, then renamed over the old one.
    const next = join(dir, 'signing.pem.new');
    writeFileSync(next, pem('ec'), { mode: 0o600 });
    const reread = waitForLine('evidence signing key re-read');
    renameSync(next, keyFile);
    expect(JSON.parse(await reread)).toMatchObject({ previousKid: before[0], reason: 'signing key file changed' });
    const after = await jwks();
    expect(after.keys.map((k) => k.kid)).toEqual([expect.any(String), before[0]]);
    expect(after.keys[0]).toMatchObject({ alg: 'ES256', crv: 'P-256', use: 'sig' });
    const result = await demoClient(sandbox, { baseUrl: `${relay.url}/api/acc` }).download('auditworkflow');
    expect(result.evidence).toMatchObject({ ok: true, kid: after.keys[0]!.kid });
  });

  it('serves its keys with no private part', async () => {
    for (const k of (await jwks()).keys) expect(Object.keys(k).sort()).not.toContain('d');
  });
});

describe('the signing key is read by reference', () => {
  const start = (key: object, processEnv: NodeJS.ProcessEnv = {}) =>
    startRelay(
      { listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url } }, evidence: { key } },
      { logDestination: { write: () => undefined }, processEnv },
    );

  it('refuses a key file others can read, saying how to fix it', async () => {
    const loose = join(dir, 'loose.pem');
    writeFileSync(loose, pem('ed25519'));
    chmodSync(loose, 0o644);
    await expect(start({ file: loose })).rejects.toThrow(/evidence\.key: file .*loose\.pem can be read by group or others \(mode 644\).*chmod 600/s);
  });

  it('refuses what is not an Ed25519 or P-256 private key, without quoting it', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await expect(start({ env: 'SIGNING_KEY' }, { SIGNING_KEY: rsa })).rejects.toThrow(/must be an Ed25519 or P-256/);
    await expect(start({ env: 'SIGNING_KEY' }, { SIGNING_KEY: 'not a key' })).rejects.toThrow(
      /environment variable SIGNING_KEY is not a PEM private key/,
    );
    await expect(start({ env: 'SIGNING_KEY' }, {})).rejects.toThrow(/SIGNING_KEY is not set/);
  });

  it("lists earlier keys' public parts named in previousKeys, PEM or JWK", async () => {
    const pemFile = join(dir, 'old-1.pub.pem');
    const jwkFile = join(dir, 'old-2.jwk.json');
    const old1 = generateKeyPairSync('ed25519').publicKey;
    const old2 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    writeFileSync(pemFile, old1.export({ format: 'pem', type: 'spki' }));
    writeFileSync(jwkFile, JSON.stringify(old2.export({ format: 'jwk' })));
    const other = await startRelay(
      {
        listen: { host: '127.0.0.1', port: 0 },
        environments: { acc: { baseUrl: sandbox.url } },
        evidence: { key: { file: keyFile }, previousKeys: [pemFile, jwkFile] },
      },
      { logDestination: { write: () => undefined } },
    );
    try {
      const keys = ((await (await request(other.url + JWKS_PATH)).body.json()) as JSONWebKeySet).keys;
      // The current key first (keyFile's, whichever it holds now), then the previous ones in order.
      expect(keys.slice(1).map((k) => [k.kty, k.alg])).toEqual([
        ['OKP', 'EdDSA'],
        ['EC', 'ES256'],
      ]);
      expect(keys[1]).toMatchObject({ x: old1.export({ format: 'jwk' }).x });
      expect(keys[2]).toMatchObject({ x: old2.export({ format: 'jwk' }).x });
    } finally {
      await other.close();
    }
  });

  it('reads a key from an environment variable and lists it', async () => {
    const other = await start({ env: 'SIGNING_KEY' }, { SIGNING_KEY: pem('ec') });
    try {
      const keys = (await (await request(other.url + JWKS_PATH)).body.json()) as JSONWebKeySet;
      expect(keys.keys).toEqual([expect.objectContaining({ kty: 'EC', alg: 'ES256', kid: expect.any(String) })]);
    } finally {
      await other.close();
    }
  });
});
