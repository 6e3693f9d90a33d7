/**
 * A real OpenID Connect provider on loopback for tests and `grc-sheets start --sign-in`: oidc-provider 8
 * (OpenID-certified) with one public client (authorization code + PKCE, redirect URIs given by the
 * caller), confidential service clients (client credentials, app roles in `roles`), the demo users of demo-users.ts, a `groups` claim in ID and access tokens, and JWT access
 * tokens for the relay's audience (resource indicators). It runs in a child process
 * (demo-provider-process.ts says why); close() stops it.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { DemoProviderSettings } from './demo-provider-process';
import { DEMO_SERVICE_CLIENTS, DEMO_USERS, type DemoServiceClient, type DemoUser } from './demo-users';

/** The relay's audience in the demo (Entra ID style: the API's Application ID URI). */
export const DEMO_AUDIENCE = 'api://grc-sheets-relay';
export const DEMO_CLIENT_ID = 'grc-sheets-taskpane';
/** What the taskpane asks for: `grc-sheets` is the relay's scope (the access token's audience is the relay). */
export const DEMO_SCOPES = 'openid profile groups offline_access grc-sheets';

export interface DemoProviderOptions {
  /** Where the provider may send the code back (the taskpane's sign-in page); more with addRedirectUri. */
  redirectUris: string[];
  /** Where sign-out may return to; defaults to the redirect URIs. */
  postLogoutRedirectUris?: string[];
  /** Audiences it issues access tokens for; the first is the default. Default [DEMO_AUDIENCE]. */
  audiences?: string[];
  /** Access and ID token lifetime; default 600 (short sessions, silent renewal by refresh token). */
  accessTokenTtlSeconds?: number;
  clientId?: string;
  /** The people who may sign in; default the two demo users (the benchmark signs in 200). */
  users?: readonly DemoUser[];
  /** Service clients (client credentials, app roles); default the two demo service clients. */
  serviceClients?: readonly DemoServiceClient[];
}

export interface DemoProvider {
  issuer: string;
  clientId: string;
  audience: string;
  scopes: string;
  users: readonly DemoUser[];
  serviceClients: readonly DemoServiceClient[];
  /** Signs with a new key from now on; the JWKS keeps the previous key too. Resolves to the new `kid`. */
  rotateSigningKey(): Promise<string>;
  /** Allows one more redirect (and post-sign-out) URI: a relay started after the provider, on port 0. */
  addRedirectUri(uri: string): Promise<void>;
  close(): Promise<void>;
}

export async function startDemoProvider(options: DemoProviderOptions): Promise<DemoProvider> {
  const settings: DemoProviderSettings = {
    clientId: options.clientId ?? DEMO_CLIENT_ID,
    redirectUris: options.redirectUris,
    postLogoutRedirectUris: options.postLogoutRedirectUris ?? options.redirectUris,
    audiences: options.audiences ?? [DEMO_AUDIENCE],
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
    users: [...(options.users ?? DEMO_USERS)],
    serviceClients: [...(options.serviceClients ?? DEMO_SERVICE_CLIENTS)],
  };
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    process.execPath,
    [
      '--require',
      require.resolve('tsx/cjs'),
      join(__dirname, 'demo-provider-process.ts'),
      JSON.stringify(settings),
    ],
    // As in production: none of oidc-provider's development-only behaviour in a provider people sign in through.
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const waiting: ((message: Record<string, string>) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(JSON.parse(line) as Record<string, string>));
  const next = () =>
    new Promise<Record<string, string>>((resolve, reject) => {
      waiting.push(resolve);
      exited.then(() => reject(new Error(`the demo provider stopped: ${stderr.trim() || 'no message'}`)));
    });

  const { issuer } = await next();
  if (!issuer) throw new Error('the demo provider did not say its issuer');
  return {
    issuer,
    clientId: settings.clientId,
    audience: settings.audiences[0] ?? DEMO_AUDIENCE,
    scopes: DEMO_SCOPES,
    users: settings.users,
    serviceClients: settings.serviceClients,
    async rotateSigningKey() {
      const answer = next();
      child.stdin.write('rotate\n');
      return (await answer).rotated ?? '';
    },
    async addRedirectUri(uri: string) {
      if (!/^https?:\/\/\S+$/.test(uri)) throw new Error(`not a redirect URI: ${uri}`);
      const answer = next();
      child.stdin.write(`redirect ${uri}\n`);
      await answer;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await exited;
      }
    },
  };
}
