/**
 * Statements of signed-in callers: the person or service client the relay let through and the policy's
 * rules that allowed it (by name) are signed; a statement is fetched by the same person (with any of their tokens),
 * never by another. Tokens come from a provider on loopback serving discovery and a JWKS.
 */
import { createServer, type Server } from 'node:http';
import { compactVerify, createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import { JWKS_PATH, STATEMENT_ID_HEADER, STATEMENTS_PATH, statementPayload } from '../../src/contracts/evidence';
import type { DemoProvider } from '../../src/identity/demo-provider';
import { startSignedInRelay, type SignedInRelay } from '../identity/harness';
import { errorCode } from './helpers';

const AUDIENCE = 'api://grc-sheets-relay';
let server: Server;
let sign: (claims: JWTPayload) => Promise<string>;
let signedIn: SignedInRelay;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys` }));
    else res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  sign = (claims) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
  // What the harness reads of a provider: where it is and what the relay's tokens are for.
  const provider = { issuer, audience: AUDIENCE, clientId: 'taskpane', scopes: 'openid' } as unknown as DemoProvider;
  signedIn = await startSignedInRelay(provider);
});
afterAll(async () => {
  await signedIn.close();
  await new Promise((resolve) => server.close(resolve));
});

const riley = () => sign({ sub: 'riley', name: 'Riley Reporter', groups: ['reporting'], scp: 'access_as_user' });

async function statementOf(path: string, token: string) {
  const answer = await signedIn.call(path, token);
  expect(answer.status).toBe(200);
  return answer.headers.get(STATEMENT_ID_HEADER)!;
}

async function claimsOf(id: string, token: string) {
  const fetched = await signedIn.call(`${STATEMENTS_PATH}/${id}`, token);
  expect(fetched.status).toBe(200);
  const jwks = (await (await fetch(signedIn.relay.url + JWKS_PATH)).json()) as JSONWebKeySet;
  const { payload } = await compactVerify((fetched.json() as { statement: string }).statement, createLocalJWKSet(jwks));
  return statementPayload.parse(JSON.parse(Buffer.from(payload).toString('utf8')));
}

it('signs who the person is and which rule of the policy let them read', async () => {
  const id = await statementOf('/api/acc/directdata/v3/risk', await riley());
  // Another of Riley's tokens: the same person.
  expect(await claimsOf(id, await riley())).toMatchObject({
    kind: 'read',
    dataset: 'risk',
    records: 1,
    who: { kind: 'person', subject: 'riley', name: 'Riley Reporter' },
    rule: 'policy: rule "reporting-readers"',
  });
  const casey = await sign({ sub: 'casey', name: 'Casey', groups: ['reporting'], scp: 'access_as_user' });
  const refused = await signedIn.call(`${STATEMENTS_PATH}/${id}`, casey);
  expect(refused.status).toBe(403);
  expect(errorCode(refused.body)).toBe('statement-not-yours');
  const anonymous = await signedIn.call(`${STATEMENTS_PATH}/${id}`, null);
  expect(anonymous.status).toBe(401);
  expect(errorCode(anonymous.body)).toBe('sign-in-required');
});

it("names a service client as the client, not a person", async () => {
  const scheduler = await sign({ sub: 'grc-sheets-scheduler', client_id: 'grc-sheets-scheduler', roles: ['compliance'] });
  const id = await statementOf('/api/acc/directdata/v3/risk', scheduler);
  expect(await claimsOf(id, scheduler)).toMatchObject({
    who: { kind: 'client', clientId: 'grc-sheets-scheduler' },
    rule: 'policy: rule "compliance-writers"',
  });
});
