import * as oauth from 'oauth4webapi';
import { bearerFetch } from '../client/bearer-fetch';
import { AUTH_CONFIG_PATH, authConfig, ME_PATH, me, type AuthConfig, type Me } from '../contracts/identity';
import { HeldKeyError, readSecretFile } from '../relay/held-keys';

/**
 * A scheduled run through a relay that holds the keys (docs/workbook.md, "grc-sheets refresh"): no API key
 * on the scheduler; the run authenticates as itself with the OAuth 2.0 client credentials grant (RFC 6749
 * 4.4; Entra ID: an app registration with an app role assigned) at the provider the relay trusts, and
 * every relay call carries that access token as Bearer. The relay checks it and its policy as for a
 * person, and adds the key it holds. The secret and the token stay in this process: never printed.
 */
export const CLIENT_ID_VAR = 'GRC_SHEETS_CLIENT_ID';
export const CLIENT_SECRET_VAR = 'GRC_SHEETS_CLIENT_SECRET';
export const CLIENT_SECRET_FILE_VAR = 'GRC_SHEETS_CLIENT_SECRET_FILE';
/** The scope to ask for, when the relay's audience is not enough to say it (another provider's convention). */
export const CLIENT_SCOPE_VAR = 'GRC_SHEETS_CLIENT_SCOPE';

export class ServiceClientError extends Error {
  override name = 'ServiceClientError';
  constructor(
    message: string,
    /** Configuration to fix (exit 2) rather than a failure to reach the provider or the relay (exit 1). */
    readonly usage: boolean,
  ) {
    super(message);
  }
}

export interface ServiceClient {
  clientId: string;
  secret: string;
  /** Which variable the secret came from: named when the provider refuses it. */
  secretVar: string;
}

const SECRET_VARS = `${CLIENT_SECRET_FILE_VAR} (a file only this user can read) or ${CLIENT_SECRET_VAR}`;

/** The service client the environment names; null when none is set; refused when half set. */
export function serviceClientFrom(env: Record<string, string | undefined>): ServiceClient | null {
  const clientId = env[CLIENT_ID_VAR]?.trim() ?? '';
  const inline = env[CLIENT_SECRET_VAR] ?? '';
  const file = env[CLIENT_SECRET_FILE_VAR]?.trim() ?? '';
  if (!clientId && !inline && !file) return null;
  const usage = (m: string) => new ServiceClientError(m, true);
  if (!clientId) throw usage(`${file ? CLIENT_SECRET_FILE_VAR : CLIENT_SECRET_VAR} is set but ${CLIENT_ID_VAR} is not: set it to the service client's id (Entra ID: the app registration's application id).`);
  if (inline && file) throw usage(`set one of ${CLIENT_SECRET_VAR} and ${CLIENT_SECRET_FILE_VAR}, not both.`);
  if (!inline && !file) throw usage(`${CLIENT_ID_VAR} is set but not the client's secret: set ${SECRET_VARS}.`);
  if (!file) return { clientId, secret: inline.trim(), secretVar: CLIENT_SECRET_VAR };
  let secret: string;
  try {
    secret = readSecretFile(file, `${CLIENT_SECRET_FILE_VAR} ${file}`, "this user's").trim();
  } catch (e) {
    if (e instanceof HeldKeyError) throw usage(e.message);
    throw e;
  }
  if (!secret) throw usage(`${CLIENT_SECRET_FILE_VAR} ${file} is empty: it must hold the service client's secret.`);
  return { clientId, secret, secretVar: CLIENT_SECRET_FILE_VAR };
}

export interface ServiceSession {
  /** The fetch the client uses: each call carries the service's access token, renewed before it expires. */
  fetch: typeof globalThis.fetch;
  /** Who the relay takes this run for (the client id, "service: <client id>") and the keys' fingerprints. */
  me: Me;
}

/** Plain http only for a provider on this machine (the demo provider, tests); anything else must be https. */
function loopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

async function readAuthConfig(origin: string, fetchFn: typeof fetch): Promise<NonNullable<AuthConfig['signIn']>> {
  const url = `${origin}${AUTH_CONFIG_PATH}`;
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (e) {
    throw new ServiceClientError(`could not reach the relay at ${origin} (${(e as Error).message}).`, false);
  }
  const parsed = response.ok ? authConfig.safeParse(await response.json().catch(() => null)) : null;
  if (response.status !== 404 && !parsed?.success)
    throw new ServiceClientError(`the relay answered ${response.status} to GET ${url}, not its sign-in settings.`, false);
  const signIn = parsed?.success ? parsed.data.signIn : null;
  if (!signIn)
    throw new ServiceClientError(
      `${CLIENT_ID_VAR} is set, but the relay at ${origin} has no sign-in (identity) configured, so it takes no service token: use an API key (GRC_SHEETS_KEY_ID and GRC_SHEETS_KEY_PASSWORD) with this relay.`,
      true,
    );
  return signIn;
}

