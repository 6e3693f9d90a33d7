import { RELAY_ERROR_HEADER } from '../../src/contracts/environments';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeServer {
  /** The fake environment's API root, like the sandbox's `http://127.0.0.1:port/api`. */
  baseUrl: string;
  received: Received[];
  close(): Promise<void>;
}

export type Handler = (req: Received, res: ServerResponse) => void | Promise<void>;

/** A loopback HTTP server on a free port whose every answer the test writes by hand. */
export async function startFake(handler: Handler): Promise<FakeServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
      };
      received.push(r);
      void handler(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * One fake server for the whole test file, started before its tests and closed after them; each test
 * sets `answer` to the handler its calls should meet.
 */
export function fakeForFile(): { readonly server: FakeServer; answer: Handler } {
  let server: FakeServer | undefined;
  const fake = {
    get server(): FakeServer {
      if (!server) throw new Error('the fake server starts in beforeAll; use it inside a test');
      return server;
    },
    answer: ((_req, res) => json(res, 500, 'no answer set by the test')) as Handler,
  };
  beforeAll(async () => {
    server = await startFake((req, res) => fake.answer(req, res));
  });
  afterAll(() => server?.close());
  return fake;
}

/** A port that was free a moment ago and has nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** A refusal as the relay sends it: its body shape and the header that marks it as the relay's own. */
export function relayRefusal(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  json(res, status, { error: { code, message } }, { [RELAY_ERROR_HEADER]: code, ...headers });
}

/** Writes the byte chunks one at a time, each flushed separately, so the client sees these boundaries. */
export async function writeChunks(res: ServerResponse, chunks: readonly Uint8Array[]): Promise<void> {
  for (const c of chunks) {
    await new Promise<void>((resolve, reject) => res.write(c, (e) => (e ? reject(e) : resolve())));
  }
}

export const GUID = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
