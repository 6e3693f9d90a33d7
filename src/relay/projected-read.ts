import type { ServerResponse } from 'node:http';
import type { Dataset } from '../catalog';
import { getAt, pointerParts } from '../catalog/pointer';
import { sendError } from './errors';
import { copyResponseHeaders } from './headers';
import type { CallLog } from './log';
import { classifyUpstreamError, type Upstream } from './upstream';

/**
 * An implied read (identity/implied-reads.ts): the dataset is read from the service whole, and the caller
 * gets each record cut to the allowed fields. The answer is held to be cut (standing data: thousands of
 * records, not the registers a person reads in full, which stream through Forwarding). Whatever cannot
 * be cut (not JSON, no array where the binding says the records are) is refused, never passed on.
 */

/** The top-level property names in the service's records that carry `fields` (catalogue names) here. */
export function wireKeys(dataset: Dataset, fields: readonly string[]): Set<string> {
  const placed = new Map<string, string>();
  for (const p of dataset.binding?.placements ?? [])
    if (p.in === 'body') {
      const top = pointerParts(p.at)[0];
      if (top !== undefined) placed.set(p.field, top);
    }
  return new Set(fields.map((f) => placed.get(f) ?? f));
}

/** The answer body with every record cut to `keys`; null when the records are not where the binding says. */
export function cutRecords(body: unknown, recordsAt: string, keys: ReadonlySet<string>): unknown {
  const records = getAt(body, recordsAt);
  if (!Array.isArray(records)) return null;
  const cut = records.map((r: unknown) => {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return r;
    const out: Record<string, unknown> = {};
    for (const k of keys) if (Object.hasOwn(r, k)) out[k] = (r as Record<string, unknown>)[k];
    return out;
  });
  if (recordsAt === '') return cut;
  // The envelope stays (paging and the like); only the array inside it is replaced.
  const copy = structuredClone(body) as Record<string, unknown>;
  const parts = pointerParts(recordsAt);
  let at: Record<string, unknown> = copy;
  for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
  at[parts.at(-1)!] = cut;
  return copy;
}

export async function projectedRead(
  res: ServerResponse,
  upstream: Upstream,
  dataset: Dataset,
  path: string,
  headers: Record<string, string>,
  fields: readonly string[],
  timeoutMs: number,
  log: CallLog,
  /** Signs what was read and what was sent (evidence.ts `projected`), when the relay signs. */
  witness?: (service: Uint8Array, sent: Buffer) => void,
): Promise<void> {
  // Plain JSON is needed to cut it: no compressed answer from the service.
  delete headers['accept-encoding'];
  delete headers['content-type'];
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  let answer;
  let bytes: Uint8Array;
  let text: string;
  try {
    answer = await upstream.pool.request({
      method: 'GET',
      path,
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: abort.signal,
    });
    // The bytes as the service sent them (a statement hashes them), and their text as body.text() gives it.
    bytes = new Uint8Array(await answer.body.arrayBuffer());
    text = new TextDecoder().decode(bytes);
  } catch (e) {
    if (res.destroyed) return;
    const { code, detail } = classifyUpstreamError(e);
    log.upstreamError = detail;
    return sendError(res, code);
  }
  log.bytes += bytes.length;
  if (answer.statusCode >= 300 && answer.statusCode < 400) {
    log.upstreamError = `redirect ${answer.statusCode}`;
    return sendError(res, 'upstream-redirect');
  }
  if (answer.statusCode !== 200) {
    // The service's refusal or failure holds no records: passed on as it is.
    res.statusCode = answer.statusCode;
    copyResponseHeaders(answer.headers, res);
    res.end(text);
    return;
  }
  let cut: unknown = null;
  try {
    cut = cutRecords(JSON.parse(text), dataset.binding?.records ?? '', wireKeys(dataset, fields));
  } catch {
    cut = null;
  }
  if (cut === null) {
    log.upstreamError = 'implied read: no records where the binding places them';
    return sendError(res, 'upstream-failed', {
      message: `The service's answer for ${dataset.title} could not be cut to the fields your write flow may read, so none of it is passed on.`,
    });
  }
  const out = Buffer.from(JSON.stringify(cut));
  witness?.(bytes, out);
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', out.length);
  res.end(out);
}
