import { randomUUID } from 'node:crypto';
import {
  encodeRequest,
  getAt,
  indexList,
  listsOf,
  PATH_GUID_FIELD,
  recordDecoder,
  type BoundDataset,
  type BoundOperation,
  type Lists,
  type NameIndex,
  type Placement,
} from '../catalog';
import { isGuid } from '../catalog/fields';
import { pointerParts } from '../catalog/pointer';
import type { Problem } from './errors';
import type { ApiFile, FileOperation } from './file/document';
import { flatten, idPath, sampleOf, setAt } from './file/sample';
import type { Store } from './store';

/**
 * The bound sandbox's side of a binding: what arrives in the customer's shape is read back into the
 * catalogue's values for the spec's rules (the reverse of the write-back's encoding), records go out in the
 * customer's shape, and answers take the shape the customer's file documents.
 */
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Standing data from the store as name indexes, built when a placement needs one. */
export function storeLists(store: Store, ids: readonly string[]): Lists {
  const out: Record<string, NameIndex | undefined> = {};
  for (const id of ids) {
    if (!store.has(id)) continue;
    const entries: { id: string; name: string }[] = [];
    for (const r of store.records(id) as Iterable<Json>) {
      const guid = r.Id ?? r.GUID;
      if (typeof guid === 'string' && typeof r.Name === 'string') entries.push({ id: guid, name: r.Name });
    }
    out[id] = indexList(entries);
  }
  return out;
}

/** The lists a bound operation's placements resolve names and GUIDs in. */
export const listsFor = (store: Store, op: BoundOperation): Lists => storeLists(store, listsOf(op));

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

const DEFINITIONS = ['incidenttypecustomfields', 'thirdpartycustomfields', 'thirdpartycontractcustomfields'];

/** Every custom field definition of the store by GUID: what a text answer is read against. */
export function definitionTypes(store: Store): Map<string, string> {
  const types = new Map<string, string>();
  for (const id of DEFINITIONS)
    if (store.has(id))
      for (const d of store.records(id) as Iterable<Json>)
        if (typeof d.Id === 'string' && typeof d.Type === 'string') types.set(d.Id.toLowerCase(), d.Type);
  return types;
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
 * Where a bound dataset's catalogue fields go in the customer's record: every body placement encoded on its
 * own (a record with a name a list lacks still shows its other fields), over a record that has every property
 * the file documents, so the answer is a record as the customer's service sends it.
 */
export function recordEncoder(
  ds: BoundDataset,
  store: Store,
  template: Json | undefined,
  /** Where the file's record keeps its own GUID: filled from the store when no placement puts Id there. */
  idAt?: string[],
  texts: RecordShape['texts'] = [],
): (record: Json) => Json {
  const body = ds.placements.filter((p) => p.in === 'body');
  const ownId = idAt && !body.some((p) => p.field === 'Id' || p.field === 'GUID') ? idAt : undefined;
  // A plain value at a top-level property is a rename: copied as is. Everything else (references, dates,
  // nested places) is encoded one placement at a time, so a name a list lacks costs only its own field.
  const isRename = (p: Placement) =>
    p.encoding.kind === 'plain' && !p.encoding.as && !p.encoding.many && pointerParts(p.at).length === 1;
  const pairs = body.filter(isRename).map((p) => [p.field, pointerParts(p.at)[0]!] as const);
  const ops = body
    .filter((p) => !isRename(p))
    .map((p): BoundOperation => ({
      kind: 'operation',
      method: 'POST',
      path: '/',
      file: ds.file,
      how: ds.how,
      placements: [{ ...p, required: false }],
      extras: [],
      answer: null,
    }));
  const lists = storeLists(store, [...new Set(ops.flatMap(listsOf))]);
  return (r) => {
    const out: Json = template ? (structuredClone(template) as Json) : {};
    const id = r.Id ?? r.GUID;
    if (ownId && typeof id === 'string') setAt(out, ownId, id);
    for (const [field, key] of pairs) if (r[field] !== undefined) out[key] = r[field];
    for (const op of ops) {
      const p = op.placements[0]!;
      const v = r[p.field];
      if (v === undefined) continue;
      // No value in the store is no value in the record, not the template's stand-in value.
      if (v === null) {
        setAt(out, [...pointerParts(p.at)], null);
        continue;
      }
      const values: Json = { [p.field]: v };
      if (p.encoding.kind === 'number-unit') values[p.encoding.unitField] = r[p.encoding.unitField];
      const encoded = encodeRequest(op, values, lists);
      if (encoded.ok && isObj(encoded.request.body)) merge(out, encoded.request.body);
    }
    for (const { key, many } of texts) {
      const v = out[key];
      if (many && Array.isArray(v)) out[key] = v.map(asText);
      else if (!many) out[key] = asText(v);
    }
    return out;
  };
}

/** Deep merge: objects merge, anything else replaces. */
function merge(into: Json, from: Json): void {
  for (const [k, v] of Object.entries(from)) {
    if (isObj(v) && isObj(into[k])) merge(into[k] as Json, v);
    else into[k] = v;
  }
}

const isText = (s: Json) =>
  s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string') && !s.type.includes('object'));

/** An object where the file has text (answer options as {Id, Name} where the file lists their names): its name. */
const asText = (v: unknown): unknown => (isObj(v) && typeof v.Name === 'string' ? v.Name : v);

export interface RecordShape {
  template: Json;
  idAt?: string[];
  /** Top-level properties the file types as text, or a list of text: an object the store has there goes by its name. */
  texts: { key: string; many: boolean }[];
}

/**
 * A record with every property the file documents for the dataset (values the store has none for), and
 * where the file keeps the record's own GUID: the sandbox serves each record's real GUID there even when the
 * binding did not see it, as the customer's service would.
 */
export function recordTemplate(
  file: ApiFile | undefined,
  op: FileOperation | undefined,
  seed: string,
): RecordShape | undefined {
  if (!file || !op?.record) return undefined;
  const t = sampleOf(file.answerDoc, op.record, { all: true, seed });
  if (!isObj(t)) return undefined;
  const texts: RecordShape['texts'] = [];
  const props = flatten(file.answerDoc, op.record).properties;
  for (const [key, raw] of Object.entries(isObj(props) ? props : {})) {
    const p = flatten(file.answerDoc, raw);
    if (isText(p)) texts.push({ key, many: false });
    else if (p.type === 'array' && isText(flatten(file.answerDoc, p.items))) texts.push({ key, many: true });
  }
  return { template: t, idAt: idPath(file.answerDoc, op.record), texts };
}

/** The start and end of a records answer wrapped in an envelope at `pointer` (`/data` -> `{"data":` ... `}`). */
export function envelopeOf(pointer: string): { head: string; tail: string } {
  const parts = pointerParts(pointer);
  return {
    head: parts.map((p) => `{${JSON.stringify(p)}:`).join(''),
    tail: '}'.repeat(parts.length),
  };
}

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
