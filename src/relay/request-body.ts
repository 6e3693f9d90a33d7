import type { IncomingMessage } from 'node:http';
import { isJsonMediaType } from '../catalog/json-body';
import type { BodyBudget } from './body-budget';

export type BodyResult =
  | {
      ok: true;
      body: Buffer;
      /** Gives the body's bytes back to the budget once it is sent (or not). */ release(): void;
    }
  | { ok: false; reason: 'too-large' | 'aborted' | 'busy' | 'timeout' };

export interface BodyLimits {
  /** Largest body. */
  limit: number;
  /** Bytes held across connections and per address. */
  budget: BodyBudget;
  address: string;
  /** Longest pause between two chunks of the body. */
  idleMs: number;
}

/**
 * Reads a POST body into memory, up to `limit` bytes. Buffered rather than streamed, on purpose (docs/relay.md,
 * "Why POST bodies are buffered"): a body cut while being forwarded would reach the service truncated, and
 * nothing in its contract says it ignores part of a write; and a sender with a made-up key trickling its
 * body would hold one of the environment's few upstream connections instead of bytes. Every byte held
 * counts against the budget (given back when the exchange ends, however it ends), which bounds what
 * buffering costs, and a sender that stops for `idleMs` is cut.
 */
export function readBody(
  req: IncomingMessage,
  { limit, budget, address, idleMs }: BodyLimits,
): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const idle = setTimeout(() => stop({ ok: false, reason: 'timeout' }), idleMs);
    const done = (r: BodyResult) => {
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      if (!r.ok) budget.give(address, size);
      resolve(r);
    };
    /** Ends the read early: nothing more of this request is read, the connection is closed by the answer. */
    const stop = (r: BodyResult) => {
      req.pause();
      chunks.length = 0;
      done(r);
    };
    const onData = (c: Buffer) => {
      if (size + c.length > limit) return stop({ ok: false, reason: 'too-large' });
      if (!budget.take(address, c.length)) return stop({ ok: false, reason: 'busy' });
      size += c.length;
      chunks.push(c);
      idle.refresh();
    };
    const onEnd = () => {
      const body = Buffer.concat(chunks, size);
      let held = size;
      done({
        ok: true,
        body,
        release: () => {
          budget.give(address, held);
          held = 0;
        },
      });
    };
    const onAbort = () => done({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

/** True when the request announces a body (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

export function isJson(req: IncomingMessage): boolean {
  return isJsonMediaType(req.headers['content-type']);
}
