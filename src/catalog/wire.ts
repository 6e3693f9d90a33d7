import { requestTarget } from './encode';
import type { EncodedRequest, HttpMethod } from './placement';

/**
 * An encoded request as it goes on the wire: the method, the target after the base URL, and the body's
 * bytes as text with their content type. The client sends exactly this (client/call.ts), and the example
 * requests the import report and the taskpane show are this same value, so what an admin reads is what is
 * sent: there is no second rendering that could drift from it.
 */
export interface WireRequest {
  method: HttpMethod;
  /** Path and query string, relative to the environment's base URL. */
  target: string;
  /** Absent: no body is sent. */
  contentType?: string;
  body?: string;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function wireRequest(r: EncodedRequest): WireRequest {
  const out: WireRequest = { method: r.method, target: requestTarget(r) };
  if (r.body !== undefined) {
    out.contentType = JSON_CONTENT_TYPE;
    out.body = JSON.stringify(r.body);
  }
  return out;
}

const isJson = (contentType: string) => contentType.split(';', 1)[0]!.trim().toLowerCase().endsWith('json');

/**
 * A wire request as a person reads it: the request line, the content type and the body's text. A JSON body
 * is indented (the same bytes re-parsed: only whitespace differs, keys and numbers as sent); any other body
 * (a form) is its text as it is.
 */
export function formatWire(w: WireRequest): string[] {
  const lines = [`${w.method} ${w.target}`];
  if (w.body === undefined) return [...lines, '(no body)'];
  lines.push(`Content-Type: ${w.contentType ?? '(none)'}`, '');
  let text = w.body;
  if (w.contentType && isJson(w.contentType)) {
    try {
      text = JSON.stringify(JSON.parse(w.body), null, 2);
    } catch {
      // Not JSON after all: shown as it is.
    }
  }
  return [...lines, ...text.split(/\r?\n/)];
}
