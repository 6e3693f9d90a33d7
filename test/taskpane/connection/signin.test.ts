/**
 * The taskpane's OpenID Connect code (oauth4webapi) against the real demo provider (oidc-provider on
 * loopback): discovery, authorization code with PKCE through the provider's login form, the code
 * exchange, silent renewal by refresh token, sign-out by revocation, and the provider's refusals.
 */
import { startDemoProvider, type DemoProvider } from '../../../src/identity/demo-provider';
import { beginSignIn, discover, SignInError, type Provider } from '../../../src/taskpane/signin/oidc';
import { createTokenKeeper, RENEW_AHEAD_MS } from '../../../src/taskpane/signin/tokens';
import { walkLogin } from './walk-login';

const REDIRECT = 'http://127.0.0.1:9/sign-in.html';

let demo: DemoProvider;
let provider: Provider;

beforeAll(async () => {
  demo = await startDemoProvider({ redirectUris: [REDIRECT] });
  provider = await discover({ issuer: demo.issuer, clientId: demo.clientId, scopes: demo.scopes }, REDIRECT, fetch);
}, 30_000);
afterAll(() => demo?.close());

const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

async function signIn(login = 'casey', password = 'compliance-demo') {
  const pending = await beginSignIn(provider);
  const url = new URL(pending.url);
  return { url, tokens: await pending.finish(await walkLogin(pending.url, REDIRECT, login, password)) };
}

test('the authorization request is code + PKCE S256 with state and nonce, and the code gives the relay an access token for its audience', async () => {
  const { url, tokens } = await signIn();
  expect(url.searchParams.get('response_type')).toBe('code');
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(url.searchParams.get('state')).toBeTruthy();
  expect(url.searchParams.get('nonce')).toBeTruthy();
  expect(url.searchParams.get('prompt')).toBeNull();
  const access = claims(tokens.accessToken);
  expect(access).toMatchObject({ sub: 'casey', aud: demo.audience, name: 'Casey Compliance', groups: ['compliance'] });
  expect(tokens.refreshToken).toBeTruthy();
  expect(tokens.expiresAt).toBeGreaterThan(Date.now() + RENEW_AHEAD_MS);
});

test('after a sign-out the next sign-in asks for the login again (prompt=login)', async () => {
  const pending = await beginSignIn(provider, { forceLogin: true });
  expect(new URL(pending.url).searchParams.get('prompt')).toBe('login');
});

test('an answer for another sign-in (state differs) is refused before any code is redeemed', async () => {
  const first = await beginSignIn(provider);
  const second = await beginSignIn(provider);
  const back = await walkLogin(second.url, REDIRECT, 'riley', 'reporting-demo');
  await expect(first.finish(back)).rejects.toThrow(SignInError);
});

test('the provider saying no (an error in the redirect) is a SignInError with its words', async () => {
  const pending = await beginSignIn(provider);
  const state = new URL(pending.url).searchParams.get('state')!;
  await expect(pending.finish(`${REDIRECT}?error=access_denied&error_description=User+said+no&state=${state}&iss=${encodeURIComponent(demo.issuer)}`)).rejects.toThrow(/access_denied: User said no/);
});

test('silent renewal: a token about to expire is renewed with the refresh token before the call; two calls share one renewal', async () => {
  const { tokens } = await signIn();
  let clock = Date.now();
  const ended: string[] = [];
  const keeper = createTokenKeeper({ provider, tokens, onEnded: (r) => ended.push(r), now: () => clock, timers: { set: () => 0, clear: () => undefined } });
  expect(await keeper.accessToken()).toBe(tokens.accessToken);
  clock = tokens.expiresAt - RENEW_AHEAD_MS + 1;
  const [a, b] = await Promise.all([keeper.accessToken(), keeper.accessToken()]);
  expect(a).toBe(b);
  expect(a).not.toBe(tokens.accessToken);
  expect(claims(a)).toMatchObject({ sub: 'casey', aud: demo.audience });
  expect(ended).toEqual([]);
});

test('while the pane is open, renewal is scheduled a minute before expiry and, when it runs, takes a new token', async () => {
  const { tokens } = await signIn('riley', 'reporting-demo');
  const clock = Date.now();
  const scheduled: { fn: () => void; ms: number }[] = [];
  const keeper = createTokenKeeper({
    provider,
    tokens,
    onEnded: () => undefined,
    now: () => clock,
    timers: { set: (fn, ms) => scheduled.push({ fn, ms }), clear: () => undefined },
  });
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0]!.ms).toBe(tokens.expiresAt - RENEW_AHEAD_MS - clock);
  scheduled[0]!.fn();
  // A call asking for a renewal meanwhile joins the one the timer started (the provider rotates refresh
  // tokens: a second renewal with the same one would fail); the next is scheduled from the new expiry.
  const renewed = await keeper.accessToken({ renew: true });
  expect(renewed).not.toBe(tokens.accessToken);
  expect(scheduled).toHaveLength(2);
});

test('sign-out revokes the refresh token at the provider: renewing with it fails, and the keeper gives no token', async () => {
  const { tokens } = await signIn();
  const keeper = createTokenKeeper({ provider, tokens, onEnded: () => undefined, timers: { set: () => 0, clear: () => undefined } });
  await keeper.signOut();
  await expect(keeper.accessToken()).rejects.toThrow('Signed out');
  const other = createTokenKeeper({ provider, tokens, onEnded: () => undefined, now: () => tokens.expiresAt, timers: { set: () => 0, clear: () => undefined } });
  await expect(other.accessToken()).rejects.toThrow(/could not be renewed.*invalid_grant/);
});

test('a renewal that fails ends the session and says to sign in again', async () => {
  const { tokens } = await signIn();
  const ended: string[] = [];
  const keeper = createTokenKeeper({
    provider,
    tokens: { ...tokens, refreshToken: 'not-a-refresh-token' },
    onEnded: (r) => ended.push(r),
    now: () => tokens.expiresAt,
    timers: { set: () => 0, clear: () => undefined },
  });
  await expect(keeper.accessToken()).rejects.toThrow(SignInError);
  expect(ended).toHaveLength(1);
  expect(ended[0]).toMatch(/Sign in again\.$/);
  await expect(keeper.accessToken()).rejects.toThrow(/Sign in again/);
});

test('a wrong issuer is said in words with where discovery was tried', async () => {
  await expect(discover({ issuer: 'http://127.0.0.1:9', clientId: 'x', scopes: '' }, REDIRECT, fetch)).rejects.toThrow(
    /http:\/\/127\.0\.0\.1:9\/\.well-known\/openid-configuration.*identity\.issuer/,
  );
});
