import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The content codings the relay answers with, in its order of preference (brotli is smaller). */
export type Coding = 'br' | 'gzip';
const PREFERENCE: readonly Coding[] = ['br', 'gzip'];

/** Bodies below this are sent as they are: the coding's own bytes and the CPU would outweigh the saving. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * The coding to answer with, among `available`, from the request's Accept-Encoding (RFC 9110 12.5.3): the
 * highest q-value above 0, `*` standing for any coding not named, brotli before gzip when equal; null for
 * none (no header, `identity`, or only q=0).
 */
export function acceptedCoding(
  header: string | string[] | undefined,
  available: readonly Coding[],
): Coding | null {
  if (!header || available.length === 0) return null;
  const q = new Map<string, number>();
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [token, ...params] = item.trim().toLowerCase().split(';');
    if (!token) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(token === 'x-gzip' ? 'gzip' : token, Number.isFinite(value) ? value : 0);
  }
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    if (!available.includes(coding)) continue;
    const value = q.get(coding) ?? q.get('*') ?? 0;
    if (value > bestQ) [best, bestQ] = [coding, value];
  }
  return best;
}

/** Adds a field to Vary, keeping what is there (CORS has set `Origin` on every answer by then). */
export function varyOn(res: ServerResponse, field: string): void {
  const current = res.getHeader('vary');
  const fields = current
    ? String(current)
        .split(',')
        .map((f) => f.trim())
    : [];
  if (!fields.some((f) => f.toLowerCase() === field.toLowerCase())) fields.push(field);
  res.setHeader('vary', fields.join(', '));
}

function compress(body: Buffer, coding: Coding): Buffer {
  // Per answer, on the event loop: mid levels (brotli 5, gzip 6) compress a 170 KB list in a few ms.
  return coding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipSync(body, { level: 6 });
}

function send(req: IncomingMessage, res: ServerResponse, body: Buffer, encoded: (c: Coding) => Buffer): void {
  res.setHeader('content-type', 'application/json; charset=utf-8');
  if (body.length < MIN_COMPRESSED_BYTES) {
    res.end(body);
    return;
  }
  varyOn(res, 'Accept-Encoding');
  const coding = acceptedCoding(req.headers['accept-encoding'], PREFERENCE);
  if (!coding) {
    res.end(body);
    return;
  }
  const out = encoded(coding);
  res.setHeader('content-encoding', coding);
  res.setHeader('content-length', out.length);
  res.end(out);
}

/** Sends a JSON body, brotli or gzip when the client accepts it and the body is worth it. */
export function sendJson(req: IncomingMessage, res: ServerResponse, json: string): void {
  const body = Buffer.from(json);
  send(req, res, body, (coding) => compress(body, coding));
}

/**
 * An answer whose JSON is the same for every caller (the environment list, the sign-in settings): each
 * coding is compressed once, at its first use, and kept.
 */
export function fixedJson(json: string): (req: IncomingMessage, res: ServerResponse) => void {
  const body = Buffer.from(json);
  const kept = new Map<Coding, Buffer>();
  const encoded = (coding: Coding) => {
    let out = kept.get(coding);
    if (!out) kept.set(coding, (out = compress(body, coding)));
    return out;
  };
  return (req, res) => send(req, res, body, encoded);
}
