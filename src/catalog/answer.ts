import { isGuid } from './fields';
import { getAt } from './pointer';
import type { Answer, BoundOperation, CreatedId } from './placement';

/**
 * Where a create's answer holds the new record's id: where the binding says (a body pointer through any
 * envelope, or the Location header), else the usual places, so a file that documents its answer loosely
 * still gives the id: the Location header, a bare GUID body, a top-level Id/id/Guid/guid/uuid, or the same
 * one envelope level down (data, result, item, value, record, and the like). Pure.
 */

const ID_KEYS = ['Id', 'id', 'ID', 'Guid', 'guid', 'GUID', 'Uuid', 'uuid'];
const ENVELOPES = ['data', 'Data', 'result', 'Result', 'item', 'Item', 'value', 'Value', 'record', 'Record', 'entity'];

const asId = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/** The last GUID-like segment of a Location header (or its last segment when none looks like a GUID). */
export function idFromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  const path = location.replace(/[?#].*$/, '');
  const segments = path.split('/').filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return [...segments].reverse().find(isGuid) ?? segments[segments.length - 1];
}

function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const t = body.trim();
  if (!t.startsWith('{') && !t.startsWith('"')) return t;
  try {
    return JSON.parse(t);
  } catch {
    return t;
  }
}

function usual(body: unknown): { id: string; from: string } | undefined {
  if (typeof body === 'string' && body !== '') return { id: body, from: 'body (bare)' };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  for (const k of ID_KEYS) {
    const id = asId((body as Record<string, unknown>)[k]);
    if (id) return { id, from: `body /${k}` };
  }
  for (const env of ENVELOPES) {
    const inner = (body as Record<string, unknown>)[env];
    if (typeof inner !== 'object' || inner === null) continue;
    for (const k of ID_KEYS) {
      const id = asId((inner as Record<string, unknown>)[k]);
      if (id) return { id, from: `body /${env}/${k}` };
    }
  }
  return undefined;
}

export function readCreatedId(op: BoundOperation, answer: Answer): CreatedId {
  const body = parsedBody(answer.body);
  const location = answer.headers.location ?? answer.headers.Location;
  const a = op.answer;
  if (a?.in === 'header') {
    const id = idFromLocation(location);
    if (id) return { ok: true, id, from: 'header location' };
  } else if (a) {
    const id = asId(getAt(body, a.at));
    if (id) return { ok: true, id, from: `body ${a.at || '(bare)'}` };
  }
  const fromLocation = idFromLocation(location);
  if (fromLocation && isGuid(fromLocation)) return { ok: true, id: fromLocation, from: 'header location' };
  const found = usual(body);
  if (found) return { ok: true, ...found };
  const where = a ? (a.in === 'header' ? 'the Location header' : `body ${a.at || '(bare)'}`) : 'the answer';
  return {
    ok: false,
    message: `the service answered ${answer.status} without the new record's id (the binding reads it from ${where})`,
  };
}
