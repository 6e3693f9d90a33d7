import { hash } from 'node:crypto';
import pino, { type DestinationStream, type Logger } from 'pino';

/** How long a line may wait in the buffer: an operator at low traffic sees it, and a crash loses at most this much. */
export const LOG_FLUSH_MS = 1000;

/** What the access log line says about one request; filled in as the call goes. */
export interface CallLog {
  route?: string;
  env?: string;
  key?: string;
  /** The signed-in person (token subject and display name); absent for a typed key. */
  person?: string;
  personName?: string;
  upstreamError?: string;
  /** Set when the answer was cut to the fields a write flow implies (the rules that imply it). */
  implied?: string;
  bytes: number;
}

/** The access line's fields besides the CallLog. */
export interface RequestLine {
  reqId: string;
  method: string;
  path: string;
  status: number | 'aborted';
  durationMs: number;
}

export interface RelayLogger {
  logger: Logger;
  /** Writes the one line per request (at level info). */
  request(line: RequestLine, call: CallLog): void;
  /** Stops the periodic flush and writes out what is buffered. */
  close(): void;
}

const SERVICE = 'grc-relay';

/** What a JSON string literal cannot hold as is, or this log keeps out of its lines (non-ASCII). */
const NEEDS_ESCAPE = /[^\x20-\x7e]|["\\]/;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/g;

/** A JSON string literal in ASCII only (non-ASCII as JSON's \uXXXX escapes): an access line is one byte a character. */
function asciiJson(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return JSON.stringify(text).replace(
    NON_ASCII,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Characters of access lines written to the destination at once (about 250 lines). */
const ACCESS_BLOCK = 64 * 1024;
const INFO = 30;

/**
 * The relay's logger. It never sees headers in normal operation; the redaction is there so a header dump
 * (a debug line, an error with the request attached) cannot leak credentials either.
 *
 * The access line is written by hand rather than through pino: at thousands of small GETs a second pino's
 * generic serialisation (and its redaction pass) was a tenth of the relay's time per request. The line has
 * pino's shape (level, time, service, msg) and a fixed set of fields, none of which can hold a header or a
 * credential (the key appears only as `key`, a hash prefix), so it needs no redaction.
 */
export function createRelayLogger(level: string, destination?: DestinationStream): RelayLogger {
  let pending = false;
  // A buffered destination (one that can flush, such as stdout's sonic-boom) gets access lines in blocks
  // of about ACCESS_BLOCK: one system call (a trip through libuv's thread pool) per line, or sonic-boom
  // re-measuring its whole buffer at every line, cost a measurable share of a small GET. Whatever waits
  // goes out within LOG_FLUSH_MS, before any pino line (so lines stay in order), at close and at exit; an
  // idle relay makes no writes (the flush only runs when a line came). A plain write function gets each
  // line as it comes.
  // Lines are encoded into one buffer as they come, so each line's string dies young: kept in a list until
  // the block was full, they survived the young generation's collections and were copied and promoted
  // (garbage collection took about 12% of the relay's time under small GETs, 8% since; --cpu-prof).
  const block = Buffer.allocUnsafe(ACCESS_BLOCK);
  let used = 0;
  const release = () => {
    if (used === 0) return;
    dest.write(block.toString('latin1', 0, used));
    used = 0;
  };
  const options = {
    level,
    hooks: {
      streamWrite(line: string) {
        release();
        pending = true;
        return line;
      },
    },
    base: { service: SERVICE },
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
  const dest = destination ?? pino.destination({ dest: 1, sync: false, maxWrite: 2 * ACCESS_BLOCK });
  const logger = pino(options, dest);
  const accessLines = logger.isLevelEnabled('info');
  const blocks = typeof (dest as { flush?: unknown }).flush === 'function';
  const flushing = setInterval(() => {
    if (!pending) return;
    pending = false;
    release();
    logger.flush();
  }, LOG_FLUSH_MS);
  flushing.unref();
  return {
    logger,
    request(line, call) {
      if (!accessLines) return;
      pending = true;
      // method (a token Node's parser accepted), reqId, route (a catalogue id), env (a configured name,
      // checked at start) and key (hex) need no escaping; the path and the error detail do.
      const text = `{"level":${INFO},"time":${Date.now()},"service":"${SERVICE}","reqId":"${line.reqId}","method":"${line.method}","path":${asciiJson(line.path)}${
        call.route === undefined ? '' : `,"route":"${call.route}"`
      }${call.env === undefined ? '' : `,"env":"${call.env}"`}${
        call.key === undefined ? '' : `,"key":"${call.key}"`
      }${call.person === undefined ? '' : `,"person":${asciiJson(call.person)},"personName":${asciiJson(call.personName ?? '')}`},"status":${typeof line.status === 'number' ? line.status : `"${line.status}"`},"bytes":${call.bytes},"durationMs":${line.durationMs}${
        call.upstreamError === undefined ? '' : `,"upstreamError":${asciiJson(call.upstreamError)}`
      }${call.implied === undefined ? '' : `,"implied":${asciiJson(call.implied)}`},"msg":"request"}\n`;
      // The line is ASCII (asciiJson), one byte a character: copied into the block as latin1, no encoding.
      if (!blocks) return void dest.write(text);
      if (used + text.length > ACCESS_BLOCK) release();
      if (text.length > ACCESS_BLOCK) dest.write(text);
      else used += block.write(text, used, 'latin1');
    },
    close() {
      clearInterval(flushing);
      release();
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
