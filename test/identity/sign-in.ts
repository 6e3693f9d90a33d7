/**
 * Signs a demo user in through the demo provider's real endpoints, as a browser would: discovery, the
 * authorization request with PKCE, the provider's login form, the redirects, the code exchange. No
 * shortcut into the provider: the tokens are the ones a taskpane gets.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DemoProvider } from '../../src/identity/demo-provider';

export const REDIRECT_URI = 'http://127.0.0.1/signed-in';

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

async function discover(issuer: string) {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  return (await response.json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
    end_session_endpoint: string;
  };
}

export async function signIn(
  provider: DemoProvider,
  login: string,
  password: string,
  options: { resource?: string; redirectUri?: string } = {},
): Promise<Tokens> {
  const redirectUri = options.redirectUri ?? REDIRECT_URI;
  const meta = await discover(provider.issuer);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const authorize = new URL(meta.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: provider.scopes,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...(options.resource ? { resource: options.resource } : {}),
  }).toString();

  const jar = new CookieJar();
  let url = authorize.toString();
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    jar.take(response);
    form = undefined;
    const location = response.headers.get('location');
    if (location?.startsWith(redirectUri)) {
      const back = new URL(location);
      if (back.searchParams.get('state') !== state) throw new Error(`state mismatch: ${location}`);
      const code = back.searchParams.get('code');
      if (!code) throw new Error(`no code: ${location}`);
      const token = await fetch(meta.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: provider.clientId,
          code_verifier: verifier,
        }).toString(),
      });
      if (!token.ok) throw new Error(`token endpoint: ${token.status} ${await token.text()}`);
      return (await token.json()) as Tokens;
    }
    if (location) {
      url = new URL(location, url).toString();
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) {
      const alert = /role="alert">([^<]*)</.exec(html)?.[1];
      throw new Error(`sign-in stopped at ${url}: ${response.status} ${alert ?? html.slice(0, 300)}`);
    }
    url = new URL(action.replace(/&amp;/g, '&'), url).toString();
    form = new URLSearchParams({ login, password });
  }
  throw new Error('sign-in went round in circles');
}

/** Renews with the refresh token, as the taskpane's silent renewal does. */
export async function refresh(provider: DemoProvider, refreshToken: string): Promise<Tokens> {
  const meta = await discover(provider.issuer);
  const response = await fetch(meta.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: provider.clientId,
    }).toString(),
  });
  if (!response.ok) throw new Error(`refresh: ${response.status} ${await response.text()}`);
  return (await response.json()) as Tokens;
}

/** The claims of a JWT, unverified (tests look at what the provider put in). */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * Other spellings of the same token, which a lenient base64url decoder reads as the same bytes: the last
 * character of the signature changed in its unused bits (the probe's g -> h), and `==` appended.
 */
export function respelt(token: string): { lastCharacter: string; padded: string } {
  const signature = token.slice(token.lastIndexOf('.') + 1);
  const bytes = Buffer.from(signature, 'base64url');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const twin = [...alphabet].find(
    (c) => c !== signature.at(-1) && Buffer.from(signature.slice(0, -1) + c, 'base64url').equals(bytes),
  );
  if (!twin) throw new Error('this signature has no unused bits to re-spell');
  return { lastCharacter: token.slice(0, -1) + twin, padded: `${token}==` };
}
