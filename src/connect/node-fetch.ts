import { Agent, request, type Dispatcher } from 'undici';

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** More of an answer than this is not kept: the client reads at most 1 MiB of a write's answer (client/read-text.ts). */
const KEPT = (1 << 20) + 1;

/**
 * The command line's fetch. A request that follows no redirect (a write: client/request.ts) goes out
 * through undici's request API and comes back as a standard Response; every other request (datasets, the
 * relay's configuration, sign-in) is the given fetch's, unchanged. Node's fetch spends most of a small
 * write's client time on its WHATWG machinery (request objects, body streams, their transfer hooks): about
 * 0.35 ms of CPU a call against 0.1 ms here, on the event loop that every concurrent send of a post shares.
 *
 * It fails as fetch fails, so the client classifies it the same way (client/fetch-failure.ts): a request
 * that could not be sent rejects with a TypeError whose `cause` carries Node's error code; a redirect with
 * the cause "unexpected redirect"; an answer that breaks off after its headers gives a Response whose body
 * fails when read.
 */
export function nodeFetch(other: typeof globalThis.fetch = globalThis.fetch, dispatcher: Dispatcher = new Agent()): typeof globalThis.fetch {
  return async (input, init) => {
    if (init?.redirect !== 'error' || typeof input !== 'string') return other(input, init);
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(input, {
        dispatcher,
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: headersOf(init.headers),
        body: init.body as string | Uint8Array | null | undefined,
        signal: init.signal ?? undefined,
      });
    } catch (e) {
      throw new TypeError('fetch failed', { cause: e });
    }
    const { statusCode: status, headers } = answer;
    if (REDIRECT.has(status) && headers.location !== undefined) {
      await answer.body.dump().catch(() => undefined);
      throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
    }
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(headers)) {
      if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
      else if (value !== undefined) responseHeaders.append(name, value);
    }
    const meta = { status, headers: responseHeaders };
    if (NULL_BODY.has(status)) {
      await answer.body.dump().catch(() => undefined);
      return new Response(null, meta);
    }
    const parts: Buffer[] = [];
    let length = 0;
    try {
      for await (const part of answer.body as AsyncIterable<Buffer>) {
        parts.push(part);
        length += part.length;
        if (length >= KEPT) {
          answer.body.destroy();
          break;
        }
      }
    } catch (e) {
      // As fetch: the answer came, its body broke off; reading it fails (the client: "in the middle of the answer").
      return new Response(
        new ReadableStream({
          start: (c) => c.error(new TypeError('terminated', { cause: e })),
        }),
        meta,
      );
    }
    return new Response((parts.length === 1 ? parts[0]! : Buffer.concat(parts)) as Uint8Array<ArrayBuffer>, meta);
  };
}

function headersOf(given: HeadersInit | undefined): Record<string, string> {
  if (!given) return {};
  if (given instanceof Headers || Array.isArray(given)) return Object.fromEntries(new Headers(given));
  return given as Record<string, string>;
}
