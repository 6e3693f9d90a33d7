import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { fillPath, pathSource, type Catalog, type Endpoint } from '../catalog';
import { boundForm, checkForm } from './form-body';
import { boundQuery } from './bound-query';
import { RELAY_ERRORS, sendError } from './errors';
import { Forwarding } from './forward';
import { projectedRead } from './projected-read';
import { basicAuthorization, passesLocation, upstreamRequestHeaders } from './headers';
import { keyTag, type CallLog } from './log';
import type { BodyBudget } from './body-budget';
import type { Caller, Evidence } from './evidence';
import { hasBody, isJson, readBody } from './request-body';
import type { Upstream } from './upstream';
import { bearerToken, type SignIn } from './signed-in';

export interface ProxyDeps {
  /** The catalogue of the named environment (built from its binding), matched against a method and raw path. */
  match: (env: string, method: string, rawPath: string) => ReturnType<Catalog['match']>;
  /** The endpoint of the named environment its binding lacks, at this method and raw path, if any. */
  unavailable: (env: string, method: string, rawPath: string) => Endpoint | undefined;
  upstreams: ReadonlyMap<string, Upstream>;
  bodyLimit: number;
  /** POST bytes held at once, across connections and per address. */
  bodyBudget: BodyBudget;
  /** Longest pause within a request body. */
  bodyIdleMs: number;
  timeoutMs: number;
  /** Longest time a client may take no bytes of an answer. */
  clientWriteTimeoutMs: number;
  /** Shorter deadline for a client that takes no bytes while other callers wait for a connection. */
  clientStallUnderLoadMs: number;
  /** Upstream calls in flight per client address, and the most allowed. */
  inFlight: Map<string, number>;
  inFlightLimit: number;
  /** Sign-in, when the relay has an identity provider: Bearer calls go through it. */
  signIn?: SignIn;
  /** false: a typed key (Basic) is refused. */
  personalKeys: boolean;
  /** Signs statements of dataset downloads and writes (evidence.ts). */
  evidence?: Evidence;
}

/** A request refused before its body is read to the end: the connection cannot carry another request. */
const CLOSE = { headers: { connection: 'close' } };
const BUSY = { headers: { connection: 'close', 'retry-after': '1' } };
const RETRY_SOON = { headers: { 'retry-after': '1' } };

const LAST_KEY = Symbol('last key tag');
type TaggedSocket = Socket & { [LAST_KEY]?: { authorization: string; tag: string | undefined } };

/**
 * keyTag, remembered for the last Authorization seen on this connection: a taskpane (or any keep-alive
 * client) sends the same header on every call, and the hash is a visible share of a small GET. Kept on the
 * connection that carries the header anyway, and gone with it: the relay keeps no table of credentials.
 */
function connectionKeyTag(socket: TaggedSocket, authorization: string): string | undefined {
  const last = socket[LAST_KEY];
  if (last !== undefined && last.authorization === authorization) return last.tag;
  const tag = keyTag(authorization);
  socket[LAST_KEY] = { authorization, tag };
  return tag;
}

/**
 * Forwards `/api/<env>/<catalogue path>`. The upstream path is built from the catalogue's template and the
 * checked parameters, never from the request URL; anything the catalogue does not list is refused here and
 * nothing is sent. Synchronous for a GET; a POST's promise settles once its body is read and sent.
 */
export function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  envName: string,
  rawRest: string,
  query: string,
  deps: ProxyDeps,
  log: CallLog,
): Forwarding | Promise<Forwarding | void> | void {
  const upstream = deps.upstreams.get(envName);
  if (!upstream) return sendError(res, 'unknown-environment');
  log.env = envName;
  const match = deps.match(envName, req.method ?? '', rawRest);
  if (!match.ok) {
    if (match.reason === 'method-not-allowed')
      return sendError(res, 'method-not-allowed', { headers: { allow: match.allow.join(', ') } });
    const lacking = deps.unavailable(envName, req.method ?? '', rawRest);
    if (lacking?.unavailable)
      return sendError(res, 'endpoint-unavailable', {
        message: `${RELAY_ERRORS['endpoint-unavailable'][1]} ${lacking.unavailable.message}`,
      });
    return sendError(res, 'not-catalogued');
  }
  const { endpoint, params } = match;
  log.route = endpoint.id;
  // No blind posts: a write whose path neither the spec nor this environment's binding shows is not sent
  // to production.
  if (endpoint.method !== 'GET' && upstream.production && pathSource(endpoint) === 'assumed')
    return sendError(res, 'path-assumed');
  // Only the query parameters the environment's binding places are forwarded (bound-query.ts).
  const forwardedQuery = boundQuery(endpoint, query);
  if (forwardedQuery === null) return sendError(res, 'query-not-allowed');
  const headers = upstreamRequestHeaders(req.headers);
  const authorization = basicAuthorization(headers);
  const path = upstream.basePath + fillPath(endpoint.path, params) + forwardedQuery;
  if (!authorization) {
    const token = deps.signIn ? bearerToken(headers.authorization) : null;
    if (token === null) return sendError(res, deps.signIn ? 'sign-in-required' : 'no-credentials');
    // The token never goes upstream: the held key replaces it once the checks pass.
    return deps.signIn!.call(res, token, envName, endpoint, headers, log, (implied) => {
      const caller = deps.evidence?.personCaller(deps.signIn!.checker, token, envName, endpoint, log);
      if (!implied || endpoint.kind !== 'dataset' || hasBody(req)) return onward(req, res, upstream, endpoint, path, headers, deps, log, caller);
      const witness = caller && ((service: Uint8Array, sent: Buffer) => deps.evidence!.projected(res, caller, envName, endpoint, path, service, sent, implied));
      return projectedRead(res, upstream, endpoint, path, headers, implied, deps.timeoutMs, log, witness);
    });
  }
  if (!deps.personalKeys) return sendError(res, 'personal-keys-off');
  log.key = connectionKeyTag(req.socket, authorization);
  return onward(req, res, upstream, endpoint, path, headers, deps, log,
    deps.evidence?.keyCaller(authorization, log.key ?? ''));
}

