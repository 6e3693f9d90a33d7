import { randomUUID } from 'node:crypto';
import type { BoundOperation } from '../../catalog';
import { pointerParts } from '../../catalog/pointer';
import type { ApiFile, FileOperation } from '../file/document';
import { idPath, sampleOf, setAt } from '../file/sample';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Reply {
  status: number;
  body?: unknown;
  location?: string;
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
  if (file && fileOp) {
    const a = fileOp.answer;
    const reply: Reply = { status: a.status };
    if (a.location) reply.location = location;
    if (a.schema !== undefined && a.status !== 204) {
      const body = sampleOf(file.answerDoc, a.schema, { all: false, seed: id });
      const at = idPath(file.answerDoc, a.schema);
      if (isObj(body) && at) setAt(body, at, id);
      if (isObj(body) && isObj(catalogueBody) && typeof catalogueBody.Warning === 'string')
        body.Warning = catalogueBody.Warning;
      reply.body = body;
    }
    return reply;
  }
  if (op?.answer?.in === 'header') return { status: catalogueStatus, location };
  if (op?.answer?.in === 'body' && created) {
    const parts = pointerParts(op.answer.at);
    if (!parts.length) return { status: catalogueStatus, body: created };
    const body: Json = {};
    setAt(body, [...parts], created);
    return { status: catalogueStatus, body };
  }
  return { status: catalogueStatus, body: catalogueBody };
}
