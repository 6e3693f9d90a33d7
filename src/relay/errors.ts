import type { ServerResponse } from 'node:http';
import { RELAY_ERROR_HEADER } from '../contracts/environments';

/**
 * The relay's own refusals, in one table. The body is `{"error": {"code", "message"}}` and the answer carries
 * `X-Grc-Relay-Error: <code>`: the header, not the body, tells the client a refusal is the relay's (the
 * service may answer in the same body shape, and its answers never carry the header: see headers.ts).
 * Messages say what to do.
 */
export const RELAY_ERRORS = {
  'bad-request': [400, 'The request is malformed.'],
  'bad-request-target': [
    400,
    'The relay only accepts paths such as /api/<environment>/<dataset path>; it does not proxy to other hosts.',
  ],
  'query-not-allowed': [400, 'This call takes no query parameters; remove them.'],
  'body-not-allowed': [400, 'A GET request carries no body.'],
  'invalid-json': [400, 'The request body is not valid JSON.'],
  'invalid-form': [400, 'The request body is not a valid form for this call.'],
  'no-credentials': [
    401,
    'Sign in first: the call needs the API key as HTTP Basic credentials (Authorization: Basic ...).',
  ],
  'sign-in-required': [401, 'Sign in first: this relay takes signed-in people (Authorization: Bearer <access token>).'],
  'token-expired': [401, 'The sign-in has expired: renew it, or sign in again.'],
  'token-invalid': [401, 'The sign-in token is not accepted: sign in again.'],
  'signed-out': [401, 'This sign-in was ended (signed out): sign in again.'],
  'personal-keys-off': [
    403,
    'This relay does not take typed API keys: sign in with your organization account instead. The relay holds the keys.',
  ],
  'policy-refused': [403, "The relay's policy does not let you make this call."],
  'origin-not-allowed': [
    403,
    'This web page is not allowed to use the relay. Ask the relay administrator to add its origin to allowedOrigins.',
  ],
  'not-found': [404, 'There is no such page.'],
  'unknown-environment': [
    404,
    'There is no such environment on this relay. GET /api/environments lists them.',
  ],
  'not-catalogued': [
    404,
    'The relay forwards only the service calls grc-sheets knows; this path is not one of them.',
  ],
  'path-assumed': [
    403,
    "This write is not sent: this environment is production and the path of the call is assumed (neither documented nor bound). Its administrator imports the service's Swagger file and sets environments.<name>.binding (docs/binding.md).",
  ],
  'endpoint-unavailable': [
    404,
    "This environment's binding does not have this call (missing from its Swagger file, or ambiguous and not picked); see the import report and docs/binding.md.",
  ],
  'method-not-allowed': [405, 'This method is not allowed on this path.'],
  'body-too-large': [413, 'The request body is larger than the relay accepts; send fewer rows per request.'],
  'json-only': [415, 'POST bodies must be JSON (Content-Type: application/json).'],
  'form-only': [
    415,
    "This call takes a form body, as this environment's API file says (Content-Type: application/x-www-form-urlencoded or multipart/form-data, the one its binding names).",
  ],
  'body-timeout': [408, 'The request body stopped arriving; send it again.'],
  'relay-busy': [
    503,
    'The relay is holding as many request bodies as it may right now; try again in a moment.',
  ],
  'no-host': [400, 'The request has no Host header; HTTP/1.1 requires one.'],
  'too-many-in-flight': [
    429,
    'Too many calls from this address are still in progress; wait for some to finish and try again.',
  ],
  'rate-limited': [429, 'Too many requests from this address; wait and try again.'],
  'person-rate-limited': [429, 'Too many requests from you (all your devices together); wait and try again.'],
  'person-too-many-in-flight': [
    429,
    'Too many of your calls are still in progress; wait for some to finish and try again.',
  ],
  'key-unavailable': [
    503,
    'The relay holds no usable key for this environment; its administrator finds why in the relay log and /healthz.',
  ],
  'upstream-unreachable': [
    502,
    'The service could not be reached; nothing was sent. Try again later, or check the environment address in the relay configuration.',
  ],
  'upstream-untrusted-certificate': [
    502,
    'The service presented a TLS certificate the relay does not trust, so nothing was sent. Check the environment address, or give the relay its CA (environments.<name>.ca).',
  ],
  'upstream-redirect': [
    502,
    'The service answered with a redirect, which the relay does not follow. Check the environment address in the relay configuration.',
  ],
  'upstream-failed': [
    502,
    'The connection to the service broke before a complete answer came back; the call may or may not have taken effect.',
  ],
  'upstream-timeout': [504, 'The service did not answer in time; the call may or may not have taken effect.'],
  'relay-error': [
    500,
    'The relay failed on this request; its administrator can find the cause in the log by the X-Request-Id of this answer.',
  ],
  'shutting-down': [503, 'The relay is restarting; try again in a moment.'],
  'statement-not-found': [
    404,
    'There is no such statement on this relay: it expired (statements wait evidence.statementTtlSeconds after their answer) or was never made.',
  ],
  'statement-not-yours': [403, "This statement is about another caller's request: only the caller who made it may fetch it."],
  'statement-not-signed': [500, 'The relay could not hash this answer, so it signed nothing for it; the message says why.'],
} as const satisfies Record<string, readonly [number, string]>;

export type RelayErrorCode = keyof typeof RELAY_ERRORS;

export function errorBody(
  code: RelayErrorCode,
  message: string = RELAY_ERRORS[code][1],
  fields?: Record<string, string>,
): string {
  return JSON.stringify({ error: { code, message, ...fields } });
}

/** Sends a relay error unless the response has already started (then the connection is cut instead). */
export function sendError(
  res: ServerResponse,
  code: RelayErrorCode,
  extra: { message?: string; headers?: Record<string, string>; fields?: Record<string, string> } = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(code, extra.message, extra.fields);
  res.statusCode = RELAY_ERRORS[code][0];
  for (const [k, v] of Object.entries(extra.headers ?? {})) res.setHeader(k, v);
  res.setHeader(RELAY_ERROR_HEADER, code);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}
