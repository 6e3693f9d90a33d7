import type { z } from 'zod';
import {
  boundOf,
  encodeRequest,
  isGuid,
  readCreatedId,
  wireRequest,
  PATH_GUID_FIELD,
  type FormField,
  type Answer,
  type BoundOperation,
  type SentWrite,
  type EncodedRequest,
  type Lists,
  type Operation,
  type PathParams,
} from '../catalog';
import { WRITE_REF_HEADER } from '../contracts/evidence';
import { ApiError } from './api-error';
import { errorFromFailure } from './fetch-failure';
import { readText } from './read-text';
import { fieldPath } from './record-check';
import { send, type Connection } from './request';
import { hexOf, Sha256 } from './sha256';

export interface CallOptions {
  params?: PathParams;
  body?: unknown;
  /** Values for the binding's extra columns, by their key ("body:/severity"); the binding's defaults fill the rest. */
  extra?: Record<string, unknown>;
  /** Standing-data lists names are looked up in where the environment's file wants GUIDs or references. */
  lists?: Lists;
  signal?: AbortSignal;
}

/**
 * Calls one write operation with a catalogue-shaped body. The body is checked with the operation's schema
 * first; what is sent is the schema's output encoded through the environment's binding (the file's method,
 * path, property names, nesting and encodings: catalog/encode.ts), and a value the file has no place for,
 * or a required property nothing fills, is refused here, before anything is sent. A create's answer gives
 * `{ Id }` wherever the file puts the new id (catalog/answer.ts); other answers are checked as they come.
 */
export async function call(conn: Connection, op: Operation, options: CallOptions = {}): Promise<unknown> {
  const bound = boundOf(op) as BoundOperation;
  const request = checkBody(op, bound, options);
  const answer = await sendEncoded(conn, op, request, options.signal);
  return checkAnswer(op, bound, answer);
}

/** Sends an encoded request as it is and reads the whole answer (status, headers, parsed body). */
export async function sendEncoded(
  conn: Connection,
  op: Operation,
  request: EncodedRequest,
  signal?: AbortSignal,
  /** Told what is sent just before it goes, so that it is known even when no answer comes. */
  sent?: (write: SentWrite) => void,
): Promise<Answer> {
  const wire = wireRequest(request);
  // The body as the exact bytes sent (a multipart form written here, boundary and all), so that their hash
  // is the one the relay signs in its write receipt.
  const body = wire.multipart ? await multipartBytes(wire.multipart) : wire.body !== undefined ? { bytes: new TextEncoder().encode(wire.body), contentType: wire.contentType } : undefined;
  const sentSha256 = await sha256Hex(body?.bytes ?? new Uint8Array(0));
  // Random, not derived from the row: a receipt then names this one write, even among identical bodies.
  const writeRef = globalThis.crypto.randomUUID();
  sent?.({ sha256: sentSha256, ref: writeRef });
  const response = await send(conn, op, {
    encoded: { method: wire.method, target: wire.target },
    ...(body ? { body: body.bytes, contentType: body.contentType } : {}),
    ...(signal ? { signal } : {}),
    headers: { [WRITE_REF_HEADER]: writeRef },
  });
  let text: string;
  try {
    text = await readText(response);
  } catch (e) {
    throw errorFromFailure(op, e, 'body', signal);
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k.toLowerCase()] = v;
  });
  return { status: response.status, headers, body: parse(text), sentSha256, writeRef };
}

/** Bodies up to this many bytes are hashed here, at once; longer ones (a document) by crypto.subtle. */
const HASHED_HERE = 64 * 1024;

/**
 * A write's body is usually a few hundred bytes: hashing it in TypeScript takes microseconds, where
 * crypto.subtle.digest's job (a thread pool round trip and its promise) cost Node about half a millisecond
 * a write, on the event loop every concurrent send shares.
 */
async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (bytes.length <= HASHED_HERE) return new Sha256().update(bytes).hex();
  return hexOf(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes)));
}

/** A multipart form written as fetch would send it: its bytes, and the Content-Type naming their boundary. */
async function multipartBytes(fields: readonly FormField[]): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType?: string }> {
  const written = new Response(multipartData(fields));
  const contentType = written.headers.get('content-type') ?? undefined;
  return { bytes: new Uint8Array(await written.arrayBuffer()), ...(contentType ? { contentType } : {}) };
}

/** A multipart form's parts as FormData (Response writes the boundary and the Content-Type). */
function multipartData(fields: readonly FormField[]): FormData {
  const form = new FormData();
  for (const f of fields) {
    if ('value' in f) form.append(f.name, f.value);
    else
      form.append(
        f.name,
        new Blob([Uint8Array.from(atob(f.file.base64), (c) => c.charCodeAt(0))], { type: 'application/octet-stream' }),
        f.file.filename,
      );
  }
  return form;
}

function parse(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

function checkBody(op: Operation, bound: BoundOperation, options: CallOptions): EncodedRequest {
  const { body } = options;
  let values: Record<string, unknown> = {};
  if (!op.body) {
    if (body !== undefined) throw invalidBody(op, [{ field: '', message: 'this operation takes no body' }]);
  } else {
    const result = op.body.safeParse(body);
    if (!result.success)
      throw invalidBody(
        op,
        result.error.issues.map((i) => ({ field: fieldPath(i.path), message: i.message })),
      );
    values = { ...(result.data as Record<string, unknown>) };
  }
  if (options.params?.guid !== undefined) values[PATH_GUID_FIELD] = options.params.guid;
  for (const [k, v] of Object.entries(options.params ?? {}))
    if (k !== 'guid' && v !== undefined) values[k] = v;
  Object.assign(values, options.extra ?? {});
  const encoded = encodeRequest(bound, values, options.lists ?? {});
  if (!encoded.ok)
    throw invalidBody(
      op,
      encoded.problems.map((p) => ({ field: p.field, message: p.message })),
    );
  return encoded.request;
}

function invalidBody(op: Operation, details: { field: string; message: string }[]): ApiError {
  const listed = details.map((d) => (d.field && !d.message.startsWith(`${d.field}:`) ? `${d.field}: ${d.message}` : d.message)).join('; ');
  return new ApiError({
    code: 'invalid-body',
    sent: 'no',
    endpoint: op.id,
    details,
    message: `"${op.title}" was not sent: ${listed}. Correct these fields and send again.`,
  });
}

function checkAnswer(op: Operation, bound: BoundOperation, answer: Answer): unknown {
  let value = answer.body;
  if (bound.answer) {
    const created = readCreatedId(bound, answer);
    if (created.ok) value = { Id: created.id };
  }
  let result = op.answer.safeParse(value);
  if (!result.success && typeof value === 'string' && isGuid(value)) result = op.answer.safeParse({ Id: value });
  if (result.success) return result.data;
  const issue = (result.error as z.ZodError).issues[0]!;
  const field = fieldPath(issue.path);
  throw new ApiError({
    code: 'bad-answer',
    sent: 'yes',
    status: answer.status,
    endpoint: op.id,
    details: [{ field, message: issue.message }],
    message:
      `The service accepted "${op.title}" (${answer.status}) but its answer was not understood (${field ? `${field}: ` : ''}${issue.message}). ` +
      'It has probably been done: check the record in the service before sending again.',
  });
}
