/**
 * Which tokens the relay takes for a service (client credentials, no person), in the shapes providers give
 * them: Entra ID's app-only tokens (with and without the optional `idtyp` claim), and a person's Entra ID
 * token, which has an `azp` too but is a person's. Signed by a provider on loopback serving discovery and a
 * JWKS (the demo provider's own client-credentials tokens are covered end to end by
 * test/workbook/file/cli-service-client.test.ts).
 */
import type { JWTPayload } from 'jose';
import { TokenChecker } from '../../src/identity/token-check';
import { startTokenProvider, type TokenProvider } from './token-provider';

const AUDIENCE = 'api://grc-sheets-relay';
const APP = '11111111-2222-3333-4444-555555555555';
let tokens: TokenProvider;
let checker: TokenChecker;

beforeAll(async () => {
  tokens = await startTokenProvider(AUDIENCE);
  checker = new TokenChecker({ issuer: tokens.issuer, audience: AUDIENCE, algorithms: ['RS256'], clockSkewSeconds: 60, jwksCooldownSeconds: 30, groupsClaim: 'groups', nameClaim: 'name' });
});
afterAll(async () => {
  checker.stop();
  await tokens.close();
});

async function person(claims: JWTPayload) {
  const checked = await checker.check(await tokens.sign(claims));
  if (!checked.ok) throw new Error(checked.message);
  return checked.person;
}

test("Entra ID app-only token with idtyp: the client id (azp) is the subject, its app roles the policy's groups", async () => {
  expect(await person({ sub: 'sp-object-id', oid: 'sp-object-id', azp: APP, idtyp: 'app', roles: ['scheduled-refresh'] })).toMatchObject({
    subject: APP,
    name: `service: ${APP}`,
    groups: ['scheduled-refresh'],
    service: APP,
  });
});

test('Entra ID app-only token without idtyp (v1: appid): sub equals oid and there is no scp', async () => {
  expect(await person({ sub: 'sp-object-id', oid: 'sp-object-id', appid: APP, roles: ['scheduled-import'] })).toMatchObject({ subject: APP, service: APP, groups: ['scheduled-import'] });
});

test('a client-credentials token whose subject is the client id (oidc-provider, Keycloak, Okta)', async () => {
  expect(await person({ sub: 'grc-sheets-scheduler', client_id: 'grc-sheets-scheduler', roles: ['scheduled-refresh'], groups: ['nightly'] })).toMatchObject({
    subject: 'grc-sheets-scheduler',
    name: 'service: grc-sheets-scheduler',
    groups: ['nightly', 'scheduled-refresh'],
  });
});

test("a person's Entra ID token (azp is the taskpane, scp present) stays a person's: roles do not count, the name is theirs", async () => {
  const p = await person({ sub: 'pairwise-sub', oid: 'user-object-id', azp: 'taskpane-app', scp: 'access_as_user', name: 'Riley Reporter', groups: ['reporting'], roles: ['scheduled-refresh'] });
  expect(p).toEqual({ subject: 'pairwise-sub', name: 'Riley Reporter', groups: ['reporting'], expiresAt: expect.any(Number) });
});
