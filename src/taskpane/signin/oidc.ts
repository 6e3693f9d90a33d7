import * as oauth from 'oauth4webapi';
import type { SignInConfig } from '../connection/access';
import { SignInError } from './signInError';

export { SignInError };

/**
 * OpenID Connect for the taskpane, with oauth4webapi: authorization code with PKCE (S256), a public
 * client (no secret: a browser cannot keep one), the provider found by discovery from the issuer the
 * relay announces. Host-free: the window the provider's login page opens in is someone else's business
 * (signin/windows.ts); this file only builds the request and checks the answer.
 */
export interface Provider {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  config: SignInConfig;
  redirectUri: string;
  options: { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: boolean };
}

/** Tokens kept in memory only (never storage, never the workbook). */
export interface TokenSet {
  accessToken: string;
  /** Absent when the provider gives none: then the session ends when the access token does. */
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt: number;
}


/** Plain http only for a provider on this machine (the demo provider, tests); anything else must be https. */
function loopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

export async function discover(config: SignInConfig, redirectUri: string, fetchFn: typeof fetch): Promise<Provider> {
  const issuer = new URL(config.issuer);
  const options = { [oauth.customFetch]: fetchFn, [oauth.allowInsecureRequests]: loopback(config.issuer) };
  let as: oauth.AuthorizationServer;
  try {
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oidc' }));
  } catch (e) {
    throw new SignInError(
      `Could not read the sign-in provider's configuration at ${issuer.href.replace(/\/$/, '')}/.well-known/openid-configuration ` +
        `(${e instanceof Error ? e.message : String(e)}). Check that the relay's identity.issuer is right and that this computer can reach it.`,
    );
  }
  return { as, client: { client_id: config.clientId }, config, redirectUri, options };
}

export interface PendingSignIn {
  /** The provider's authorization URL: what the sign-in window opens. */
  url: string;
  /** Checks the provider's answer (the redirect URL the window came back to) and redeems the code. */
  finish(callbackUrl: string): Promise<TokenSet>;
}

/** `prompt=login` after a sign-out in this pane, so the next person is asked who they are. */
export async function beginSignIn(p: Provider, options: { forceLogin?: boolean } = {}): Promise<PendingSignIn> {
  if (!p.as.authorization_endpoint) throw new SignInError('The sign-in provider announces no authorization endpoint; it cannot be used to sign in.');
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(p.as.authorization_endpoint);
  const scopes = new Set(['openid', ...p.config.scopes.split(/\s+/).filter(Boolean)]);
  url.search = new URLSearchParams({
    client_id: p.client.client_id,
    redirect_uri: p.redirectUri,
    response_type: 'code',
    scope: [...scopes].join(' '),
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(p.config.resource ? { resource: p.config.resource } : {}),
    ...(options.forceLogin ? { prompt: 'login' } : {}),
  }).toString();
  return {
    url: url.href,
    async finish(callbackUrl) {
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(p.as, p.client, new URL(callbackUrl), state);
      } catch (e) {
        throw new SignInError(`The provider did not sign you in: ${describe(e)}`);
      }
      try {
        const response = await oauth.authorizationCodeGrantRequest(p.as, p.client, oauth.None(), params, p.redirectUri, verifier, {
          ...p.options,
          ...(p.config.resource ? { additionalParameters: { resource: p.config.resource } } : {}),
        });
        return tokenSet(await oauth.processAuthorizationCodeResponse(p.as, p.client, response, { expectedNonce: nonce, requireIdToken: true }));
      } catch (e) {
        throw new SignInError(`The provider's answer could not be used: ${describe(e)}`);
      }
    },
  };
}

/** Silent renewal: a new access token (and, where the provider rotates them, a new refresh token). */
export async function renew(p: Provider, refreshToken: string): Promise<TokenSet> {
  try {
    const response = await oauth.refreshTokenGrantRequest(p.as, p.client, oauth.None(), refreshToken, {
      ...p.options,
      ...(p.config.resource ? { additionalParameters: { resource: p.config.resource } } : {}),
    });
    const next = tokenSet(await oauth.processRefreshTokenResponse(p.as, p.client, response));
    return next.refreshToken ? next : { ...next, refreshToken };
  } catch (e) {
    throw new SignInError(`Your session could not be renewed: ${describe(e)}`);
  }
}

/** Sign-out: revokes the refresh token (and with it, at most providers, the access tokens) where revocation exists. */
export async function revoke(p: Provider, tokens: TokenSet): Promise<boolean> {
  if (!p.as.revocation_endpoint) return false;
  const token = tokens.refreshToken ?? tokens.accessToken;
  try {
    await oauth.processRevocationResponse(await oauth.revocationRequest(p.as, p.client, oauth.None(), token, p.options));
    return true;
  } catch {
    // Sign-out still forgets the tokens; the relay refuses an access token once it expires.
    return false;
  }
}

function tokenSet(r: oauth.TokenEndpointResponse): TokenSet {
  return {
    accessToken: r.access_token,
    ...(r.refresh_token ? { refreshToken: r.refresh_token } : {}),
    // Without expires_in, assume a short life: renewal is tried early rather than a call failing.
    expiresAt: Date.now() + (r.expires_in ?? 300) * 1000,
  };
}

function describe(e: unknown): string {
  if (e instanceof oauth.AuthorizationResponseError || e instanceof oauth.ResponseBodyError)
    return e.error_description ? `${e.error}: ${e.error_description}` : e.error;
  return e instanceof Error ? e.message : String(e);
}
