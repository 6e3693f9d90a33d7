/**
 * Statements of signed-in callers: the person or service client the relay let through and the policy's
 * rules that allowed it (by name) are signed; a statement is fetched by the same person (with any of their tokens),
 * never by another. Tokens come from a provider on loopback serving discovery and a JWKS.
 */
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { JWKS_PATH, STATEMENT_ID_HEADER, STATEMENTS_PATH, statementPayload } from '../../src/contracts/evidence';
import type { DemoProvider } from '../../src/identity/demo-provider';
import { startSignedInRelay, type SignedInRelay } from '../identity/harness';
import { startTokenProvider, type TokenProvider } from '../identity/token-provider';
import { errorCode } from './helpers';

const AUDIENCE = 'api://grc-sheets-relay';
let tokens: TokenProvider;
let signedIn: SignedInRelay;
const sign: TokenProvider['sign'] = (claims) => tokens.sign(claims);

beforeAll(async () => {
  tokens = await startTokenProvider(AUDIENCE);
  // What the harness reads of a provider: where it is and what the relay's tokens are for.
  const provider = { issuer: tokens.issuer, audience: AUDIENCE, clientId: 'taskpane', scopes: 'openid' } as unknown as DemoProvider;
  signedIn = await startSignedInRelay(provider);
});
afterAll(async () => {
  await signedIn.close();
  await tokens.close();
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
