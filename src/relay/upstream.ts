import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Pool } from 'undici';
import type { EnvironmentConfig } from './config';
import type { RelayErrorCode } from './errors';

/** One keep-alive pool per configured environment; certificates are always verified. */
export interface Upstream {
  name: string;
  production: boolean;
  pool: Pool;
  /** The most connections the pool opens (environments.<name>.connections). */
  connections: number;
  /** Path of the API root on the upstream host (`/api`), catalogue paths are appended to it. */
  basePath: string;
  /**
   * Answers whose client has taken no bytes for limits.clientStallUnderLoadMs, longest-stalled first: the
   * first to cut when another caller waits for a connection (see Forwarding).
   */
  stalled: Set<{ cutStalled(): void }>;
}

export function createUpstream(name: string, env: EnvironmentConfig, timeoutMs: number): Upstream {
  const url = new URL(env.baseUrl);
  // An extra CA is added to the system's, not put in place of them.
  const ca = env.ca ? [...rootCertificates, readFileSync(env.ca, 'utf8')] : undefined;
  const pool = new Pool(url.origin, {
    connections: env.connections,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { rejectUnauthorized: true, ...(ca ? { ca } : {}), timeout: Math.min(timeoutMs, 10_000) },
  });
  return {
    name,
    production: env.production,
    pool,
    connections: env.connections,
    basePath: url.pathname.replace(/\/+$/, ''),
    stalled: new Set(),
  };
}

const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function codeOf(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  return String(err?.code ?? err?.cause?.code ?? '');
}

function isCertificateError(code: string): boolean {
  return code.startsWith('ERR_TLS_') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);
}

/** What an upstream failure means for the caller: the relay's error code, and whether a GET may be retried. */
export function classifyUpstreamError(e: unknown): {
  code: RelayErrorCode;
  retryGet: boolean;
  detail: string;
} {
  const code = codeOf(e);
  if (isCertificateError(code))
    return { code: 'upstream-untrusted-certificate', retryGet: false, detail: code };
  if (NOT_CONNECTED.has(code)) return { code: 'upstream-unreachable', retryGet: true, detail: code };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return { code: 'upstream-timeout', retryGet: false, detail: code };
  // A kept-alive connection the upstream closed just as we reused it: the usual case for one GET retry.
  if (LOST.has(code)) return { code: 'upstream-failed', retryGet: true, detail: code };
  return { code: 'upstream-failed', retryGet: false, detail: code || (e as Error)?.name || 'unknown' };
}
