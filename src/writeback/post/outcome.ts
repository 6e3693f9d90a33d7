import { isApiError } from '../../client';

/**
 * What a failed send means for the row. The one question is whether the service may have acted:
 * - `retry`: nothing reached the service (connection refused), or it said "not now" with Retry-After;
 * - `not sent`: nothing was done, but retrying now is pointless; a later Post sends the row again;
 * - `failed`: the service refused the row; fix it and clear Result to send it again;
 * - `unknown`: the request may have been processed; the row is checked in the service before any resend.
 * `stop` ends the whole run: every other row would fail the same way (the key is not accepted).
 */
export type Verdict =
  /** `afterMs` undefined: no word from the service (connection refused), so the runner backs off itself. */
  | { kind: 'retry'; afterMs: number | undefined; message: string }
  | { kind: 'not sent' | 'failed' | 'unknown'; message: string; stop?: boolean };

export function verdictOf(e: unknown): Verdict {
  if (!isApiError(e)) {
    // Not the client's error: a bug or a host failure mid-request; assume the worst for a POST.
    return {
      kind: 'unknown',
      message: `Outcome unknown (${e instanceof Error ? e.message : String(e)}); check before retrying`,
    };
  }
  switch (e.code) {
    case 'unreachable':
      return { kind: 'retry', afterMs: undefined, message: `Not sent: ${e.message}` };
    case 'rate-limited':
    case 'unavailable':
      // The spec's service answers these before acting; without Retry-After we leave the row for later.
      return e.retryAfterMs !== undefined
        ? { kind: 'retry', afterMs: e.retryAfterMs, message: `Not sent: ${e.message}` }
        : { kind: 'not sent', message: `Not sent: ${e.message}; Post again later` };
    case 'cancelled':
      return e.sent === 'no'
        ? { kind: 'not sent', message: 'Not sent: cancelled' }
        : {
            kind: 'unknown',
            message: 'Outcome unknown: cancelled while the service was answering; check before retrying',
          };
    case 'invalid-credentials':
    case 'no-auth-scheme':
      return { kind: 'not sent', message: `Not sent: ${e.message}`, stop: true };
    case 'rejected':
    case 'invalid-body':
    case 'forbidden':
    case 'not-found':
      // The client's message already lists the fields of `details`.
      return { kind: 'failed', message: e.message };
    case 'relay':
      if (e.sent === 'no') return { kind: 'retry', afterMs: undefined, message: `Not sent: ${e.message}` };
      return e.sent === 'yes' ? { kind: 'failed', message: e.message } : unknown(e.message);
    case 'server-error':
    case 'outcome-unknown':
    case 'bad-answer':
      // A 500 or an answer we cannot read may follow a commit: the record may exist.
      return unknown(e.message);
  }
}

const unknown = (why: string): Verdict => ({
  kind: 'unknown',
  message: `Outcome unknown, check before retrying (${why})`,
});
