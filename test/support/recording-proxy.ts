/**
 * A loopback HTTP proxy that stands between a relay (or a command) and the sandbox and records every
 * request as it went over the wire: method, path, query, content type and the body's bytes. What a door
 * test checks is what this saw, not what our own code says it sent, nor how the sandbox read it.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** The request path without the query string. */
  path: string;
  query: string;
  contentType: string;
  /** The body as text (empty for none). */
  text: string;
  /** The body read as the content type says: JSON, or a form's fields (repeated names as arrays); else null. */
  body: unknown;
  status: number;
}

export interface RecordingProxy {
  /** The proxy's origin: a base URL is this plus the sandbox's path (`${url}/api`). */
  url: string;
  recorded: Recorded[];
  close(): Promise<void>;
}

/** A form's fields as a JSON object: one value a string, a repeated name an array of them. */
function formFields(entries: Iterable<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of entries) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

async function bodyOf(contentType: string, text: string): Promise<unknown> {
  if (!text) return null;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.endsWith('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }
  if (type === 'application/x-www-form-urlencoded') return formFields(new URLSearchParams(text));
  if (type === 'multipart/form-data') {
    // Read by the platform's own multipart parser (undici's), not ours.
    const form = await new Response(text, { headers: { 'content-type': contentType } }).formData();
    return formFields([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name] as [string, string]));
  }
  return null;
}

export interface ProxyOptions {
  /**
   * Called as each request goes on to the target; what it returns is called once the target has answered (a
   * watch on the service's state, such as test/support/blanking.ts).
   */
  around?: (method: string, path: string) => () => void;
}

export async function startRecordingProxy(target: string, options: ProxyOptions = {}): Promise<RecordingProxy> {
  const to = new URL(target);
  const recorded: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const [path, query = ''] = (req.url ?? '/').split('?');
      const headers: IncomingHttpHeaders = { ...req.headers, host: to.host };
      const answered = options.around?.(req.method ?? 'GET', req.url ?? '/');
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers },
        (answer) => {
          answered?.();
          const contentType = String(req.headers['content-type'] ?? '');
          const text = raw.toString('utf8');
          void bodyOf(contentType, text).then((body) => {
            recorded.push({ method: req.method ?? 'GET', path: path!, query, contentType, text, body, status: answer.statusCode ?? 0 });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          });
        },
      );
      upstream.on('error', (e) => res.writeHead(502).end(String(e)));
      upstream.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    recorded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The relay keeps its upstream connections alive: they would hold close() open.
        server.closeAllConnections();
      }),
  };
}
