import type { z } from 'zod';
import { isGuid, type Operation, type PathParams } from '../catalog';
import { ApiError } from './api-error';
import { errorFromFailure } from './fetch-failure';
import { readText } from './read-text';
import { fieldPath } from './record-check';
import { send, type Connection } from './request';

export interface CallOptions {
  params?: PathParams;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * POSTs one write operation. The body is checked with the operation's schema first, and what is sent
 * is the schema's output (fields the schema does not know are not sent). The answer is checked with the
 * operation's answer schema; a create answering with a bare GUID (a JSON string or plain text) counts as
 * `{ Id }`.
 */
export async function call(conn: Connection, op: Operation, options: CallOptions = {}): Promise<unknown> {
  const body = checkBody(op, options.body);
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

function checkBody(op: Operation, body: unknown): string | undefined {
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
  return JSON.stringify(result.data);
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
