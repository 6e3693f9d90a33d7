/**
 * Two relays behind one load balancer share their statements through Redis (their `limits.rateLimit.store`)
 * and one signing key: a statement made on one is fetched from the other, by its caller only.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { request } from 'undici';
import { JWKS_PATH, STATEMENT_ID_HEADER, STATEMENTS_PATH, readStatement } from '../../src/contracts/evidence';
import { startRelay, type Relay } from '../../src/relay';
import { AUTH, baseConfig, captureLog, errorCode, startFakeUpstream, type FakeUpstream } from './helpers';
import { startRedis } from './redis';

let upstream: FakeUpstream;
let redis: Awaited<ReturnType<typeof startRedis>>;
const relays: Relay[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  redis = await startRedis();
  const keyFile = join(mkdtempSync(join(tmpdir(), 'relay-evidence-shared-')), 'signing.pem');
  writeFileSync(
    keyFile,
    generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    { mode: 0o600 },
  );
  for (let i = 0; i < 2; i++)
    relays.push(
      await startRelay(
        baseConfig(upstream, { limits: { rateLimit: { store: redis.url } }, evidence: { key: { file: keyFile } } }),
        { logDestination: captureLog() },
      ),
    );
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.close(100)));
  redis.process.kill('SIGKILL');
  await upstream.close();
});

it('a statement made on one relay is fetched from the other, by its caller only', async () => {
  const [a, b] = relays as [Relay, Relay];
  const answer = await request(`${a.url}/api/acc/directdata/v3/risk`, { headers: { authorization: AUTH } });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  const id = answer.headers[STATEMENT_ID_HEADER] as string;

  const fetched = await request(`${b.url}${STATEMENTS_PATH}/${id}`, { headers: { authorization: AUTH } });
  expect(fetched.statusCode).toBe(200);
  const { statement } = (await fetched.body.json()) as { statement: string };
  const jwks = (await (await request(b.url + JWKS_PATH)).body.json()) as JSONWebKeySet;
  const { payload } = await compactVerify(statement, createLocalJWKSet(jwks));
  expect(readStatement.parse(JSON.parse(Buffer.from(payload).toString('utf8')))).toMatchObject({
    dataset: 'risk',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    length: bytes.length,
    records: 1,
    requestId: answer.headers['x-request-id'],
  });

  const other = `Basic ${Buffer.from('someone-else:password').toString('base64')}`;
  const refused = await request(`${b.url}${STATEMENTS_PATH}/${id}`, { headers: { authorization: other } });
  expect(refused.statusCode).toBe(403);
  expect(errorCode(await refused.body.text())).toBe('statement-not-yours');
});
