import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import { canonicalJwt, tokenKey } from './token-spelling';

/**
 * Checks the access tokens signed-in people send, for any OpenID provider: the provider's keys come from
 * its JWKS found by discovery from the issuer (jose refetches the set once on an unknown `kid`, at most
 * once per jwksCooldownSeconds, so a rotation at the provider needs nothing here); the issuer, the audience, expiry and
 * not-before (with a small clock skew), and the algorithm (from an asymmetric allowlist) are checked. A
 * token that passed is remembered until it expires, so a person's calls after the first cost a map lookup.
 * Sign-out revokes a token until it expires, here and (revokeKey) at the relays told of it: by what it
 * signs, not by its text, and only the canonical spelling of a token is accepted (token-spelling.ts).
 */

export interface TokenSettings {
  issuer: string;
  audience: string | string[];
  algorithms: string[];
  clockSkewSeconds: number;
  /** No refetch of the JWKS for an unknown kid within this long of the last fetch. */
  jwksCooldownSeconds: number;
  groupsClaim: string;
  nameClaim: string;
}

export interface Person {
  subject: string;
  name: string;
  groups: string[];
  /** Seconds since 1970 (the token's exp). */
  expiresAt: number;
  /** The provider left the groups out because there are too many (Entra ID's groups overage). */
  groupsOverage?: boolean;
  /**
   * Set when the token is a service's (OAuth client credentials: a scheduled run, no person): its client
   * id. `subject` is then the client id and `name` "service: <client id>", so logs and audit say so.
   */
  service?: string;
}

export type TokenProblem = 'token-expired' | 'token-invalid' | 'signed-out';
export type TokenCheck = { ok: true; person: Person } | { ok: false; code: TokenProblem; message: string };

export interface Discovery {
  issuer: string;
  jwks_uri: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  revocation_endpoint?: string;
  end_session_endpoint?: string;
}

export interface TokenStats {
  discoveryFetches: number;
  jwksFetches: number;
  verified: number;
  cacheHits: number;
}

/** How long a failed discovery stands before the next token tries again. */
const DISCOVERY_RETRY_MS = 5_000;
/** Tokens remembered at most (passed checks); the oldest go first beyond it. */
const MAX_REMEMBERED = 20_000;
/** A token older than this (by iat) is refused whatever its exp: and iat in the future is caught by it. */
const MAX_TOKEN_AGE_SECONDS = 24 * 3600;

export class IdentityDiscoveryError extends Error {
  override name = 'IdentityDiscoveryError';
}

function describe(e: unknown, settings: TokenSettings): { code: TokenProblem; message: string } {
  if (e instanceof errors.JWTExpired)
    return e.claim === 'exp'
      ? {
          code: 'token-expired',
          message: 'The sign-in has expired: renew it (the taskpane does this by itself) or sign in again.',
        }
      : {
          code: 'token-invalid',
          message: 'The token is too old (issued more than a day ago): sign in again.',
        };
  if (e instanceof errors.JWTClaimValidationFailed) {
    const got = (e.payload as Record<string, unknown>)[e.claim];
    switch (e.claim) {
      case 'aud':
        return {
          code: 'token-invalid',
          message: `The token is for another audience (${JSON.stringify(got)}), not this relay (${JSON.stringify(settings.audience)}): the taskpane must ask for the relay's scope.`,
        };
      case 'iss':
        return {
          code: 'token-invalid',
          message: `The token is from another issuer (${JSON.stringify(got)}); this relay accepts ${settings.issuer} only.`,
        };
      case 'nbf':
      case 'iat':
        return {
          code: 'token-invalid',
          message: `The token is not valid yet (${e.claim} is in the future): check the clocks of this host and the provider.`,
        };
      default:
        return {
          code: 'token-invalid',
          message: `The token's "${e.claim}" claim is missing or wrong: sign in again.`,
        };
    }
  }
  if (e instanceof errors.JOSEAlgNotAllowed)
    return {
      code: 'token-invalid',
      message: `The token's signature algorithm is not accepted here (accepted: ${settings.algorithms.join(', ')}).`,
    };
  if (e instanceof errors.JWSSignatureVerificationFailed)
    return {
      code: 'token-invalid',
      message:
        "The token's signature does not verify with the provider's key: it was altered or not made by the provider.",
    };
  if (e instanceof errors.JWKSNoMatchingKey)
    return {
      code: 'token-invalid',
      message:
        'The token was signed with a key the provider does not publish (unknown kid), even after fetching its keys again.',
    };
  if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid)
    return { code: 'token-invalid', message: 'The token is not a well-formed signed JWT access token.' };
  if (
    e instanceof IdentityDiscoveryError ||
    e instanceof errors.JWKSTimeout ||
    e instanceof errors.JWKSInvalid
  )
    return {
      code: 'token-invalid',
      message: `The relay cannot reach the sign-in provider's keys right now (${(e as Error).message}); try again in a moment.`,
    };
  return { code: 'token-invalid', message: 'The token could not be checked: sign in again.' };
}

