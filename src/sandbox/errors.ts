/**
 * The service's error answers, from one table (spec, Errors). Bodies are JSON `{ "message" }`; the spec
 * does not show the body format, so this is our assumption, shared with the client (docs/contracts.md).
 */
export const ERRORS = {
  noScheme: { status: 400, message: 'No authenticationScheme was specified.' },
  invalidCredentials: { status: 401, message: 'The credentials are invalid.' },
  forbidden: { status: 403, message: 'Forbidden to execute action.' },
  notFound: { status: 404, message: 'Not found.' },
  methodNotAllowed: { status: 405, message: 'Method not allowed.' },
  tooLarge: { status: 413, message: 'The request body is too large.' },
  rateLimited: { status: 429, message: 'Too many requests. Retry after the time in the Retry-After header.' },
  unavailable: {
    status: 503,
    message: 'The service is temporarily unavailable. Retry after the time in the Retry-After header.',
  },
} as const;
export type ErrorName = keyof typeof ERRORS;

/** One reason a write was rejected: the body field it concerns and what is wrong, for the user to fix. */
export interface Problem {
  field: string;
  message: string;
}

/** What a write handler answers: a success body, a rejection with problems, or one of the table's errors. */
export type Outcome =
  | { kind: 'ok'; status: 200 | 201; body: unknown }
  | { kind: 'rejected'; message: string; problems: Problem[] }
  | { kind: 'error'; error: ErrorName; message?: string };

export const ok = (body: unknown, status: 200 | 201 = 200): Outcome => ({ kind: 'ok', status, body });
export const rejected = (problems: Problem[], message = 'The request was rejected.'): Outcome => ({
  kind: 'rejected',
  message,
  problems,
});
export const failure = (error: ErrorName, message?: string): Outcome => ({ kind: 'error', error, message });

/** The JSON answer of an outcome. */
export function answerOf(o: Outcome): { status: number; body: unknown } {
  switch (o.kind) {
    case 'ok':
      return { status: o.status, body: o.body };
    case 'rejected':
      return { status: 400, body: { message: o.message, errors: o.problems } };
    case 'error':
      return { status: ERRORS[o.error].status, body: { message: o.message ?? ERRORS[o.error].message } };
  }
}