/** The OAuth error code and description of a provider's refusal: in the body, or (a 401) in WWW-Authenticate. */
function oauthError(e: unknown): { error: string; description?: string } | null {
  if (e instanceof oauth.ResponseBodyError) return { error: e.error, ...(e.error_description ? { description: e.error_description } : {}) };
  if (e instanceof oauth.WWWAuthenticateChallengeError) {
    const parameters = e.cause[0]?.parameters ?? {};
    // A 401 from the token endpoint is the client's authentication failing (RFC 6749 5.2), whatever the scheme.
    const error = parameters.error ?? (e.status === 401 ? 'invalid_client' : 'unknown');
    return { error, ...(parameters.error_description ? { description: parameters.error_description } : {}) };
  }
  return null;
}

function said(e: unknown): string {
  const o = oauthError(e);
  if (o) return o.description ? `${o.error}: ${o.description}` : o.error;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Reads the relay's sign-in settings, finds the provider by discovery, gets a first token (so a wrong
 * secret stops the run before anything is read or written) and asks the relay who it takes the run for.
 */
export async function serviceSession(
  relayUrl: string,
  service: ServiceClient,
  env: Record<string, string | undefined>,
  fetchFn: typeof fetch,
  now: () => number = Date.now,
): Promise<ServiceSession> {
  const origin = relayUrl.replace(/\/+$/, '');
  const signIn = await readAuthConfig(origin, fetchFn);
  const issuer = new URL(signIn.issuer);
  const options = { [oauth.customFetch]: fetchFn, [oauth.allowInsecureRequests]: loopback(signIn.issuer) };
  let as: oauth.AuthorizationServer;
  try {
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oidc' }));
  } catch (e) {
    throw new ServiceClientError(`could not read the sign-in provider's configuration at ${signIn.issuer.replace(/\/$/, '')}/.well-known/openid-configuration (${said(e)}).`, false);
  }
  // The token must be for the relay: the provider's RFC 8707 resource where the relay names one (oidc-provider,
  // Okta), else Entra ID's "<audience>/.default" (every app role assigned to the client, for that API).
  const scope = env[CLIENT_SCOPE_VAR]?.trim() || (signIn.resource || !signIn.audience?.[0] ? '' : `${signIn.audience[0]}/.default`);
  const parameters: Record<string, string> = { ...(signIn.resource ? { resource: signIn.resource } : {}), ...(scope ? { scope } : {}) };
  const client: oauth.Client = { client_id: service.clientId };
  const auth = oauth.ClientSecretBasic(service.secret);

  let current: { token: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;
  const obtain = async (): Promise<string> => {
    let answer: oauth.TokenEndpointResponse;
    try {
      answer = await oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, auth, parameters, options));
    } catch (e) {
      const error = oauthError(e)?.error ?? '';
      if (error === 'invalid_client' || error === 'unauthorized_client')
        throw new ServiceClientError(`the sign-in provider refused service client ${service.clientId} (${said(e)}): check ${service.secretVar} and ${CLIENT_ID_VAR}.`, true);
      if (error === 'invalid_scope' || error === 'invalid_target')
        throw new ServiceClientError(`the sign-in provider would not issue service client ${service.clientId} a token for the relay (${said(e)}): check the relay's identity.audience/resource or set ${CLIENT_SCOPE_VAR}.`, true);
      throw new ServiceClientError(`could not get a token for service client ${service.clientId} at ${as.token_endpoint ?? signIn.issuer} (${said(e)}).`, false);
    }
    const life = (answer.expires_in ?? 300) * 1000;
    // Renewed a minute before it expires (half way through a short one): a long post keeps going.
    current = { token: answer.access_token, renewAt: now() + Math.max(life - 60_000, life / 2) };
    return answer.access_token;
  };
  const accessToken = (renew: boolean): Promise<string> => {
    if (!renew && current && now() < current.renewAt) return Promise.resolve(current.token);
    pending ??= obtain().finally(() => (pending = null));
    return pending;
  };
  await accessToken(false);

  const bearer = bearerFetch(fetchFn, { accessToken: ({ renew }) => accessToken(renew) });

  const answer = await bearer(`${origin}${ME_PATH}`, { headers: { accept: 'application/json' } });
  const body: unknown = await answer.json().catch(() => null);
  if (!answer.ok) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new ServiceClientError(`the relay did not accept service client ${service.clientId}'s token (${answer.status})${typeof message === 'string' ? `: ${message}` : '.'}`, false);
  }
  const parsedMe = me.safeParse(body);
  if (!parsedMe.success) throw new ServiceClientError(`the relay's answer at ${origin}${ME_PATH} is not in the expected form.`, false);
  return { fetch: bearer, me: parsedMe.data };
}
