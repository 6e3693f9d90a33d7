/**
 * The demo provider is a real OpenID provider: discovery, PKCE code flow through its login form, the
 * `groups` claim in ID and access tokens, JWT access tokens for the relay's audience, refresh, key rotation.
 */
import { startDemoProvider, type DemoProvider } from '../../src/identity/demo-provider';
import { claimsOf, refresh, REDIRECT_URI, signIn } from './sign-in';

let provider: DemoProvider;
beforeAll(async () => {
  provider = await startDemoProvider({
    redirectUris: [REDIRECT_URI],
    audiences: ['api://grc-sheets-relay', 'api://another-api'],
  });
});
afterAll(() => provider.close());

test('discovery names the loopback issuer, PKCE S256 and its JWKS', async () => {
  expect(provider.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const meta = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<
    string,
    unknown
  >;
  expect(meta.issuer).toBe(provider.issuer);
  expect(meta.code_challenge_methods_supported).toEqual(['S256']);
  const jwks = (await (await fetch(String(meta.jwks_uri))).json()) as { keys: { kty: string; d?: string }[] };
  expect(jwks.keys).toHaveLength(1);
  expect(jwks.keys[0]?.d).toBeUndefined();
});

test('a demo user signs in and gets a JWT access token for the relay with name and groups', async () => {
  const user = provider.users[0]!;
  const tokens = await signIn(provider, user.subject, user.password);
  const access = claimsOf(tokens.access_token);
  expect(access).toMatchObject({
    iss: provider.issuer,
    aud: provider.audience,
    sub: user.subject,
    name: user.name,
    groups: user.groups,
  });
  expect(typeof access.exp).toBe('number');
  expect(claimsOf(tokens.id_token)).toMatchObject({
    sub: user.subject,
    name: user.name,
    groups: user.groups,
    aud: provider.clientId,
  });
  expect(tokens.refresh_token).toBeTruthy();
  const renewed = await refresh(provider, tokens.refresh_token!);
  expect(claimsOf(renewed.access_token)).toMatchObject({ sub: user.subject, aud: provider.audience });
});

test('a wrong password is refused on the login form', async () => {
  await expect(signIn(provider, 'riley', 'not-the-password')).rejects.toThrow(
    /401.*Wrong user name or password/s,
  );
});

test('a token for another audience is issued when that resource is asked for', async () => {
  const user = provider.users[1]!;
  const tokens = await signIn(provider, user.subject, user.password, { resource: 'api://another-api' });
  expect(claimsOf(tokens.access_token).aud).toBe('api://another-api');
});

test('rotation signs with a new kid and keeps the old one in the JWKS', async () => {
  const kid = await provider.rotateSigningKey();
  const tokens = await signIn(provider, 'casey', 'compliance-demo');
  const header = JSON.parse(Buffer.from(tokens.access_token.split('.')[0]!, 'base64url').toString()) as {
    kid: string;
  };
  expect(header.kid).toBe(kid);
  const jwks = (await (await fetch(`${provider.issuer}/jwks`)).json()) as { keys: { kid: string }[] };
  expect(jwks.keys.map((k) => k.kid)).toContain(kid);
  expect(jwks.keys).toHaveLength(2);
});

test('a redirect URI added after start signs in, and its origin may call the token endpoint (CORS)', async () => {
  const page = 'http://127.0.0.1:5555/sign-in.html';
  await expect(signIn(provider, 'riley', 'reporting-demo', { redirectUri: page })).rejects.toThrow();
  await provider.addRedirectUri(page);
  const tokens = await signIn(provider, 'riley', 'reporting-demo', { redirectUri: page });
  expect(claimsOf(tokens.access_token).sub).toBe('riley');
  // oidc-provider answers every preflight; the client-based check is on the call itself.
  const call = (origin: string) =>
    fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: provider.clientId,
      }).toString(),
    });
  const allowed = await call('http://127.0.0.1:5555');
  expect(allowed.status).toBe(200);
  expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5555');
  const stranger = await call('http://127.0.0.1:6666');
  expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
});

test('a provider started with no redirect URI takes one added later (a relay on port 0 starts after it)', async () => {
  const late = await startDemoProvider({ redirectUris: [] });
  try {
    const page = 'http://127.0.0.1:5556/sign-in.html';
    await late.addRedirectUri(page);
    const tokens = await signIn(late, 'casey', 'compliance-demo', { redirectUri: page });
    expect(claimsOf(tokens.access_token).sub).toBe('casey');
  } finally {
    await late.close();
  }
});
