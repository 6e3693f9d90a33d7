import { requestTarget } from './encode';
import { FORM_CONTENT_TYPES, formFields, urlencodedText, type FormField } from './form';
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
  /** Absent: no body is sent, or a multipart form (its parts are in `multipart`). */
  contentType?: string;
  body?: string;
  /**
   * A multipart form's parts (the file takes multipart/form-data): the client writes them with a fresh
   * boundary when it sends (client/call.ts), so the parts are what is fixed here, not the bytes.
   */
  multipart?: FormField[];
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The request's body as the file takes it: JSON text, an urlencoded form's text, or a multipart form's parts (catalog/form.ts). */
export function wireRequest(r: EncodedRequest): WireRequest {
  const out: WireRequest = { method: r.method, target: requestTarget(r) };
  if (r.body === undefined) return out;
  if (r.form === 'multipart') return { ...out, multipart: formFields(r.body) };
  if (r.form === 'urlencoded')
    return { ...out, contentType: `${FORM_CONTENT_TYPES.urlencoded}; charset=utf-8`, body: urlencodedText(formFields(r.body)) };
  return { ...out, contentType: JSON_CONTENT_TYPE, body: JSON.stringify(r.body) };
}

const isJson = (contentType: string) => contentType.split(';', 1)[0]!.trim().toLowerCase().endsWith('json');

/**
 * A wire request as a person reads it: the request line, the content type and the body's text. A JSON body
 * is indented (the same bytes re-parsed: only whitespace differs, keys and numbers as sent); any other body
 * (an urlencoded form) is its text as it is; a multipart form one line per part.
 */
export function formatWire(w: WireRequest): string[] {
  const lines = [`${w.method} ${w.target}`];
  if (w.multipart)
    return [
      ...lines,
      `Content-Type: ${FORM_CONTENT_TYPES.multipart} (its boundary is written when sent)`,
      '',
      ...w.multipart.map((f) => ('value' in f ? `${f.name}: ${f.value}` : `${f.name}: file ${f.file.filename} (${Math.floor((f.file.base64.replace(/=+$/, '').length * 3) / 4)} bytes)`)),
    ];
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
