import { hash } from 'node:crypto';
import pino, { type DestinationStream, type Logger } from 'pino';

/** How long a line may wait in the buffer: an operator at low traffic sees it, and a crash loses at most this much. */
export const LOG_FLUSH_MS = 1000;

export interface RelayLogger {
  logger: Logger;
  /** Stops the periodic flush and writes out what is buffered. */
  close(): void;
}

/**
 * The relay's logger. It never sees headers in normal operation; the redaction is there so a header dump
 * (a debug line, an error with the request attached) cannot leak credentials either.
 */
export function createRelayLogger(level: string, destination?: DestinationStream): RelayLogger {
  let pending = false;
  const options = {
    level,
    hooks: {
      streamWrite(line: string) {
        pending = true;
        return line;
      },
    },
    base: { service: 'grc-relay' },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'authorization',
        'cookie',
      ],
      censor: '[redacted]',
    },
  };
  // Stdout is buffered (4 KiB a write): one write per request line would cost a system call and a wake-up
  // of whatever reads the log on every small GET. Whatever is buffered goes out within LOG_FLUSH_MS, at
  // close and at exit; an idle relay makes no writes (the flush only runs when a line came).
  const logger = pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }));
  const flushing = setInterval(() => {
    if (!pending) return;
    pending = false;
    logger.flush();
  }, LOG_FLUSH_MS);
  flushing.unref();
  return {
    logger,
    close() {
      clearInterval(flushing);
      logger.flush();
    },
  };
}

/**
 * A short, stable tag for the API key behind a request, so logs can tell keys apart and an operator can
 * match a tag to a key they hold, without the identifier (or anything about the password) in the log.
 */
export function keyTag(authorization: string | null): string | undefined {
  if (!authorization) return undefined;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const identifier = decoded.split(':', 1)[0] ?? '';
  return hash('sha256', identifier, 'hex').slice(0, 12);
}
