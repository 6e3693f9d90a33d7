import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalog } from '../catalog';
import { HTTP_METHODS } from '../catalog/placement';
import { sendError } from './errors';

/**
 * CORS for the configured origins only, exact match. Authorization is listed by name (a wildcard never
 * covers it) and Allow-Credentials is never sent: the taskpane sets Authorization from script, it uses no
 * cookies.
 */
export const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Grc-Write-Ref';
/** X-Grc-Relay-Error must be readable cross-origin: without it the taskpane would take a relay refusal for the service's. */
const EXPOSED_HEADERS = 'Retry-After, X-Request-Id, X-Grc-Relay-Error, Location';
const MAX_AGE_SECONDS = '600';

export interface Cors {
  /** The caller's Origin, if it is one the relay may answer (configured, or the relay's own origin). */
  allowedOrigin(req: IncomingMessage): string | null;
  /** True when the request comes from a page the relay must not serve (an Origin that is neither). */
  refused(req: IncomingMessage): boolean;
  /** Adds the headers an actual (non-preflight) answer carries. */
  decorate(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a preflight; browsers get no Allow-Origin for an origin that is not allowed. */
  preflight(req: IncomingMessage, res: ServerResponse): void;
  /**
   * The CORS header lines (each ending CRLF) for a refusal written straight to the socket before there is a
   * request (bad framing): the Origin is read from the bytes Node could not parse, when they hold one.
   */
  rawHeaderLines(packet: Buffer | undefined): string;
}

/** Header bytes looked at for an Origin line: Node's whole header limit is 16 KiB. */
const RAW_SCAN_BYTES = 16 * 1024;
const RAW_ORIGIN = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*(?=\r\n)/gi;

/**
 * The methods a preflight advertises: GET and POST (the relay's own routes: sign-out is a POST), and each
 * method the configured environments' catalogues bind a call to (a customer's file may update with PUT or
 * PATCH). Nothing a configured environment does not use.
 */
export function corsMethods(catalogs: readonly Catalog[]): string {
  const methods = new Set<string>(['GET', 'POST']);
  for (const c of catalogs) for (const e of c.endpoints) if (!e.unavailable) methods.add(e.method);
  return HTTP_METHODS.filter((m) => methods.has(m)).join(', ');
}

export function createCors(
  allowedOrigins: readonly string[],
  scheme: 'http' | 'https',
  /** corsMethods of the configured environments. */
  allowedMethods = 'GET, POST',
): Cors {
  const allowed = new Set(allowedOrigins);

  /** Same-origin calls from the add-in the relay serves itself carry Origin too (on POST); they need no CORS. */
  function sameOrigin(req: IncomingMessage, origin: string): boolean {
    return !!req.headers.host && origin === `${scheme}://${req.headers.host}`;
  }

  function allowedOrigin(req: IncomingMessage): string | null {
    const origin = req.headers.origin;
    return typeof origin === 'string' && allowed.has(origin) ? origin : null;
  }

  return {
    allowedOrigin,
    refused(req) {
      const origin = req.headers.origin;
      return typeof origin === 'string' && !allowed.has(origin) && !sameOrigin(req, origin);
    },
    decorate(req, res) {
      res.setHeader('vary', 'Origin');
      const origin = allowedOrigin(req);
      if (!origin) return;
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    },
    preflight(req, res) {
      res.setHeader('vary', 'Origin');
      const origin = allowedOrigin(req);
      // A refusal says why in the relay's error format (readable by whoever sent it outside a browser).
      if (!origin) {
        if (typeof req.headers.origin === 'string') return sendError(res, 'origin-not-allowed');
        return sendError(res, 'origin-not-allowed', {
          message: 'OPTIONS is answered only as a CORS preflight (with an Origin header) from a web page the relay allows (allowedOrigins).',
        });
      }
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-methods', allowedMethods);
      res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
      res.setHeader('access-control-max-age', MAX_AGE_SECONDS);
      res.statusCode = 204;
      res.setHeader('content-length', 0);
      res.end();
    },
    rawHeaderLines(packet) {
      const vary = 'vary: Origin\r\n';
      if (!packet) return vary;
      // Only a value equal to a configured origin is ever written back, so nothing from the bytes reaches
      // the answer unchecked. Two Origin lines that differ are not guessed between.
      const head = packet.toString('latin1', 0, Math.min(packet.length, RAW_SCAN_BYTES));
      let origin: string | null = null;
      for (const m of head.matchAll(RAW_ORIGIN)) {
        if (origin !== null && origin !== m[1]) return vary;
        origin = m[1]!;
      }
      if (origin === null || !allowed.has(origin)) return vary;
      return `${vary}access-control-allow-origin: ${origin}\r\naccess-control-expose-headers: ${EXPOSED_HEADERS}\r\n`;
    },
  };
}