/** Where app roles arrive in a service's token (Entra ID, and the demo provider). */
const ROLES_CLAIM = 'roles';

/**
 * The client id when the token is a service's own (client credentials) rather than a person's: Entra ID
 * marks app-only tokens with `idtyp: "app"` (an optional claim) and gives them the service principal's
 * object id as both `sub` and `oid` with no `scp`; other providers (oidc-provider, Keycloak, Okta) make
 * the client id the subject. The client id is `azp` (Entra ID v2, Keycloak), `appid` (Entra ID v1) or
 * `client_id` (RFC 9068).
 */
function serviceClient(payload: JWTPayload): string | null {
  const client = [payload.client_id, payload.azp, payload.appid].find((c): c is string => typeof c === 'string' && c !== '');
  if (!client) return null;
  if (payload.idtyp === 'app' || payload.sub === client) return client;
  if (typeof payload.oid === 'string' && payload.oid === payload.sub && payload.scp === undefined) return client;
  return null;
}

function groupsOf(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return [];
}

export class TokenChecker {
  readonly stats: TokenStats = { discoveryFetches: 0, jwksFetches: 0, verified: 0, cacheHits: 0 };
  private discovered: Promise<{ doc: Discovery; keys: ReturnType<typeof createRemoteJWKSet> }> | undefined;
  private readonly passed = new Map<string, Person>();
  private readonly checking = new Map<string, Promise<TokenCheck>>();
  /** Signed-out tokens by tokenKey, until their exp (ms): what relays tell each other of sign-outs. */
  private readonly revoked = new Map<string, number>();
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly settings: TokenSettings,
    private readonly now: () => number = Date.now,
    /** Told of each fetch of the provider's keys (the relay logs it: a rotation shows as a fetch). */
    private readonly onKeysFetched: (jwksUri: string) => void = () => undefined,
  ) {
    this.sweep = setInterval(() => this.forgetExpired(), 60_000);
    this.sweep.unref();
  }

  /** The provider's discovery document (fetched once; a failure is retried at the next call). */
  discovery(): Promise<Discovery> {
    return this.keySet().then((d) => d.doc);
  }

  private keySet() {
    this.discovered ??= (async () => {
      this.stats.discoveryFetches++;
      const where = `${this.settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      let doc: Discovery;
      try {
        const response = await fetch(where, { signal: AbortSignal.timeout(5000), redirect: 'error' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        doc = (await response.json()) as Discovery;
      } catch (e) {
        throw new IdentityDiscoveryError(`discovery at ${where} failed: ${(e as Error).message}`);
      }
      if (doc.issuer !== this.settings.issuer)
        throw new IdentityDiscoveryError(
          `the provider at ${where} calls itself "${doc.issuer}", not "${this.settings.issuer}": set identity.issuer to its exact value`,
        );
      if (typeof doc.jwks_uri !== 'string')
        throw new IdentityDiscoveryError(`the discovery document at ${where} has no jwks_uri`);
      const keys = createRemoteJWKSet(new URL(doc.jwks_uri), {
        cooldownDuration: this.settings.jwksCooldownSeconds * 1000,
        cacheMaxAge: 10 * 60_000,
        timeoutDuration: 5000,
        [customFetch]: (url, options) => {
          this.stats.jwksFetches++;
          this.onKeysFetched(doc.jwks_uri);
          return fetch(url, options);
        },
      });
      return { doc, keys };
    })();
    // A failed discovery is answered as failed for a while, then tried again: tokens arriving meanwhile do
    // not each send the provider a request.
    this.discovered.catch(() => {
      const retry = setTimeout(() => (this.discovered = undefined), DISCOVERY_RETRY_MS);
      retry.unref();
    });
    return this.discovered;
  }

  /** Synchronous for a token that already passed (the common case); a promise for a new one. */
  check(token: string): TokenCheck | Promise<TokenCheck> {
    // Only canonical tokens are ever remembered, so a cache hit needs no spelling check.
    const known = this.passed.get(token);
    if (known !== undefined) {
      if (known.expiresAt * 1000 > this.now() - this.settings.clockSkewSeconds * 1000) {
        this.stats.cacheHits++;
        return { ok: true, person: known };
      }
      this.passed.delete(token);
    }
    if (!canonicalJwt(token))
      return {
        ok: false,
        code: 'token-invalid',
        message:
          'The token is not spelt as the provider issues tokens (each part canonical base64url, no padding): send the token exactly as received.',
      };
    if (this.revoked.has(tokenKey(token)))
      return {
        ok: false,
        code: 'signed-out',
        message: 'This sign-in was ended (signed out): sign in again.',
      };
    let pending = this.checking.get(token);
    if (pending === undefined) {
      pending = this.verify(token).finally(() => this.checking.delete(token));
      this.checking.set(token, pending);
    }
    return pending;
  }

  private async verify(token: string): Promise<TokenCheck> {
    try {
      const { keys } = await this.keySet();
      const { payload } = await jwtVerify(token, keys, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: this.settings.algorithms,
        clockTolerance: this.settings.clockSkewSeconds,
        currentDate: new Date(this.now()),
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      this.stats.verified++;
      const service = serviceClient(payload);
      const person: Person = service
        ? {
            subject: service,
            name: `service: ${service}`,
            // App roles assigned to the service, besides any groups: what a policy rule names for it.
            groups: [...new Set([...groupsOf(payload, this.settings.groupsClaim), ...groupsOf(payload, ROLES_CLAIM)])],
            expiresAt: payload.exp ?? 0,
            service,
          }
        : {
            subject: String(payload.sub),
            name:
              typeof payload[this.settings.nameClaim] === 'string'
                ? (payload[this.settings.nameClaim] as string)
                : String(payload.sub),
            groups: groupsOf(payload, this.settings.groupsClaim),
            expiresAt: payload.exp ?? 0,
          };
      const names = payload._claim_names as Record<string, unknown> | undefined;
      if (names && this.settings.groupsClaim in names) person.groupsOverage = true;
      if (this.revoked.has(tokenKey(token)))
        return {
          ok: false,
          code: 'signed-out',
          message: 'This sign-in was ended (signed out): sign in again.',
        };
      if (this.passed.size >= MAX_REMEMBERED) this.forgetExpired();
      if (this.passed.size >= MAX_REMEMBERED) this.passed.delete(this.passed.keys().next().value!);
      this.passed.set(token, person);
      return { ok: true, person };
    } catch (e) {
      return { ok: false, ...describe(e, this.settings) };
    }
  }

  /** Sign-out: this token is refused from now until it expires. Returns what other relays need to know. */
  revoke(token: string, person: Person): { hash: string; until: number } {
    const hash = tokenKey(token);
    const until = person.expiresAt * 1000 + this.settings.clockSkewSeconds * 1000;
    this.revokeKey(hash, until);
    return { hash, until };
  }

  /**
   * A sign-out (here or at another relay): every remembered token with this key is forgotten, so every
   * spelling and signature of it that passed before is refused from now on too.
   */
  revokeKey(hash: string, until: number): void {
    if (this.revoked.has(hash)) return;
    this.revoked.set(hash, until);
    for (const token of this.passed.keys()) if (tokenKey(token) === hash) this.passed.delete(token);
  }

  private forgetExpired(): void {
    const t = this.now() - this.settings.clockSkewSeconds * 1000;
    for (const [token, p] of this.passed) if (p.expiresAt * 1000 <= t) this.passed.delete(token);
    for (const [token, until] of this.revoked) if (until <= this.now()) this.revoked.delete(token);
  }

  stop(): void {
    clearInterval(this.sweep);
  }
}
