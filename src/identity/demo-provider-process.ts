/**
 * The demo OpenID provider, run as its own Node process by demo-provider.ts: oidc-provider 8 is an ES
 * module with ES-module dependencies, which jest's CommonJS module runtime cannot load on Node 20 (plain
 * Node can); a child process works the same under jest, tsx and the CLI.
 *
 * argv[2]: the DemoProviderSettings as JSON. Writes one JSON line `{ issuer }` on stdout once it listens;
 * reads commands on stdin, one a line, each answered with one JSON line: `rotate` (a new signing key
 * first, the old one kept in the JWKS so tokens already issued stay valid) answers `{ rotated: kid }`;
 * `redirect <uri>` (a sign-in page whose port is known only after the provider started) answers
 * `{ added: uri }`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { loginPage } from './demo-login-page';
import type { DemoServiceClient, DemoUser } from './demo-users';

export interface DemoProviderSettings {
  clientId: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Resource indicators the provider issues access tokens for; the first is the default. */
  audiences: string[];
  accessTokenTtlSeconds: number;
  users: DemoUser[];
  /** Confidential clients that get tokens for themselves (client credentials), with their app roles. */
  serviceClients: DemoServiceClient[];
}

const settings = JSON.parse(process.argv[2] ?? '{}') as DemoProviderSettings;
const usersBySubject = new Map(settings.users.map((u) => [u.subject, u]));
const servicesById = new Map(settings.serviceClients.map((c) => [c.clientId, c]));
/** The scope an access token for the relay carries (Entra ID's equivalent: `api://.../access_as_user`). */
const RELAY_SCOPE = 'grc-sheets';

/** One for the process: the provider is rebuilt on rotation, and its sign-in cookies must stay readable. */
const COOKIE_KEY = randomBytes(32).toString('hex');

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

function configuration(keys: ReturnType<typeof signingKey>[]): Configuration {
  return {
    clients: [
      {
        client_id: settings.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: settings.redirectUris,
        post_logout_redirect_uris: settings.postLogoutRedirectUris,
      },
      ...settings.serviceClients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.secret,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      })),
    ],
    jwks: { keys },
    cookies: { keys: [COOKIE_KEY] },
    scopes: ['openid', 'offline_access', 'profile', 'groups'],
    claims: { openid: ['sub'], profile: ['name'], groups: ['groups'] },
    // The ID token carries name and groups too (the taskpane shows who is signed in without a userinfo call).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // The taskpane calls discovery, token and revocation endpoints from the origin of its sign-in page.
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string, client: { redirectUris: string[] }) =>
      client.redirectUris.some((uri) => new URL(uri).origin === origin),
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      IdToken: settings.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      RefreshToken: 8 * 3600,
    },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const user = usersBySubject.get(id);
      if (!user) return undefined;
      return { accountId: id, claims: () => ({ sub: id, name: user.name, groups: user.groups }) };
    },
    // A first-party demo: no consent screen, the requested scopes are granted.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, params } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const existing = session.grantIdFor(client.clientId);
      if (existing) {
        const grant = await ctx.oidc.provider.Grant.find(existing);
        if (grant) return grant;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(String(params?.scope ?? 'openid'));
      for (const audience of settings.audiences) grant.addResourceScope(audience, RELAY_SCOPE);
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    async issueRefreshToken(_ctx: KoaContextWithOIDC, client: { grantTypeAllowed(type: string): boolean }) {
      return client.grantTypeAllowed('refresh_token');
    },
    async extraTokenClaims(_ctx: KoaContextWithOIDC, token: { accountId?: string; clientId?: string; kind?: string }) {
      // A service's own token (client credentials): its app roles, as Entra ID puts them in `roles`.
      if (token.kind === 'ClientCredentials') {
        const service = token.clientId ? servicesById.get(token.clientId) : undefined;
        return service ? { roles: service.roles } : undefined;
      }
      const user = token.accountId ? usersBySubject.get(token.accountId) : undefined;
      return user ? { name: user.name, groups: user.groups } : undefined;
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // Sign-out from the taskpane needs no second click on the provider's page.
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.body = `<!doctype html><html><body>${form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>')}<script>document.forms[0].submit()</script></body></html>`;
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: KoaContextWithOIDC, _client: unknown, oneOf?: string[]) =>
          oneOf ? oneOf[0] : settings.audiences[0],
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (!settings.audiences.includes(indicator)) throw new errors.InvalidTarget();
          return {
            scope: RELAY_SCOPE,
            audience: indicator,
            accessTokenFormat: 'jwt',
            accessTokenTTL: settings.accessTokenTtlSeconds,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  };
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse, path: string) {
  const details = await provider.interactionDetails(req, res);
  const clientId = String(details.params.client_id ?? '');
  if (req.method === 'POST' && path.endsWith('/login')) {
    const form = await readForm(req);
    const user = usersBySubject.get(form.get('login') ?? '');
    if (!user || user.password !== form.get('password')) {
      sendHtml(res, 401, loginPage(details.uid, clientId, 'Wrong user name or password.'));
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.subject } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (details.prompt.name === 'login') {
    sendHtml(res, 200, loginPage(details.uid, clientId));
    return;
  }
  // Consent is granted by loadExistingGrant; a consent prompt left here finishes with that grant.
  await provider.interactionFinished(req, res, { consent: {} }, { mergeWithLastSubmission: true });
}

async function main() {
  let keys = [signingKey()];
  let provider: Provider | undefined;
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (provider && path.startsWith('/interaction/')) {
      interaction(provider, req, res, path).catch((err: unknown) => {
        sendHtml(
          res,
          400,
          `<p>Sign-in could not go on: ${String((err as Error).message).replace(/</g, '&lt;')}. Start again from the add-in.</p>`,
        );
      });
      return;
    }
    handle?.(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the demo provider has no port');
  const issuer = `http://127.0.0.1:${address.port}`;
  const start = () => {
    provider = new Provider(issuer, configuration(keys));
    handle = provider.callback();
  };
  start();
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);

  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const [command, argument = ''] = line.trim().split(' ', 2);
    if (command === 'rotate') {
      keys = [signingKey(), ...keys].slice(0, 2);
      start();
      process.stdout.write(`${JSON.stringify({ rotated: keys[0]?.kid })}\n`);
    } else if (command === 'redirect') {
      settings.redirectUris.push(argument);
      settings.postLogoutRedirectUris.push(argument);
      start();
      process.stdout.write(`${JSON.stringify({ added: argument })}\n`);
    }
  });
  // The parent closed our stdin (or died): stop.
  lines.on('close', () => process.exit(0));
}

main().catch((err: unknown) => {
  process.stderr.write(`demo provider: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
