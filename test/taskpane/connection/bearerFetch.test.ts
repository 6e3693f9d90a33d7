/**
 * The signed-in fetch against the real relay (sign-in, policy, held key) and the real demo provider:
 * the access token goes out as Bearer, a policy refusal comes back naming the rule and whom to ask, a
 * token the relay takes for expired is renewed and the call sent once more, and after sign-out the
 * relay refuses the old token.
 */
import { startDemoProvider, type DemoProvider } from '../../../src/identity/demo-provider';
import { fetchMe } from '../../../src/taskpane/connection/relayIdentity';
import { bearerFetch } from '../../../src/client/bearer-fetch';
import { beginSignIn, discover, type Provider } from '../../../src/taskpane/signin/oidc';
import { createTokenKeeper } from '../../../src/taskpane/signin/tokens';
import { CONTACT, startSignedInRelay, type SignedInRelay } from '../../identity/harness';
import { walkLogin } from './walk-login';

const REDIRECT = 'http://127.0.0.1:9/sign-in.html';
const noTimers = { set: () => 0, clear: () => undefined };

let demo: DemoProvider;
let provider: Provider;
let relay: SignedInRelay;
/** The relay's clock, ahead of ours when a test says so (clocks that differ). */
let relayAheadMs = 0;

beforeAll(async () => {
  demo = await startDemoProvider({ redirectUris: [REDIRECT] });
  provider = await discover({ issuer: demo.issuer, clientId: demo.clientId, scopes: demo.scopes }, REDIRECT, fetch);
  relay = await startSignedInRelay(demo, {}, { now: () => Date.now() + relayAheadMs });
}, 30_000);
afterAll(async () => {
  await relay?.close();
  await demo?.close();
});

async function signedIn(login: string, password: string, fetchFn: typeof fetch = fetch) {
  const pending = await beginSignIn(provider);
  const tokens = await pending.finish(await walkLogin(pending.url, REDIRECT, login, password));
  const keeper = createTokenKeeper({ provider, tokens, onEnded: () => undefined, timers: noTimers });
  return { keeper, fetch: bearerFetch(fetchFn, keeper), tokens };
}

test('the relay takes the person from the token: /api/me names them and what the policy gives', async () => {
  const riley = await signedIn('riley', 'reporting-demo');
  const me = await fetchMe(relay.relay.url, riley.fetch);
  expect(me).toMatchObject({ subject: 'riley', name: 'Riley Reporter', groups: ['reporting'] });
  expect(me.may.environments).toEqual(['acc', 'prd']);
  expect(me.keys.acc).toMatch(/^key:[0-9a-f]{12}$/);
});

test('a policy refusal reaches the client as a message naming the rule and whom to ask', async () => {
  const riley = await signedIn('riley', 'reporting-demo');
  const response = await riley.fetch(`${relay.relay.url}/api/acc/directdata/v1/incidents`, { headers: { accept: 'application/json' } });
  expect(response.status).toBe(403);
  expect(response.headers.get('x-grc-relay-error')).toBe('policy-refused');
  const body = (await response.json()) as { error: { code: string; message: string; rule: string; ask: string } };
  expect(body.error.code).toBe('policy-refused');
  expect(body.error.message).toContain('Refused by rule "reporting-readers"');
  expect(body.error.message).toContain(`To be given access, ask ${CONTACT}.`);
});

test('a token the relay takes for expired (its clock is ahead) is renewed and the call sent once more', async () => {
  let refusedOnce = false;
  // The relay's clock is put right once it has refused: the renewed token then passes.
  const watching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.headers.get('x-grc-relay-error') === 'token-expired') {
      refusedOnce = true;
      relayAheadMs = 0;
    }
    return response;
  };
  const casey = await signedIn('casey', 'compliance-demo', watching);
  relayAheadMs = 3 * 3600_000;
  const me = await fetchMe(relay.relay.url, casey.fetch);
  expect(refusedOnce).toBe(true);
  expect(me.subject).toBe('casey');
  expect(await casey.keeper.accessToken()).not.toBe(casey.tokens.accessToken);
});

test('after the relay is told of a sign-out it refuses that access token', async () => {
  const casey = await signedIn('casey', 'compliance-demo');
  expect((await casey.fetch(`${relay.relay.url}/api/auth/sign-out`, { method: 'POST' })).status).toBe(204);
  const after = await fetch(`${relay.relay.url}/api/me`, { headers: { authorization: `Bearer ${casey.tokens.accessToken}` } });
  expect(after.status).toBe(401);
  expect(after.headers.get('x-grc-relay-error')).toBe('signed-out');
});
