import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { fillPath, type Catalog } from '../catalog';
import { sendError } from './errors';
import { forward } from './forward';
import { basicAuthorization, upstreamRequestHeaders } from './headers';
import { keyTag } from './log';
import { hasBody, isJson, readBody } from './request-body';
import type { Upstream } from './upstream';

/** What the access log line says about a proxied call; filled in as the call goes. */
export interface CallLog {
  route?: string;
  env?: string;
  key?: string;
  upstreamError?: string;
  bytes: number;
}

export interface ProxyDeps {
  match: Catalog['match'];
  upstreams: ReadonlyMap<string, Upstream>;
  bodyLimit: number;
  timeoutMs: number;
}

/** A request refused before its body is read to the end: the connection cannot carry another request. */
const CLOSE = { headers: { connection: 'close' } };

/**
 * Forwards `/api/<env>/<catalogue path>`. The upstream path is built from the catalogue's template and the
 * checked parameters, never from the request URL; anything the catalogue does not list is refused here and
 * nothing is sent.
 */
export async function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  envName: string,
  rawRest: string,
  query: string,
  deps: ProxyDeps,
  log: CallLog,
): Promise<void> {
  const upstream = deps.upstreams.get(envName);
  if (!upstream) return sendError(res, 'unknown-environment');
  log.env = envName;
  const match = deps.match(req.method ?? '', rawRest);
  if (!match.ok) {
    if (match.reason === 'method-not-allowed')
      return sendError(res, 'method-not-allowed', { headers: { allow: match.allow.join(', ') } });
    return sendError(res, 'not-catalogued');
  }
  const { endpoint, params } = match;
  log.route = endpoint.id;
  // The catalogue lists no query parameters for any endpoint, so any query (even a bare `?`) is an unlisted one.
  if (query !== '') return sendError(res, 'query-not-allowed');
  const authorization = basicAuthorization(req.headers);
  if (!authorization) return sendError(res, 'no-credentials');
  log.key = keyTag(authorization);

  let body: Buffer | undefined;
  if (endpoint.method === 'GET') {
    if (hasBody(req)) return sendError(res, 'body-not-allowed', CLOSE);
  } else if (hasBody(req)) {
    if (!isJson(req)) return sendError(res, 'json-only', CLOSE);
    const read = await readBody(req, deps.bodyLimit);
    if (!read.ok) return read.reason === 'too-large' ? sendError(res, 'body-too-large', CLOSE) : undefined;
    try {
      JSON.parse(read.body.toString('utf8'));
    } catch {
      return sendError(res, 'invalid-json');
    }
    body = read.body;
  }

  const headers = upstreamRequestHeaders(req.headers);
  if (body) headers['content-length'] = String(body.length);
  else delete headers['content-type'];
  const options: Dispatcher.DispatchOptions = {
    method: endpoint.method,
    path: upstream.basePath + fillPath(endpoint.path, params),
    headers,
    body,
    headersTimeout: deps.timeoutMs,
    bodyTimeout: deps.timeoutMs,
  };
  // POST is never retried: the service may have acted on it.
  return forward(upstream, options, res, log, endpoint.method === 'GET');
}
