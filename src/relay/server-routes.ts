import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENVIRONMENTS_PATH } from '../contracts/environments';
import { JWKS_PATH, STATEMENTS_PATH } from '../contracts/evidence';
import { AUTH_CONFIG_PATH, ME_PATH, SIGN_OUT_PATH } from '../contracts/identity';
import type { RelayConfig } from './config';
import type { Cors } from './cors';
import type { environmentRoutes } from './environment-routes';
import { sendError } from './errors';
import type { Forwarding } from './forward';
import type { HeldKeys } from './held-keys';
import type { CallLog } from './log';
import { proxy, type ProxyDeps } from './proxy';
import type { RelayServices } from './server-services';
import type { StaticFiles } from './static-files';

/** API answers are private data: never cached, never sniffed, never framed. */
const API_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const HEALTHY = JSON.stringify({ status: 'ok' });

/**
 * /healthz of a relay holding keys: still 200 (the relay serves), `warn` while a key expires soon or cannot
 * be read. The keys themselves (fingerprint, expiry) only where the configuration says so: anyone may ask.
 */
function keysHealth(keys: HeldKeys, showKeys: boolean): string {
  const health = keys.health();
  const warn = Object.values(health).some((h) => h.status !== 'ok');
  return JSON.stringify({ status: warn ? 'warn' : 'ok', ...(showKeys ? { keys: health } : {}) });
}

export interface RouteParts {
  config: RelayConfig;
  cors: Cors;
  services: RelayServices;
  environments: ReturnType<typeof environmentRoutes>;
  authConfig: (req: IncomingMessage, res: ServerResponse) => void;
  files: StaticFiles | null;
  deps: ProxyDeps;
  /** True once close() began: new calls are refused. */
  closing(): boolean;
}

export type Handle = (
  req: IncomingMessage,
  res: ServerResponse,
  rawPath: string,
  url: string,
  q: number,
  log: CallLog,
) => Forwarding | Promise<Forwarding | boolean | void> | void;

/** Where each request goes: health, the API (CORS, rate limit, then its route), the JWKS, the add-in's files. */
export function createRoutes(parts: RouteParts): Handle {
  const { config, cors, environments, authConfig, files, deps } = parts;
  const { evidence, limiter, keys, signIn } = parts.services;

  /** The headers every API answer carries, as [name, value] pairs set in one loop. */
  const apiHeaders = Object.entries(API_HEADERS);
  if (config.tls) apiHeaders.push(['strict-transport-security', 'max-age=31536000']);

  /** The API after the rate limit: CORS is settled by then, so every refusal below is readable. */
  function limited(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    query: string,
    log: CallLog,
  ): Forwarding | Promise<Forwarding | void> | void {
    if (rawPath === ENVIRONMENTS_PATH || rawPath.startsWith(`${ENVIRONMENTS_PATH}/`))
      return environments(req, res, rawPath, query, log);
    // /api/me/ and below are no environment's paths: the identity routes answer them (404).
    if (rawPath.startsWith('/api/auth/') || rawPath === ME_PATH || rawPath.startsWith(`${ME_PATH}/`))
      return identityRoute(req, res, rawPath, log);
    if (rawPath.startsWith(STATEMENTS_PATH))
      return rawPath[STATEMENTS_PATH.length] === '/'
        ? evidence.statement(req, res, rawPath, signIn?.checker ?? null)
        : sendError(res, 'not-found');
    // The environment segment is compared raw: an encoded name is no name.
    const slash = rawPath.indexOf('/', 5);
    if (slash < 0) return sendError(res, 'not-found');
    return proxy(req, res, rawPath.slice(5, slash), rawPath.slice(slash), query, deps, log);
  }

  /** /api/auth/config (no authentication), /api/me and /api/auth/sign-out (a signed-in caller). */
  function identityRoute(req: IncomingMessage, res: ServerResponse, rawPath: string, log: CallLog): void | Promise<void> {
    if (rawPath === AUTH_CONFIG_PATH) {
      if (req.method !== 'GET') return sendError(res, 'method-not-allowed', { headers: { allow: 'GET' } });
      return authConfig(req, res);
    }
    if (rawPath !== ME_PATH && rawPath !== SIGN_OUT_PATH) return sendError(res, 'not-found');
    if (!signIn) return sendError(res, 'sign-in-required', { message: 'This relay has no sign-in; it takes typed API keys.' });
    return rawPath === ME_PATH ? signIn.me(req, res, log) : signIn.signOut(req, res, log);
  }

  function api(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    query: string,
    log: CallLog,
  ): Forwarding | Promise<Forwarding | void> | void {
    for (let i = 0; i < apiHeaders.length; i++) res.setHeader(apiHeaders[i]![0], apiHeaders[i]![1]);
    // Preflights use no rate-limit tokens: the browser sends one before calls it then makes anyway.
    if (req.method === 'OPTIONS') return cors.preflight(req, res);
    if (cors.refused(req)) return sendError(res, 'origin-not-allowed');
    const wait = limiter.take(req.socket.remoteAddress ?? 'unknown');
    if (wait === 0) return limited(req, res, rawPath, query, log);
    if (typeof wait === 'number') return rateLimited(res, wait);
    return wait.then((w) => (w === 0 ? limited(req, res, rawPath, query, log) : rateLimited(res, w)));
  }

  function rateLimited(res: ServerResponse, waitMs: number): void {
    sendError(res, 'rate-limited', { headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) } });
  }

  /** Answers one request; synchronous up to the upstream dispatch for a GET (no promise per request). */
  return function handle(req, res, rawPath, url, q, log) {
    // CORS first: every answer to an allowed origin (refusals included) must be readable by its page.
    cors.decorate(req, res);
    if (parts.closing()) return sendError(res, 'shutting-down', { headers: { connection: 'close' } });
    // HTTP/1.1 requires Host; HTTP/1.0 did not (some load balancers' health checks still send none).
    if (!req.headers.host && req.httpVersionMinor >= 1)
      return sendError(res, 'no-host', { headers: { connection: 'close' } });
    // Only origin-form targets: absolute-form (`GET http://other/`) and asterisk-form ask a proxy to pick a host.
    if (!url.startsWith('/') || url.startsWith('//')) return sendError(res, 'bad-request-target');
    const query = q < 0 ? '' : url.slice(q);
    if (rawPath === '/healthz') {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end(keys ? keysHealth(keys, config.healthShowsKeys) : HEALTHY);
      return;
    }
    if (rawPath === '/api' || rawPath.startsWith('/api/')) return api(req, res, rawPath, query, log);
    if (rawPath === JWKS_PATH) return evidence.jwks(req, res);
    if (files && (req.method === 'GET' || req.method === 'HEAD'))
      return files.serve(req, res, rawPath).then((served) => served || sendError(res, 'not-found'));
    sendError(res, 'not-found');
  };
}
