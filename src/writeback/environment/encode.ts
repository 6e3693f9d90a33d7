import { PATH_GUID_FIELD, readCreatedId, type BoundOperation, type EncodeProblem, type EncodeResult } from '../../catalog';
import * as catalog from '../../catalog';
import { ApiError } from '../../client';
import type { WritebackApi } from '../api';
import type { Call } from '../flow';
import { cellError, type CellProblem } from '../problem';
import type { FlowContext } from './context';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { bodyProblems, encodeRequest } = catalog;

/**
 * A row's call in the customer's terms: its values (the body's catalogue fields, the path parameter, the
 * row's values of the operation's extra columns) encoded through the operation's placements
 * (catalog/encode.ts). Encoded once when the row is validated, so a value the file cannot take is an error
 * on its cell before anything is sent, and again when it is sent.
 */

/** A GUID that stands for a record not made yet, to check a follow-up's call when the row is validated. */
export const NOT_YET_MADE = '00000000-0000-4000-8000-000000000000';

/** Where the file puts this operation, in its own words: `POST /incidents/{id}/links (Incidents_AddLink)`. */
export const fileOperation = (op: BoundOperation): string =>
  `${op.method} ${op.file.path}${op.file.operationId ? ` (${op.file.operationId})` : ''}`;

export function encodeCall(ctx: FlowContext, call: Call, extra: Readonly<Record<string, unknown>>): EncodeResult {
  const op = ctx.environment.operation(call.operation);
  const values: Record<string, unknown> = {};
  if (call.body !== undefined) {
    const body = call.body as Record<string, unknown>;
    const untyped = call.untyped;
    if (!untyped?.length) Object.assign(values, body);
    else {
      const placed = ctx.environment.placedFields(call.operation);
      for (const field of Object.keys(body)) if (!untyped.includes(field) || placed.has(field)) values[field] = body[field];
    }
  }
  if (call.guid !== undefined) values[PATH_GUID_FIELD] = call.guid;
  for (const x of op.extras) if (x.key in extra) values[x.key] = extra[x.key];
  return encodeRequest(op, values, ctx.lists);
}

/**
 * What encoding the call would find wrong (encodeCall's problems, none when it encodes), for validation, which
 * checks every row's calls: a call of its body alone, to an operation whose file takes every value as it is,
 * is checked without making the request (catalog bodyProblems).
 */
export function encodeProblems(ctx: FlowContext, call: Call, extra: Readonly<Record<string, unknown>>): readonly EncodeProblem[] {
  const op = ctx.environment.operation(call.operation);
  const body = call.body;
  if (call.guid === undefined && !call.untyped?.length && !op.extras.length && isPlainObject(body)) {
    const found = bodyProblems(op, body);
    if (found) return found;
  }
  const encoded = encodeCall(ctx, call, extra);
  return encoded.ok ? [] : encoded.problems;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * The problems of encoding a call, each on the cell its value came from: the column the flow read the field
 * from, or the extra column's header; `fallback` where neither applies (a path parameter without a column).
 */
export function cellProblems(
  ctx: FlowContext,
  call: Call,
  problems: readonly EncodeProblem[],
  fallback: string,
): CellProblem[] {
  const op = ctx.environment.operation(call.operation);
  const out: CellProblem[] = [];
  for (const p of problems) {
    const extra = op.extras.find((x) => x.key === p.field);
    const from = extra ? extra.header : call.columnOf[p.field];
    const columns = from === undefined || from.length === 0 ? [fallback] : typeof from === 'string' ? [from] : from;
    for (const column of columns) {
      const message =
        p.code === 'not-placed'
          ? `this environment's API file has no place for ${column} in ${fileOperation(op)}, so it would not be sent; clear the cell, or ask the administrator to place it (docs/binding.md)`
          : p.message;
      out.push(cellError(column, p.code, message));
    }
  }
  return out;
}

/**
 * Sends a call as the file describes it and returns the record's GUID: the call's own (an update), or the
 * new record's id read from the answer where the binding says it is (a create). A create whose answer holds
 * no id is an outcome to check, never a success without a GUID.
 */
export async function sendCall(
  api: WritebackApi,
  ctx: FlowContext,
  call: Call,
  extra: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
): Promise<string> {
  const encoded = encodeCall(ctx, call, extra);
  if (!encoded.ok)
    throw new ApiError({
      code: 'invalid-body',
      sent: 'no',
      endpoint: call.operation,
      message: `Not sent: ${encoded.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
    });
  const answer = await api.send(call.operation, encoded.request, signal ? { signal } : {});
  if (call.guid !== undefined) return call.guid;
  const op = ctx.environment.operation(call.operation);
  const id = readCreatedId(op, answer);
  if (id.ok) return id.id;
  throw new ApiError({
    code: 'bad-answer',
    sent: 'yes',
    status: answer.status,
    endpoint: call.operation,
    message: `The service accepted ${fileOperation(op)} (${answer.status}) but ${id.message}. It has probably been done: check the record in the service before sending again.`,
  });
}
