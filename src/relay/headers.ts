import type { IncomingHttpHeaders } from 'node:http';

/** RFC 9110 §7.6.1 hop-by-hop headers, plus Proxy-Authorization, which is meant for us, not the service. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * What the service may see of a caller's request. An allowlist: anything else (cookies, X-Forwarded-*,
 * Host, Origin, the caller's own proxy headers) stays here. Host is always the upstream's (undici sets it).
 */
const REQUEST_ALLOW = new Set([
  'authorization',
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
]);

/**
 * What the caller may see of the service's answer. Set-Cookie and the service's own CORS headers are not
 * here (the relay owns CORS); neither is WWW-Authenticate, which would make the webview pop up a login box.
 */
const RESPONSE_ALLOW = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'etag',
  'last-modified',
  'retry-after',
  'date',
]);

/** Header names listed in Connection: the sender marked them hop-by-hop, so they go no further. */
function connectionNamed(value: string | string[] | undefined): Set<string> {
  const list = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    list
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

const NONE: ReadonlySet<string> = new Set();

/** Walks the (short) allowlist rather than the caller's headers; Node and undici both give lower-case names. */
function pick(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  allow: ReadonlySet<string>,
): Record<string, string> {
  const named = headers.connection === undefined ? NONE : connectionNamed(headers.connection);
  const out: Record<string, string> = {};
  for (const key of allow) {
    const value = headers[key];
    if (value === undefined || HOP_BY_HOP.has(key) || named.has(key)) continue;
    out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function upstreamRequestHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return pick(headers, REQUEST_ALLOW);
}

export function clientResponseHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  return pick(headers, RESPONSE_ALLOW);
}

/** The Authorization value the caller sent, if it is HTTP Basic; Connection can strip it like any other header. */
export function basicAuthorization(headers: IncomingHttpHeaders): string | null {
  const value = upstreamRequestHeaders(headers).authorization;
  return value && /^Basic [A-Za-z0-9+/=]+$/i.test(value.trim()) ? value.trim() : null;
}
