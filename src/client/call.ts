import type { z } from 'zod';
import { isGuid, type Operation, type PathParams } from '../catalog';
import { fromWire, missingRequired, toWire } from '../catalog/wire';
import { ApiError } from './api-error';
import { errorFromFailure } from './fetch-failure';
import { readText } from './read-text';
import { fieldPath } from './record-check';
import { send, type Connection } from './request';

export interface CallOptions {
  params?: PathParams;
  body?: unknown;
  /**
   * Values for the properties the environment's binding requires and no catalogue field fills, by
   * property name; the binding's defaults fill the rest.
   */
  extra?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * POSTs one write operation. The body is checked with the operation's schema first, and what is sent
 * is the schema's output (fields the schema does not know are not sent), built through the environment's
 * binding when it has one (the file's property names and nesting, its extra required properties); a body
 * that lacks a property the file requires is refused here, before anything is sent. The answer is read
 * back through the binding and checked with the operation's answer schema; a create answering with a
 * bare GUID (a JSON string or plain text) counts as `{ Id }`.
 */
export async function call(conn: Connection, op: Operation, options: CallOptions = {}): Promise<unknown> {
  const body = checkBody(op, options.body, options.extra);
  const response = await send(conn, op, {
    ...(options.params ? { params: options.params } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let text: string;
  try {
    text = await readText(response);
  } catch (e) {
    throw errorFromFailure(op, e, 'body', options.signal);
  }
  return checkAnswer(op, response.status, text);
}

function checkBody(op: Operation, body: unknown, extra?: Record<string, unknown>): string | undefined {
  if (!op.body) {
    if (body === undefined) return undefined;
    throw invalidBody(op, [{ field: '', message: 'this operation takes no body' }]);
  }
  const result = op.body.safeParse(body);
  if (!result.success)
    throw invalidBody(
      op,
      result.error.issues.map((i) => ({ field: fieldPath(i.path), message: i.message })),
    );
  const shape = op.binding?.body;
  if (!shape) return JSON.stringify(result.data);
  const wire = toWire(shape, result.data as Record<string, unknown>, extra);
  const missing = missingRequired(shape, wire);
  if (missing.length)
    throw invalidBody(
      op,
      missing.map((property) => ({
        field: property,
        message:
          `the service's API file (this environment's binding) requires property "${property}", and nothing fills it: ` +
          'fill its column in the template, or have the administrator give it a default in the binding (docs/binding.md)',
      })),
    );
  return JSON.stringify(wire);
}

function invalidBody(op: Operation, details: { field: string; message: string }[]): ApiError {
  const listed = details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ');
  return new ApiError({
    code: 'invalid-body',
    sent: 'no',
    endpoint: op.id,
    details,
    message: `"${op.title}" was not sent: ${listed}. Correct these fields and send again.`,
  });
}

function checkAnswer(op: Operation, status: number, text: string): unknown {
  let value: unknown = undefined;
  const trimmed = text.trim();
  if (trimmed) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = trimmed;
    }
  }
  const answerShape = op.binding?.answer;
  if (answerShape && typeof value === 'object' && value !== null && !Array.isArray(value))
    value = fromWire(answerShape, value as Record<string, unknown>, true);
  let result = op.answer.safeParse(value);
  if (!result.success && typeof value === 'string' && isGuid(value))
    result = op.answer.safeParse({ Id: value });
  if (result.success) return result.data;
  const issue = (result.error as z.ZodError).issues[0]!;
  const field = fieldPath(issue.path);
  throw new ApiError({
    code: 'bad-answer',
    sent: 'yes',
    status,
    endpoint: op.id,
    details: [{ field, message: issue.message }],
    message:
      `The service accepted "${op.title}" (${status}) but its answer was not understood (${field ? `${field}: ` : ''}${issue.message}). ` +
      'It has probably been done: check the record in the service before sending again.',
  });
}
