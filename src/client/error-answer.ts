import type { Endpoint } from '../catalog';
import { RELAY_ERROR_HEADER } from '../contracts/environments';
import { SANDBOX_GAP_MEMBER, sandboxGap, type SandboxGap } from '../contracts/sandbox-gap';
import { ApiError, type ApiErrorCode, type ErrorDetail, type Sent } from './api-error';
import { relaySays } from './relay-reference';
import { retryAfterMs } from './retry-after';

/** What an error answer said, in whichever of the known shapes it came. */
interface Said {
  message?: string;
  details?: ErrorDetail[];
  /** Set when the body was not JSON: a short, single-line excerpt to show the user. */
  excerpt?: string;
  /** The practice sandbox's mark on a 404 about itself. */
  gap?: SandboxGap;
}

const NO_AUTH_SCHEME = 'No authenticationScheme was specified';
const FORBIDDEN_TEXT = 'Forbidden to execute action';

const INVALID_CREDENTIALS =
  'The API key was refused: it may have expired, been revoked or recreated, belong to the other environment (ACC/PRD), ' +
  'or the calling address is not allowed. If the address is new, the key owner can approve it under Requested IP addresses ' +
  "on their profile's API page, then save.";

const FORBIDDEN =
  'The service refused the action (Forbidden to execute action): the API key or its owner lacks the right for it. ' +
  'DirectData needs a key owned by an Application Administrator with Get direct data; other reads need their API selected on the key; ' +
  'writes need a key owned by an Application Administrator, and some need a role on the record (assessor or responsible of the incident, ' +
  "assigned tester or control administrator, the task's responsible user or reviewer).";

/**
 * Turns a non-2xx answer into an ApiError. Bodies come in three shapes: the relay's own refusals
 * `{error: {code, message}}` with the RELAY_ERROR_HEADER (docs/contracts.md), the service's `{message, errors?: [{field, message}]}`
 * (its format is not shown in the spec: the sandbox's assumption), and anything else (an HTML page from a
 * gateway, an empty body), which gives a message with the status rather than a crash.
 */
export function errorFromAnswer(
  endpoint: Endpoint,
  status: number,
  headers: Headers,
  body: string,
): ApiError {
  const relayCode = headers.get(RELAY_ERROR_HEADER);
  if (relayCode)
    return relayError(endpoint, status, headers, {
      code: relayCode,
      message: relayMessage(body) ?? relayCode,
    });
  const said = readBody(body);
  const base = { status, endpoint: endpoint.id };
  const serviceSays = said.message
    ? ` The service says: ${said.message}`
    : said.excerpt
      ? ` The answer began: "${said.excerpt}"`
      : '';
  const write = endpoint.method === 'POST';

  if (status === 400 && said.message?.includes(NO_AUTH_SCHEME)) {
    return new ApiError({
      ...base,
      code: 'no-auth-scheme',
      sent: 'yes',
      message:
        "The call reached the service without Basic credentials (No authenticationScheme was specified). Enter the API key's identifier and password; " +
        'if they are entered, something between Excel and the service (a proxy) dropped the Authorization header.',
    });
  }
  if (status === 401)
    return new ApiError({ ...base, code: 'invalid-credentials', sent: 'yes', message: INVALID_CREDENTIALS });
  // The spec gives the message, not the status: recognise it on any 4xx.
  if (status === 403 || (status < 500 && said.message?.includes(FORBIDDEN_TEXT)))
    return new ApiError({
      ...base,
      code: 'forbidden',
      sent: 'yes',
      message: FORBIDDEN + (said.message && !said.message.startsWith('Forbidden') ? serviceSays : ''),
    });
  if (status === 404 && said.gap) return sandboxGapError(endpoint, said.gap);
  if (status === 404) {
    const where = endpoint.documented
      ? 'Check that the base URL ends in the API root (for example https://grc.example.com/api).'
      : endpoint.binding
        ? `Its path (${endpoint.path}) comes from this environment's binding: import the service's current Swagger file again (docs/binding.md), or check the base URL.`
        : `Its path (${endpoint.path}) is not shown in the service's documentation and is assumed here: import the service's Swagger file into a binding (docs/binding.md), or check the base URL.`;
    const guid = endpoint.path.includes('{guid}') ? ' Or the record named by the GUID does not exist.' : '';
    return new ApiError({
      ...base,
      code: 'not-found',
      sent: 'yes',
      message: `The service has no "${endpoint.title}" at this address (404). ${where}${guid}${serviceSays}`,
    });
  }
  if (status === 429 || status === 503) {
    const wait = retryAfterMs(headers.get('retry-after'));
    const when =
      wait === undefined ? 'Try again in a little while.' : `Try again in ${Math.ceil(wait / 1000)} s.`;
    return new ApiError({
      ...base,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      code: status === 429 ? 'rate-limited' : 'unavailable',
      sent: 'yes',
      message:
        status === 429
          ? `The service is limiting the rate of calls (429). ${when}`
          : `The service is unavailable for now (503). ${when}`,
    });
  }
  if (status === 502 || status === 504) {
    // A gateway in front of the service answered: the request may or may not have reached it.
    return new ApiError({
      ...base,
      code: 'outcome-unknown',
      sent: 'unknown',
      message: gatewayMessage(status, write) + serviceSays,
    });
  }
  if (status >= 500) {
    const check = write
      ? ' It may have been partly processed: check the record in the service before sending again.'
      : ' Try again later.';
    return new ApiError({
      ...base,
      code: 'server-error',
      sent: 'yes',
      message: `The service failed with status ${status}.${check}${serviceSays}`,
    });
  }
  const details = said.details?.length ? said.details : undefined;
  // Service messages often end in a full stop; drop it so the list reads as one sentence.
  const listed = details
    ? ` ${details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message).replace(/\.$/, '')).join('; ')}.`
    : '';
  return new ApiError({
    ...base,
    ...(details ? { details } : {}),
    code: 'rejected',
    sent: 'yes',
    message: `The service rejected the request (${status}).${said.message ? ` ${said.message}` : said.excerpt ? ` The answer began: "${said.excerpt}"` : ''}${listed}`,
  });
}

