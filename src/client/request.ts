import { fillPath, JSON_CONTENT_TYPE, type Endpoint, type PathParams } from '../catalog';
import { STATEMENT_ID_HEADER } from '../contracts/evidence';
import { ApiError, isApiError } from './api-error';
import { errorFromAnswer } from './error-answer';
import { errorFromFailure } from './fetch-failure';
import { readText } from './read-text';
import { RETRY, withRetry } from './retry';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** What every request needs; made once by createClient. The Authorization value never leaves this object. */
export interface Connection {
  baseUrl: string;
  authorization: string;
  fetch: Fetch;
  /**
   * Set once an answer named a relay statement (the relay in front signs): only then does the client ask for
   * the receipt of a write whose answer was lost (a service reached directly has no such route).
   */
  signs?: boolean;
}

/**
 * A request with a body goes where it was sent or nowhere: a redirect is an error (fetch rejects), never
 * followed. Followed, a 301/302/303 would turn a write into a GET and a 307/308 send the body to another
 * address, so a row could be marked done while nothing was written; as a failure with no answer it is an
 * outcome to check (fetch-failure.ts), as the relay treats a service's redirect (relay/forward.ts). Without
 * redirects (and with no window, as every caller here has) fetch also skips the copy of the request and
 * the tee of its body it keeps for following one: about half of Node's fetch cost for a small write.
 */
const WRITE_ONCE = { redirect: 'error', window: null } as const satisfies RequestInit;

/**
 * Sends one request and returns the answer once its headers are in and its status is 2xx. Every failure
 * comes out as an ApiError: a path GUID that is missing, a cancel, a connection that failed, an error
 * answer.
 */
export async function send(
  conn: Connection,
  endpoint: Endpoint,
  options: {
    params?: PathParams;
    /**
     * Text in `contentType` (catalog/wire.ts; JSON when not given), or bytes in `contentType` (a write's
     * body as sent, call.ts: a multipart form already written, its boundary in `contentType`).
     */
    body?: string | Uint8Array<ArrayBuffer>;
    contentType?: string;
    signal?: AbortSignal;
    /** An encoded request's method and target (path and query, filled): sent as they are. */
    encoded?: { method: string; target: string };
    /** More request headers (a write's reference, call.ts). */
    headers?: Readonly<Record<string, string>>;
  },
): Promise<Response> {
  let path: string;
  try {
    path = options.encoded?.target ?? fillPath(endpoint.path, options.params);
  } catch {
    throw new ApiError({
      code: 'invalid-body',
      sent: 'no',
      endpoint: endpoint.id,
      details: [{ field: 'guid', message: 'expected a GUID' }],
      message: `"${endpoint.title}" needs the GUID of the record it is about; none or an invalid one was given. Nothing was sent.`,
    });
  }
  if (options.signal?.aborted)
    throw new ApiError({ code: 'cancelled', sent: 'no', endpoint: endpoint.id, message: 'Cancelled.' });

  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json', Authorization: conn.authorization };
  if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? JSON_CONTENT_TYPE;
  const init: RequestInit = {
    method: options.encoded?.method ?? endpoint.method,
    headers,
    ...(options.body !== undefined ? { body: options.body, ...WRITE_ONCE } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  // A kept-alive connection the server closed just as the request went out fails as "outcome unknown"; a
  // GET changes nothing, so it is tried once more on a fresh connection. A write is never repeated here.
  const sent = await withRetry(
    async () => {
      try {
        return await conn.fetch(conn.baseUrl + path, init);
      } catch (e) {
        throw errorFromFailure(endpoint, e, 'request', options.signal);
      }
    },
    (e) => ({ retry: endpoint.method === 'GET' && isApiError(e) && e.code === 'outcome-unknown' }),
    RETRY.freshConnection,
    { signal: options.signal },
  );
  if (!sent.ok) throw sent.error;
  const response = sent.value;
  if (response.headers.has(STATEMENT_ID_HEADER)) conn.signs = true;
  if (response.ok) return response;
  let body = '';
  try {
    body = await readText(response);
  } catch {
    // The status already says what happened; a body that breaks off adds nothing to act on.
  }
  throw errorFromAnswer(endpoint, response.status, response.headers, body);
}
