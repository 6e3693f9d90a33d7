import { hash } from 'node:crypto';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The relay's logger. It never sees headers in normal operation; the redaction is there so a header dump
 * (a debug line, an error with the request attached) cannot leak credentials either.
 */
export function createRelayLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
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
  // Stdout is buffered (4 KiB a write, flushed at close and at exit): one write per request line would
  // cost a system call and a wake-up of whatever reads the log on every small GET.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }));
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
