import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Endpoint } from '../catalog';

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
  // Only on a write's answer whose new id is read from it (passesLocation).
  'location',
]);

/**
 * Whether the service's Location reaches the caller: only on a write's answer where the new id is read
 * from it (the binding places the answer in the Location header, or places nothing and readCreatedId
 * looks there first). Never on a read: a GET's Location would only show the service's internal paths.
 */
export function passesLocation(endpoint: Endpoint): boolean {
  if (endpoint.kind !== 'operation' || endpoint.method === 'GET') return false;
  const answer = endpoint.binding?.answer;
  return !answer || answer.in === 'header';
}

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
/** What browsers send on every HTTP/1.1 request: names nothing but itself, already hop-by-hop. */
const KEEP_ALIVE_ONLY: ReadonlySet<string> = new Set(['keep-alive']);

function connectionNamedIn(headers: Record<string, string | string[] | undefined>): ReadonlySet<string> {
  const connection = headers.connection;
  if (connection === undefined) return NONE;
  return connection === 'keep-alive' ? KEEP_ALIVE_ONLY : connectionNamed(connection);
}

/** Walks the (short) allowlist rather than the caller's headers; Node and undici both give lower-case names. */
function pick(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  allow: ReadonlySet<string>,
): Record<string, string> {
  const named = connectionNamedIn(headers);
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

/** Printable ASCII and tab: the only bytes a header value the relay sends may hold. */
const SAFE_VALUE = /^[\t\x20-\x7e]*$/;

/** The characters a file name keeps in the plain `filename="..."` fallback; the rest become `_`. */
const FALLBACK_UNSAFE = /[^\x20-\x7e]|["\\]/g;

/**
 * A Content-Disposition holding non-ASCII, rewritten as RFC 6266 `filename*=UTF-8''...` (percent-encoded,
 * so no byte of it can end the header line) with an ASCII `filename` fallback; null when it cannot be read.
 * undici hands header bytes over as latin1 characters, so a UTF-8 name is decoded from those bytes first.
 */
function encodeDisposition(value: string): string | null {
  // eslint-disable-next-line no-control-regex
  const text = /^[\x00-\xff]*$/.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
  const type = /^\s*(attachment|inline)\s*(?:;|$)/i.exec(text)?.[1]?.toLowerCase();
  const name = /;\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(text);
  if (!type || !name) return null;
  const filename = (name[1] ?? name[2] ?? '').replace(/\\(.)/g, '$1').trim();
  if (filename === '') return null;
  const fallback = filename.replace(FALLBACK_UNSAFE, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The value the caller gets, or null to drop the header. Checked after every transformation, for every
 * copied header: a byte outside printable ASCII (U+010D, U+010A, which Node sends as CR LF) could end the
 * header line and add headers of the service's choosing to the relay's answer.
 */
export function safeHeaderValue(key: string, value: string): string | null {
  if (SAFE_VALUE.test(value)) return value;
  if (key !== 'content-disposition') return null;
  const encoded = encodeDisposition(value);
  return encoded !== null && SAFE_VALUE.test(encoded) ? encoded : null;
}

/** Sets on the caller's answer the service's headers it may see; Location only when `location` (passesLocation). */
export function copyResponseHeaders(
  headers: Record<string, string | string[] | undefined>,
  res: ServerResponse,
  location = false,
): void {
  const named = connectionNamedIn(headers);
  for (const key of RESPONSE_ALLOW) {
    const value = headers[key];
    if (value === undefined || HOP_BY_HOP.has(key) || named.has(key) || (key === 'location' && !location)) continue;
    const safe = safeHeaderValue(key, Array.isArray(value) ? value.join(', ') : value);
    if (safe !== null) res.setHeader(key, safe);
  }
}

const BASIC = /^Basic [A-Za-z0-9+/=]+$/i;

/**
 * The Authorization value the caller sent, if it is HTTP Basic. Takes the headers as picked for the
 * upstream (upstreamRequestHeaders), so Connection can strip it like any other header.
 */
export function basicAuthorization(forwarded: Record<string, string>): string | null {
  const value = forwarded.authorization?.trim();
  return value && BASIC.test(value) ? value : null;
}
