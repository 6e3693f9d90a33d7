import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { RELAY_ERROR_HEADER } from '../contracts/environments';
import type { RelayConfig } from './config';
import type { Cors } from './cors';
import { errorBody, RELAY_ERRORS, type RelayErrorCode } from './errors';

/**
 * Answers a refusal the HTTP server raises before there is a request object (bad framing, CONNECT), in the
 * relay's error format; `extraHeaders` are whole header lines (CORS, when the Origin could be read).
 */
function refuseRaw(
  socket: Duplex,
  status: number,
  code: RelayErrorCode,
  message?: string,
  extraHeaders = '',
): void {
  if (socket.writable) {
    const body = errorBody(code, message);
    const reason = status === 405 ? 'Method Not Allowed' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n${RELAY_ERROR_HEADER}: ${code}\r\n${extraHeaders}content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The relay's HTTP or HTTPS server, with its own refusals of what is no request (CONNECT, upgrades, bad framing). */
export function createRelayServer(config: RelayConfig, cors: Cors, onRequest: RequestListener): Server {
  const serverOptions = {
    requestTimeout: config.limits.requestTimeoutMs,
    headersTimeout: Math.min(config.limits.requestTimeoutMs, 60_000),
    keepAliveTimeout: 5_000,
    // Checked by the relay, so the refusal comes in its own format rather than as Node's bare 400.
    requireHostHeader: false,
    // Node's default, stated: an answer goes out as soon as it is written, not after the client's ACK.
    noDelay: true,
  };
  const server: Server = config.tls
    ? createHttpsServer(
        {
          ...serverOptions,
          cert: readFileSync(config.tls.cert),
          key: readFileSync(config.tls.key),
          minVersion: 'TLSv1.2',
        },
        onRequest,
      )
    : createHttpServer(serverOptions, onRequest);

  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    refuseRaw(socket, 405, 'bad-request-target', 'CONNECT is refused: the relay is not a forward proxy.'),
  );
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) =>
    refuseRaw(socket, 400, 'bad-request', 'Protocol upgrades are refused.'),
  );
  // A page on an allowed origin can read these refusals too when its Origin line is in the bytes Node
  // could not parse (`rawPacket`, the chunk being parsed: usually the whole head). A timeout has no packet:
  // Node keeps the header bytes it has read inside its parser, out of reach, so that 408 carries only Vary.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const corsLines = cors.rawHeaderLines(err.rawPacket);
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      return refuseRaw(socket, 408, 'bad-request', 'The request took too long to arrive.', corsLines);
    refuseRaw(
      socket,
      400,
      'bad-request',
      `${RELAY_ERRORS['bad-request'][1]} (${err.code ?? 'parse error'})`,
      corsLines,
    );
  });
  return server;
}

/** Listens where the configuration says; rejects (a port in use) without leaving the server open. */
export function listen(server: Server, config: RelayConfig): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.listen.port, config.listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
