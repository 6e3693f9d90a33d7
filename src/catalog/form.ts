import type { FilePart, FormMedia } from './placement';

/**
 * Form bodies (application/x-www-form-urlencoded and multipart/form-data), for files whose operations take
 * form data instead of JSON (Swagger 2.0 `in: formData`, OpenAPI 3 form request bodies). Pure and shared:
 * the client writes a form from an encoded body, the relay checks one before forwarding it, the bound
 * sandbox reads one back. Bytes are Uint8Array so this runs in the browser and in Node alike.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One field of a form as it goes on the wire: text, or a file part. */
export type FormField = { name: string; value: string } | { name: string; file: FilePart };

export const isFilePart = (v: unknown): v is FilePart =>
  isObj(v) && typeof v.filename === 'string' && typeof v.base64 === 'string' && Object.keys(v).length === 2;

/** The media type a form body is sent with (multipart's boundary is added by whoever writes the parts). */
export const FORM_CONTENT_TYPES: Record<FormMedia, string> = {
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

/** Which form a Content-Type header announces, if any. */
export function formMediaOf(contentType: string | undefined): FormMedia | undefined {
  const bare = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (bare === FORM_CONTENT_TYPES.urlencoded) return 'urlencoded';
  if (bare === FORM_CONTENT_TYPES.multipart) return 'multipart';
  return undefined;
}

/**
 * An encoded body's members as form fields: a list is the field repeated (a form's way of sending several
 * values), null an empty field (a clearing update), a yes/no "true"/"false", an object its JSON text.
 */
export function formFields(body: unknown): FormField[] {
  const out: FormField[] = [];
  if (!isObj(body)) return out;
  const one = (name: string, v: unknown) => {
    if (v === undefined) return;
    if (isFilePart(v)) out.push({ name, file: v });
    else if (v === null) out.push({ name, value: '' });
    else if (typeof v === 'object') out.push({ name, value: JSON.stringify(v) });
    else out.push({ name, value: String(v as string | number | boolean) });
  };
  for (const [name, v] of Object.entries(body)) {
    if (Array.isArray(v)) for (const x of v) one(name, x);
    else one(name, v);
  }
  return out;
}

/** The text of an urlencoded body (spaces as "+", as browsers write it). */
export function urlencodedText(fields: readonly FormField[]): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return fields
    .map((f) => `${enc(f.name)}=${enc('value' in f ? f.value : f.file.filename)}`)
    .join('&');
}

export type FormRead = { ok: true; fields: FormField[] } | { ok: false; message: string };

/** An urlencoded body -> its fields; a malformed percent escape is refused, not guessed at. */
export function readUrlencoded(text: string): FormRead {
  const fields: FormField[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      fields.push({ name: dec(rawName), value: dec(rawValue) });
    } catch {
      return { ok: false, message: `the form field "${rawName}" is not valid percent-encoding` };
    }
  }
  return { ok: true, fields };
}

const latin1 = (bytes: Uint8Array, from = 0, to = bytes.length): string => {
  let s = '';
  for (let i = from; i < to; i += 8192) s += String.fromCharCode(...bytes.subarray(i, Math.min(to, i + 8192)));
  return s;
};

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

function base64Of(bytes: Uint8Array): string {
  return btoa(latin1(bytes));
}

/** The boundary a multipart Content-Type declares. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * A multipart/form-data body -> its fields (RFC 7578): each part's name from its Content-Disposition, a part
 * with a filename as a file (its bytes in base64), text parts as UTF-8. Anything not well formed (no
 * boundary, no closing delimiter, a part without a name, text that is not UTF-8) is refused.
 */
export function readMultipart(bytes: Uint8Array, contentType: string | undefined): FormRead {
  const boundary = boundaryOf(contentType);
  if (!boundary) return { ok: false, message: 'the multipart body has no boundary in its Content-Type' };
  const text = latin1(bytes);
  const delimiter = `--${boundary}`;
  const first = text.indexOf(delimiter);
  if (first < 0) return { ok: false, message: 'the multipart body does not start with its boundary' };
  const fields: FormField[] = [];
  let at = first + delimiter.length;
  for (;;) {
    if (text.startsWith('--', at)) return { ok: true, fields };
    if (!text.startsWith('\r\n', at)) return { ok: false, message: 'a multipart boundary is not followed by a line break' };
    at += 2;
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return { ok: false, message: 'a multipart part has no end of headers' };
    const head = text.slice(at, headEnd);
    const next = text.indexOf(`\r\n${delimiter}`, headEnd + 4);
    if (next < 0) return { ok: false, message: 'the multipart body has no closing boundary' };
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head)?.[1] ?? '';
    const param = (key: string) => new RegExp(`;\\s*${key}="([^"]*)"`, 'i').exec(disposition)?.[1];
    const name = param('name');
    if (name === undefined) return { ok: false, message: 'a multipart part has no form-data name' };
    const content = bytes.subarray(headEnd + 4, next);
    const filename = param('filename');
    try {
      const decodedName = utf8(Uint8Array.from(name, (c) => c.charCodeAt(0)));
      if (filename !== undefined)
        fields.push({
          name: decodedName,
          file: { filename: utf8(Uint8Array.from(filename, (c) => c.charCodeAt(0))), base64: base64Of(content) },
        });
      else fields.push({ name: decodedName, value: utf8(content) });
    } catch {
      return { ok: false, message: `the multipart part "${name}" is not UTF-8 text` };
    }
    at = next + 2 + delimiter.length;
  }
}

/** A form body on the wire -> its fields, by the media its Content-Type announces. */
export function readForm(bytes: Uint8Array, contentType: string | undefined): FormRead {
  const media = formMediaOf(contentType);
  if (media === 'multipart') return readMultipart(bytes, contentType);
  if (media === 'urlencoded') {
    try {
      return readUrlencoded(utf8(bytes));
    } catch {
      return { ok: false, message: 'the form body is not UTF-8 text' };
    }
  }
  return { ok: false, message: `${contentType ?? '(no Content-Type)'} is not a form` };
}

/** Form fields -> one object: a field given once is its value, a repeated one a list (files as FilePart). */
export function fieldsObject(fields: readonly FormField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = 'value' in f ? f.value : f.file;
    const before = out[f.name];
    out[f.name] = before === undefined ? v : Array.isArray(before) ? [...before, v] : [before, v];
  }
  return out;
}
