import type { Endpoint } from '../catalog';
import { ApiError } from './api-error';
import { afterUnknownOutcome } from './error-answer';

/**
 * Node's error codes (carried on fetch's TypeError as `cause.code`) that mean the connection was never
 * made, so nothing reached the service. Anything else may have happened after the request went out.
 */
const NOTHING_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const CERTIFICATE =
  /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID)/;

/** Where the failure happened: before any answer came (fetch rejected) or while reading the body. */
export type Stage = 'request' | 'body';

/**
 * Turns a thrown fetch or body-read failure into an ApiError. Must not be given ApiErrors (callers
 * rethrow those). A browser's generic "Failed to fetch" says nothing about how far the request got, so
 * it is `unknown`.
 */
export function errorFromFailure(
  endpoint: Endpoint,
  failure: unknown,
  stage: Stage,
  signal?: AbortSignal,
): ApiError {
  const base = { endpoint: endpoint.id, cause: failure };
  const write = endpoint.method === 'POST';
  if (signal?.aborted) {
    // By name, not instanceof: the DOMException may come from another realm (a test runner's, an iframe's).
    if ((signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError') {
      return new ApiError({
        ...base,
        code: 'outcome-unknown',
        sent: 'unknown',
        message: `No complete answer came in time; ${afterUnknownOutcome(write)}`,
      });
    }
    return new ApiError({
      ...base,
      code: 'cancelled',
      sent: stage === 'request' ? 'unknown' : 'yes',
      message: 'Cancelled.',
    });
  }
  const code = stage === 'request' ? causeCode(failure) : undefined;
  if (code && NOTHING_SENT.has(code)) {
    return new ApiError({
      ...base,
      code: 'unreachable',
      sent: 'no',
      message: `Could not connect to the service (${code}): check the base URL and that the service or relay is running and reachable. Nothing was sent, so trying again is safe.`,
    });
  }
  if (code && CERTIFICATE.test(code)) {
    return new ApiError({
      ...base,
      code: 'unreachable',
      sent: 'no',
      message: `The server's certificate was not accepted (${code}): check the base URL, or install the certificate authority that signed it. Nothing was sent.`,
    });
  }
  if (stage === 'request' && causeMessage(failure) === 'unexpected redirect') {
    // Node's fetch refusing a redirect a request with a body does not follow (request.ts): an answer came, a 3xx.
    return new ApiError({
      ...base,
      code: 'outcome-unknown',
      sent: 'unknown',
      message: `The service answered with a redirect, which a write never follows: check the base URL (the service's own address, not one that forwards it); ${afterUnknownOutcome(write)}`,
    });
  }
  const when = stage === 'request' ? 'before an answer came' : 'in the middle of the answer';
  return new ApiError({
    ...base,
    code: 'outcome-unknown',
    sent: 'unknown',
    message: `The connection broke ${when}; ${afterUnknownOutcome(write)}`,
  });
}

/** `cause.code`, or the first code of an AggregateError cause (Node tries IPv6 and IPv4 addresses in turn). */
function causeCode(e: unknown): string | undefined {
  const cause = (e as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  if (!cause) return undefined;
  if (typeof cause.code === 'string') return cause.code;
  const inner = cause.errors?.find((x) => typeof x?.code === 'string')?.code;
  return typeof inner === 'string' ? inner : undefined;
}

const causeMessage = (e: unknown): unknown => (e as { cause?: { message?: unknown } } | undefined)?.cause?.message;