/** The practice sandbox lacks what was asked for: said so, so nobody re-imports a file over it. */
function sandboxGapError(endpoint: Endpoint, gap: SandboxGap): ApiError {
  const message =
    gap === 'no-data'
      ? `The practice sandbox has no data for "${endpoint.title}": only your own service has it (it is in your API file, not in the sandbox). Load it from your service's environment.`
      : `The practice sandbox has nothing at ${endpoint.path}: it was started without this environment's binding, or with another one. Start it with the same binding (grc-sheets sandbox --binding FILE, docs/binding.md).`;
  return new ApiError({ status: 404, endpoint: endpoint.id, code: 'not-found', sent: 'yes', sandboxGap: gap, message });
}

/** What to do when a request may have been processed: a read is safe to repeat, a write must be checked. */
export function afterUnknownOutcome(write: boolean): string {
  return write
    ? 'the service may or may not have done it: check the record in the service before sending again.'
    : 'loading again is safe.';
}

function gatewayMessage(status: number, write: boolean): string {
  return `A gateway answered ${status} instead of the service; ${afterUnknownOutcome(write)}`;
}

/**
 * How the relay's own codes (src/relay/errors.ts) map to ours, and whether the service can have seen the
 * call. Codes not listed are refusals made before forwarding (`relay`, sent no), or, with a 5xx, after
 * it (sent unknown).
 */
const RELAY_CODES: Record<string, { code: ApiErrorCode; sent: Sent }> = {
  'upstream-unreachable': { code: 'unreachable', sent: 'no' },
  'upstream-untrusted-certificate': { code: 'unreachable', sent: 'no' },
  'upstream-failed': { code: 'outcome-unknown', sent: 'unknown' },
  'upstream-timeout': { code: 'outcome-unknown', sent: 'unknown' },
  'upstream-redirect': { code: 'relay', sent: 'yes' },
  'no-credentials': { code: 'no-auth-scheme', sent: 'no' },
  'rate-limited': { code: 'rate-limited', sent: 'no' },
  'shutting-down': { code: 'unavailable', sent: 'no' },
};

function relayError(
  endpoint: Endpoint,
  status: number,
  headers: Headers,
  relay: { code: string; message: string },
): ApiError {
  const known = RELAY_CODES[relay.code] ?? { code: 'relay', sent: status >= 500 ? 'unknown' : 'no' };
  const wait = retryAfterMs(headers.get('retry-after'));
  const unknown =
    known.sent === 'unknown' ? ` For this call: ${afterUnknownOutcome(endpoint.method === 'POST')}` : '';
  return new ApiError({
    status,
    endpoint: endpoint.id,
    ...known,
    ...(wait !== undefined && (known.code === 'rate-limited' || known.code === 'unavailable')
      ? { retryAfterMs: wait }
      : {}),
    ...relaySays(`${relay.message}${unknown}`, { code: relay.code, status }),
  });
}

function readBody(body: string): Said {
  const trimmed = body.trim();
  if (!trimmed) return {};
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { excerpt: excerpt(trimmed) };
  }
  if (typeof json === 'string') return { message: json };
  if (typeof json !== 'object' || json === null) return { excerpt: excerpt(trimmed) };
  const o = json as Record<string, unknown>;
  const err = o.error as Record<string, unknown> | null | undefined;
  const message = [o.message, o.Message, o.title, typeof err === 'object' ? err?.message : undefined].find(
    (m): m is string => typeof m === 'string',
  );
  const gap = sandboxGap.safeParse(o[SANDBOX_GAP_MEMBER]);
  return {
    ...(message ? { message } : { excerpt: excerpt(trimmed) }),
    details: detailsOf(o.errors ?? o.Errors),
    ...(gap.success ? { gap: gap.data } : {}),
  };
}

/** The message of a relay refusal `{"error": {"message"}}`, if the body has one. */
function relayMessage(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } } | null)?.error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** `[{field, message}]` (sandbox) or `{Field: ["message"]}` (ASP.NET validation problems). */
function detailsOf(errors: unknown): ErrorDetail[] {
  if (Array.isArray(errors)) {
    return errors.flatMap((e) => {
      if (typeof e === 'string') return [{ field: '', message: e }];
      if (typeof e !== 'object' || e === null) return [];
      const o = e as Record<string, unknown>;
      const field = o.field ?? o.Field ?? '';
      const message = o.message ?? o.Message;
      return typeof message === 'string' ? [{ field: String(field), message }] : [];
    });
  }
  if (typeof errors === 'object' && errors !== null) {
    return Object.entries(errors).flatMap(([field, v]) =>
      (Array.isArray(v) ? v : [v])
        .filter((m): m is string => typeof m === 'string')
        .map((message) => ({ field, message })),
    );
  }
  return [];
}

/** A short single line, with anything that looks like credentials blanked (an echoing gateway). */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').replace(/(Basic|Bearer)\s+[A-Za-z0-9+/=._-]+/gi, '$1 [hidden]');
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
