import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Endpoint } from '../catalog';
import type { AuthConfig, Me } from '../contracts/identity';
import { TokenChecker, type Person, type TokenCheck } from '../identity/token-check';
import type { RelayConfig } from './config';
import { sendError } from './errors';
import type { HeldKeys } from './held-keys';
import type { CallLog } from './log';
import type { PolicyFile } from './policy-file';
import type { RateLimiter } from './rate-limit';
import type { Forwarding } from './forward';

/**
 * The relay's side of sign-in: a call with `Authorization: Bearer <access token>` is checked (token-check),
 * counted against the person's own rate limit and in-flight cap, held against the policy, and sent upstream
 * with the key the relay holds for the environment in place of the token. The routes /api/auth/config,
 * /api/me and /api/auth/sign-out live here too.
 */

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  return BEARER.exec(authorization)?.[1] ?? null;
}

const RETRY_SOON = { headers: { 'retry-after': '1' } };

export interface SignIn {
  readonly checker: TokenChecker;
  readonly authConfig: AuthConfig;
  /** Origins the taskpane's pages must reach (the provider's), for the pages' connect-src. */
  readonly providerOrigins: string[];
  /**
   * The checks of a catalogued call with a Bearer token. On success the forwarded headers carry the held
   * key and `onward` sends the call; otherwise the refusal is sent.
   */
  call(
    res: ServerResponse,
    token: string,
    env: string,
    endpoint: Endpoint,
    headers: Record<string, string>,
    log: CallLog,
    /** `implied`: the person may read only these fields (a flow's implied read): the answer is cut to them. */
    onward: (implied?: readonly string[]) => Forwarding | Promise<Forwarding | void> | void,
  ): Forwarding | Promise<Forwarding | void> | void;
  me(req: IncomingMessage, res: ServerResponse, log: CallLog): void | Promise<void>;
  signOut(req: IncomingMessage, res: ServerResponse, log: CallLog): void | Promise<void>;
  /** Answers with the environments the signed-in caller may use (those with a held key), or sends the refusal. */
  environments(
    req: IncomingMessage,
    res: ServerResponse,
    log: CallLog,
    answer: (allowed: ReadonlySet<string>) => void,
  ): void | Promise<void>;
  /** Whom a refused person should ask (the policy's contact). */
  contact(): string;
  stop(): void;
}

export interface SignInDeps {
  config: RelayConfig;
  keys: HeldKeys;
  policy: PolicyFile;
  personLimiter: RateLimiter;
  logger: Logger;
  now?: () => number;
}

