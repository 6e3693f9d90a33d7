import { randomUUID } from 'node:crypto';
import type { BoundOperation } from '../../catalog';
import { pointerParts } from '../../catalog/pointer';
import type { ApiFile, FileOperation } from '../file/document';
import { answerIdAt, sampleOf, setAt } from '../file/sample';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Reply {
  status: number;
  body?: unknown;
  location?: string;
  /** Send the body as text/plain (the file documents only that). */
  text?: true;
}

/**
 * A successful write's answer in the shape the customer's file documents: its 2xx status, its body with the
 * record's id where the file keeps it (other required members filled), a Location where it documents one.
 * Without the file, the binding's answer placement decides; without either, the catalogue's own answer.
 */
export function answerFor(
  file: ApiFile | undefined,
  fileOp: FileOperation | undefined,
  op: BoundOperation | undefined,
  catalogueBody: unknown,
  catalogueStatus: number,
  requestPath: string,
  guid: string | undefined,
): Reply {
  const created = isObj(catalogueBody) && typeof catalogueBody.Id === 'string' ? catalogueBody.Id : undefined;
  const id = created ?? guid ?? randomUUID();
  const location = `${requestPath.replace(/\/$/, '')}/${id}`;
  const bound = op?.answer?.in === 'body' ? [...pointerParts(op.answer.at)] : undefined;
  // A create whose file documents neither a body nor a Location for its answer (Swashbuckle's bare `200:
  // Success`) says nothing of the new id: the binding's reading decides, as without the file.
  const silent = fileOp && !fileOp.answer.location && (fileOp.answer.schema === undefined || fileOp.answer.status === 204);
  if (file && fileOp && !(silent && op?.answer)) {
    const a = fileOp.answer;
    const reply: Reply = { status: a.status, ...(a.text ? { text: true as const } : {}) };
    if (a.location) reply.location = location;
    if (a.schema !== undefined && a.status !== 204) {
      let body = sampleOf(file.answerDoc, a.schema, { all: false, seed: id });
      // The record's own id wherever the file keeps it (the whole answer, a property, an envelope), never a
      // made-up one: the next step (a hyperlink on the new incident) addresses the record by it.
      const at = answerIdAt(file.answerDoc, a.schema, bound);
      if (at?.length === 0) body = id;
      else if (at) {
        if (!isObj(body)) body = {};
        setAt(body as Json, at, id);
      }
      if (isObj(body) && isObj(catalogueBody) && typeof catalogueBody.Warning === 'string')
        body.Warning = catalogueBody.Warning;
      reply.body = body;
    }
    return reply;
  }
  const status = fileOp ? fileOp.answer.status : catalogueStatus;
  if (op?.answer?.in === 'header') return { status, location };
  if (bound && created) {
    if (!bound.length) return { status, body: created };
    const body: Json = {};
    setAt(body, bound, created);
    return { status, body };
  }
  return { status, body: catalogueBody };
}
