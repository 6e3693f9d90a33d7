import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelay, type Relay, type RelayConfigInput } from '../../src/relay';
import {
  ENVIRONMENTS_PATH,
  environmentPath,
  environmentSummaries,
  environmentView,
  type EnvironmentView,
} from '../../src/contracts/environments';

export const IDENTIFIER = 'relay-test-identifier-7Q2';
export const PASSWORD = 'relay-test-password-Zx9!';
export const AUTH = `Basic ${Buffer.from(`${IDENTIFIER}:${PASSWORD}`).toString('base64')}`;
/** Every form in which the test credential could leak. */
export const SECRETS = [
  IDENTIFIER,
  PASSWORD,
  Buffer.from(`${IDENTIFIER}:${PASSWORD}`).toString('base64'),
  Buffer.from(IDENTIFIER).toString('base64'),
  Buffer.from(PASSWORD).toString('base64'),
];

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export const answerJson: Handler = (_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('[{"Id":"00000000-0000-4000-8000-000000000001"}]');
};

/** A fake service that records every request it gets; its behaviour can be swapped per test. */
export interface FakeUpstream {
  url: string;
  port: number;
  requests: Recorded[];
  handler: Handler;
  /** Resolves at the next request the upstream receives (after its body). */
  nextRequest(): Promise<{ req: IncomingMessage; res: ServerResponse }>;
  close(): Promise<void>;
}

export async function startFakeUpstream(tls?: { cert: string; key: string }): Promise<FakeUpstream> {
  const waiting: ((x: { req: IncomingMessage; res: ServerResponse }) => void)[] = [];
  const upstream: FakeUpstream = {
    url: '',
    port: 0,
    requests: [],
    handler: answerJson,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      upstream.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      waiting.splice(0).forEach((w) => w({ req, res }));
      upstream.handler(req, res, body);
    });
  };
  const server: Server = tls
    ? createHttpsServer({ cert: tls.cert, key: tls.key }, onRequest)
    : createHttpServer(onRequest);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.port = (server.address() as AddressInfo).port;
  upstream.url = `${tls ? 'https' : 'http'}://127.0.0.1:${upstream.port}`;
  return upstream;
}

/** A pino destination that keeps every line. */
export function captureLog(): { lines: string[]; write(s: string): void } {
  const lines: string[] = [];
  return { lines, write: (s: string) => void lines.push(s) };
}

export function baseConfig(upstream: FakeUpstream, extra: Partial<RelayConfigInput> = {}): RelayConfigInput {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    environments: {
      acc: { baseUrl: `${upstream.url}/api` },
      prd: { baseUrl: `${upstream.url}/api`, production: true },
    },
    allowedOrigins: ['https://addin.example.com'],
    ...extra,
  };
}

export async function startTestRelay(
  upstream: FakeUpstream,
  extra: Partial<RelayConfigInput> = {},
): Promise<{ relay: Relay; log: ReturnType<typeof captureLog> }> {
  const log = captureLog();
  const relay = await startRelay(baseConfig(upstream, extra), { logDestination: log });
  return { relay, log };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

/**
 * Sends bytes exactly as written over a plain socket (fetch would normalise the target, the Host header or
 * the framing) and reads until the relay closes the connection.
 */
export function rawRequest(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), raw });
    });
    socket.write(text);
  });
}

/** A request line plus headers, closing the connection after the answer so rawRequest knows when it is done. */
export function rawGet(target: string, headers: Record<string, string> = {}, method = 'GET'): string {
  const all = { host: 'relay.test', authorization: AUTH, connection: 'close', ...headers };
  return `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

/** A self-signed certificate for 127.0.0.1 made at test time, trusted by nobody. */
export function selfSignedCertificate(): { cert: string; key: string; certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'relay-cert-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

export function errorCode(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/**
 * Every environment's whole view as a door reads it: GET /api/environments (the summaries), then
 * GET /api/environments/<name> for each (the binding and each call's availability).
 */
export async function relayViews(relayUrl: string, headers: Record<string, string> = {}): Promise<EnvironmentView[]> {
  const list = environmentSummaries.parse(await (await fetch(`${relayUrl}${ENVIRONMENTS_PATH}`, { headers })).json());
  return Promise.all(
    list.map(async (e) => environmentView.parse(await (await fetch(`${relayUrl}${environmentPath(e.name)}`, { headers })).json())),
  );
}