function sendJson(res: ServerResponse, body: unknown): void {
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

function refuseToken(res: ServerResponse, checked: Extract<TokenCheck, { ok: false }>): void {
  sendError(res, checked.code, {
    message: checked.message,
    headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${checked.code}"` },
  });
}

export async function createSignIn(deps: SignInDeps): Promise<SignIn> {
  const identity = deps.config.identity!;
  const checker = new TokenChecker(
    {
      issuer: identity.issuer,
      audience: identity.audience,
      algorithms: identity.algorithms,
      clockSkewSeconds: identity.clockSkewSeconds,
      jwksCooldownSeconds: identity.jwksCooldownSeconds,
      groupsClaim: identity.groupsClaim,
      nameClaim: identity.nameClaim,
    },
    deps.now,
    (jwksUri) => deps.logger.info({ jwksUri }, 'sign-in provider keys fetched'),
  );
  const providerOrigins = new Set([new URL(identity.issuer).origin]);
  try {
    const doc = await checker.discovery();
    for (const u of [
      doc.authorization_endpoint,
      doc.token_endpoint,
      doc.revocation_endpoint,
      doc.end_session_endpoint,
    ])
      if (u) providerOrigins.add(new URL(u).origin);
  } catch (e) {
    // Not fatal: the provider may come up after the relay; tokens are refused until discovery works.
    deps.logger.warn(
      { issuer: identity.issuer },
      `sign-in provider not reachable yet: ${(e as Error).message}`,
    );
  }
  const environments = deps.config.environments;
  const usable = () => new Set(Object.keys(environments).filter((e) => deps.keys.get(e)));
  const store = deps.config.limits.rateLimit.store;
  // Loaded only by relays that share a store (ioredis costs every relay that loads it; see server.ts).
  const channel = store
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('./sign-out-channel') as typeof import('./sign-out-channel')).createSignOutChannel(
        store,
        deps.logger,
        (hash, until) => checker.revokeKey(hash, until),
      )
    : null;
  const inFlight = new Map<string, number>();
  const inFlightLimit = deps.config.limits.callsInFlightPerPerson;

  /** Runs `then` with the person behind the token, or sends the refusal. */
  function withPerson<T>(
    res: ServerResponse,
    token: string,
    log: CallLog,
    then: (p: Person) => T,
  ): T | void | Promise<Awaited<T> | void> {
    const checked = checker.check(token);
    const go = (c: TokenCheck): T | void => {
      if (!c.ok) return refuseToken(res, c);
      log.person = c.person.subject;
      log.personName = c.person.name;
      return then(c.person);
    };
    // A promise `then` returns is flattened by the one returned here.
    return checked instanceof Promise ? (checked.then(go) as Promise<Awaited<T> | void>) : go(checked);
  }

  function tokenOf(req: IncomingMessage, res: ServerResponse): string | null {
    const token = bearerToken(req.headers.authorization);
    if (!token) sendError(res, 'sign-in-required');
    return token;
  }

  return {
    checker,
    providerOrigins: [...providerOrigins],
    authConfig: {
      personalKeys: deps.config.personalKeys,
      signIn: {
        issuer: identity.issuer,
        clientId: identity.clientId,
        scopes: identity.scopes,
        ...(identity.resource ? { resource: identity.resource } : {}),
        audience: typeof identity.audience === 'string' ? [identity.audience] : identity.audience,
      },
    },
    call(res, token, env, endpoint, headers, log, onward) {
      return withPerson(res, token, log, (person): Forwarding | Promise<Forwarding | void> | void => {
        const go = (wait: number): Forwarding | Promise<Forwarding | void> | void => {
          if (wait > 0)
            return sendError(res, 'person-rate-limited', {
              headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
            });
          const decision = deps.policy.current.decide(person.groups, env, endpoint, person.groupsOverage);
          const implied = decision && 'implied' in decision ? decision : null;
          const refusal = decision && 'message' in decision ? decision : null;
          if (refusal)
            return sendError(res, 'policy-refused', {
              // A scheduler's log shows the message only: it names the service client the relay took it for.
              message: person.service
                ? `Service client ${person.service} (roles ${person.groups.join(', ') || 'none'}): ${refusal.message}`
                : refusal.message,
              fields: { rule: refusal.rule, ask: refusal.ask },
            });
          const key = deps.keys.get(env);
          if (!key) return sendError(res, 'key-unavailable');
          const mine = inFlight.get(person.subject) ?? 0;
          if (mine >= inFlightLimit) return sendError(res, 'person-too-many-in-flight', RETRY_SOON);
          inFlight.set(person.subject, mine + 1);
          res.once('close', () => {
            const left = (inFlight.get(person.subject) ?? 1) - 1;
            if (left > 0) inFlight.set(person.subject, left);
            else inFlight.delete(person.subject);
          });
          headers.authorization = key.basic;
          log.key = key.tag;
          if (implied) log.implied = implied.rule;
          return onward(implied?.implied);
        };
        const wait = deps.personLimiter.take(`person:${person.subject}`);
        return typeof wait === 'number' ? go(wait) : wait.then(go);
      });
    },
    me(req, res, log) {
      if (req.method !== 'GET') return sendError(res, 'method-not-allowed', { headers: { allow: 'GET' } });
      const token = tokenOf(req, res);
      if (!token) return;
      return withPerson(res, token, log, (person) => {
        const may = deps.policy.current.may(person.groups, usable());
        const fingerprints = deps.keys.fingerprints();
        const body: Me = {
          subject: person.subject,
          name: person.name,
          groups: person.groups,
          expiresAt: person.expiresAt,
          may,
          // Only the environments this person may use: the others' keys are none of their business.
          keys: Object.fromEntries(
            may.environments.flatMap((e) => (fingerprints[e] ? [[e, fingerprints[e]]] : [])),
          ),
        };
        sendJson(res, body);
      });
    },
    signOut(req, res, log) {
      if (req.method !== 'POST') return sendError(res, 'method-not-allowed', { headers: { allow: 'POST' } });
      const token = tokenOf(req, res);
      if (!token) return;
      return withPerson(res, token, log, (person) => {
        const { hash, until } = checker.revoke(token, person);
        channel?.publish(hash, until);
        deps.logger.info(
          { person: person.subject, personName: person.name },
          'signed out: this access token is refused until it expires',
        );
        res.statusCode = 204;
        res.end();
      });
    },
    environments(req, res, log, answer) {
      const token = tokenOf(req, res);
      if (!token) return;
      return withPerson(res, token, log, (person) =>
        answer(new Set(deps.policy.current.may(person.groups, usable()).environments)),
      );
    },
    contact: () => deps.policy.current.contact,
    stop() {
      checker.stop();
      channel?.stop();
    },
  };
}