/** Sends a checked call: a GET at once, a POST once its body is read and is JSON. */
function onward(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: Upstream,
  endpoint: Endpoint,
  path: string,
  headers: Record<string, string>,
  deps: ProxyDeps,
  log: CallLog,
  caller: Caller | undefined,
): Forwarding | Promise<Forwarding | void> | void {
  if (endpoint.method === 'GET') {
    if (hasBody(req)) return sendError(res, 'body-not-allowed', CLOSE);
    return send(upstream, endpoint, path, headers, undefined, deps, res, log, caller);
  }
  if (!hasBody(req)) return send(upstream, endpoint, path, headers, undefined, deps, res, log, caller);
  // A body goes as the environment's binding says: JSON, or the form its API file takes (form-body.ts).
  const form = boundForm(endpoint);
  if (form ? !checkForm.media(form, req.headers['content-type']) : !isJson(req))
    return sendError(res, form ? 'form-only' : 'json-only', CLOSE);
  return readBody(req, {
    limit: deps.bodyLimit,
    budget: deps.bodyBudget,
    address: req.socket.remoteAddress ?? 'unknown',
    idleMs: deps.bodyIdleMs,
  }).then((read) => {
    if (!read.ok) {
      if (read.reason === 'too-large') return sendError(res, 'body-too-large', CLOSE);
      if (read.reason === 'busy') return sendError(res, 'relay-busy', BUSY);
      if (read.reason === 'timeout') return sendError(res, 'body-timeout', CLOSE);
      return;
    }
    // The bytes count against the budget until the exchange is over (undici holds the body until then).
    res.once('close', read.release);
    if (form) {
      const refused = checkForm.body(endpoint, read.body, req.headers['content-type']);
      if (refused) return sendError(res, 'invalid-form', { message: `${RELAY_ERRORS['invalid-form'][1]} ${refused}` });
      return send(upstream, endpoint, path, headers, read.body, deps, res, log, caller);
    }
    try {
      JSON.parse(read.body.toString('utf8'));
    } catch {
      return sendError(res, 'invalid-json');
    }
    return send(upstream, endpoint, path, headers, read.body, deps, res, log, caller);
  });
}

function send(
  upstream: Upstream,
  endpoint: Endpoint,
  path: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  deps: ProxyDeps,
  res: ServerResponse,
  log: CallLog,
  caller: Caller | undefined,
): Forwarding | undefined {
  const address = res.req.socket.remoteAddress ?? 'unknown';
  const mine = deps.inFlight.get(address) ?? 0;
  // Never more than half an environment's connections, so one address always leaves room for the others.
  if (mine >= Math.min(deps.inFlightLimit, Math.max(1, upstream.connections >> 1))) {
    sendError(res, 'too-many-in-flight', RETRY_SOON);
    return undefined;
  }
  // Counted down by the Forwarding when the exchange is over (the server's one close listener).
  deps.inFlight.set(address, mine + 1);
  if (body) headers['content-length'] = String(body.length);
  else delete headers['content-type'];
  const options: Dispatcher.DispatchOptions = {
    method: endpoint.method,
    path,
    headers,
    body,
    headersTimeout: deps.timeoutMs,
    bodyTimeout: deps.timeoutMs,
  };
  // A write (POST, PUT, PATCH) is never retried: the service may have acted on it.
  const forwarding = new Forwarding({
    upstream,
    request: options,
    res,
    log,
    retryOnce: endpoint.method === 'GET',
    writeTimeoutMs: deps.clientWriteTimeoutMs,
    inFlight: deps.inFlight,
    address,
    stallUnderLoadMs: deps.clientStallUnderLoadMs,
  });
  forwarding.passLocation = passesLocation(endpoint);
  if (caller) forwarding.tap = deps.evidence!.tap(res, caller, upstream.name, endpoint, path, headers, body);
  forwarding.start();
  // This call waits for a connection while a client that has stopped reading holds one: cut that client
  // (longest stalled first) rather than keep this caller waiting up to clientWriteTimeoutMs. No cost in
  // the common case: the pool's stats are only read when some answer is stalled.
  if (upstream.stalled.size > 0 && upstream.pool.stats.queued > 0)
    upstream.stalled.values().next().value?.cutStalled();
  return forwarding;
}
