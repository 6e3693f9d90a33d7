import {
  getAt,
  PATH_GUID_FIELD,
  recordDecoder,
  type BoundDataset,
  type BoundOperation,
  type Lists,
} from '../../catalog';
import { isGuid } from '../../catalog/fields';
import { pointerParts } from '../../catalog/pointer';
import type { Problem } from '../errors';

/**
 * A request in the customer's shape read back into the catalogue's values, for the spec's rules (the
 * reverse of the write-back's encoding); and what a binding alone says such a request must have.
 */
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Decoded {
  /** Catalogue-shaped body for the spec's rules. */
  body: Json;
  /** The catalogue's own path parameter (the task, the incident), wherever the file puts it. */
  guid?: string;
}

/** A request in the file's shape -> the catalogue's values: body placements read back, path and query ones too. */
export function decodeRequest(
  op: BoundOperation,
  wire: unknown,
  params: Readonly<Record<string, string | undefined>>,
  query: URLSearchParams,
  lists: Lists,
  /** Custom field types by GUID (definitionTypes), for answers the file sends as text. */
  definitions?: Map<string, string>,
): Decoded {
  const asDataset: BoundDataset = {
    kind: 'dataset',
    method: 'GET',
    path: op.path,
    file: op.file,
    how: op.how,
    placements: op.placements.filter((p) => p.in === 'body'),
    records: '',
  };
  const body = isObj(wire) ? recordDecoder(asDataset, lists)(wire) : {};
  let guid: string | undefined;
  for (const p of op.placements) {
    if (p.in === 'body') continue;
    const v = p.in === 'path' ? params[p.at] : (query.get(p.at) ?? undefined);
    if (v === undefined) continue;
    if (p.field === PATH_GUID_FIELD) guid = v;
    else body[p.field] = p.encoding.kind === 'plain' && p.encoding.many ? v.split(',') : v;
  }
  const answers = op.placements.find((p) => p.in === 'body' && p.encoding.kind === 'custom-fields');
  if (answers && Array.isArray(body[answers.field]) && definitions)
    body[answers.field] = (body[answers.field] as unknown[]).map((e) =>
      typedAnswer(
        e,
        definitions,
        answers.encoding.kind === 'custom-fields' && answers.encoding.dateAt !== undefined,
      ),
    );
  return { body, guid: guid ?? params.guid };
}

/**
 * A file whose answer slot is text (`"Answer": string`) sends every answer as text; its service reads a
 * number, a yes/no or (where the file has no separate date slot) a date from that text, and so does the
 * stand-in before the spec's rules check the answer against the field's type.
 */
function typedAnswer(entry: unknown, types: Map<string, string>, hasDateSlot: boolean): unknown {
  if (!isObj(entry) || typeof entry.Value !== 'string' || typeof entry.CustomFieldGuid !== 'string')
    return entry;
  const v = entry.Value.trim();
  switch (types.get(entry.CustomFieldGuid.toLowerCase())) {
    case 'Checkbox':
      return /^(true|false)$/i.test(v) ? { ...entry, Value: v.toLowerCase() === 'true' } : entry;
    case 'Number':
      return v !== '' && Number.isFinite(Number(v)) ? { ...entry, Value: Number(v) } : entry;
    case 'Date':
      if (hasDateSlot || !/^\d{4}-\d{2}-\d{2}/.test(v)) return entry;
      return { CustomFieldGuid: entry.CustomFieldGuid, DateValue: v.slice(0, 10) };
    default:
      return entry;
  }
}

/**
 * What a binding alone (its file not at hand) says a body must have: every required placement and extra, and a
 * GUID wherever a placement sends one (a GUID string, or the id inside a reference object).
 */
export function bindingProblems(op: BoundOperation, wire: unknown): Problem[] {
  const name = (pointer: string) => pointerParts(pointer).join('.');
  const problems: Problem[] = [];
  for (const r of [
    ...op.placements.filter((p) => p.in === 'body' && p.required),
    ...op.extras.filter((x) => x.in === 'body' && x.required),
  ])
    if (getAt(wire, r.at) === undefined)
      problems.push({ field: name(r.at), message: 'The field is required.' });
  for (const p of op.placements) {
    if (p.in !== 'body' || (p.encoding.kind !== 'guid' && p.encoding.kind !== 'ref')) continue;
    const v = getAt(wire, p.at);
    if (v === undefined || v === null) continue;
    const idAt = p.encoding.kind === 'ref' ? p.encoding.idAt : '';
    if (idAt === undefined) continue;
    const ids = (Array.isArray(v) ? v : [v]).map((x) => (idAt ? getAt(x, idAt) : x));
    if (ids.some((id) => id !== undefined && !(typeof id === 'string' && isGuid(id))))
      problems.push({
        field: `${name(p.at)}${Array.isArray(v) ? '[]' : ''}${idAt.replace(/\//g, '.')}`,
        message: 'The value is not a valid GUID.',
      });
  }
  return problems;
}
