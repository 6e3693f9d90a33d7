import type { SandboxGap } from '../contracts/sandbox-gap';
import type { RelayRefusal } from './relay-reference';

/**
 * The one error type of the client. `code` says what happened in terms a caller can branch on, `message`
 * says what the user can do about it, and `sent` says whether the service may have acted on the request,
 * which is what decides whether a write may be retried.
 */
export const API_ERROR_CODES = [
  'no-auth-scheme',
  'invalid-credentials',
  'forbidden',
  'rejected',
  'invalid-body',
  'not-found',
  'rate-limited',
  'unavailable',
  'server-error',
  'relay',
  'unreachable',
  'outcome-unknown',
  'bad-answer',
  'cancelled',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * - `no`: nothing reached the service; retrying is safe.
 * - `yes`: the service answered; it decided.
 * - `unknown`: the request may have been processed but no complete answer came; never blindly retry a POST.
 */
export type Sent = 'no' | 'yes' | 'unknown';

export interface ErrorDetail {
  field: string;
  message: string;
  /** A list answer's record it is about, counted from 1 (a download's bad-answer). */
  record?: number;
}

export interface ApiErrorInit {
  code: ApiErrorCode;
  message: string;
  sent: Sent;
  status?: number;
  details?: ErrorDetail[];
  retryAfterMs?: number;
  /** Catalogue id of the dataset or operation called. */
  endpoint?: string;
  /** A 404 the practice sandbox says is about itself (contracts/sandbox.ts), not about the service. */
  sandboxGap?: SandboxGap;
  /** The relay refused (or answered for the service): its code, status and sentence, apart from `message`. */
  relay?: RelayRefusal;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly sent: Sent;
  readonly status?: number;
  readonly details?: ErrorDetail[];
  readonly retryAfterMs?: number;
  readonly endpoint?: string;
  readonly sandboxGap?: SandboxGap;
  readonly relay?: RelayRefusal;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.sent = init.sent;
    if (init.status !== undefined) this.status = init.status;
    if (init.details !== undefined) this.details = init.details;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.sandboxGap !== undefined) this.sandboxGap = init.sandboxGap;
    if (init.relay !== undefined) this.relay = init.relay;
  }
}

/** Also true for an ApiError from another copy of this module (two bundles, jest module registries). */
export function isApiError(e: unknown): e is ApiError {
  if (e instanceof ApiError) return true;
  if (typeof e !== 'object' || e === null) return false;
  const o = e as { name?: unknown; code?: unknown };
  return (
    o.name === 'ApiError' &&
    typeof o.code === 'string' &&
    (API_ERROR_CODES as readonly string[]).includes(o.code)
  );
}
