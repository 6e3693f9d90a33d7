import {
  encodeRequest,
  listsOf,
  type BoundDataset,
  type BoundOperation,
  type Placement,
} from '../../catalog';
import { pointerParts } from '../../catalog/pointer';
import type { ApiFile, FileOperation } from '../file/document';
import { flatten, idPath, sampleOf, setAt } from '../file/sample';
import type { Store } from '../store';
import { storeLists } from './lists';

/** Dataset records out of the store in the customer's shape: the binding's placements over the file's record. */
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  notNull: RecordShape['notNull'] = [],
  variants: RecordShape['variants'] = [],
  /** The file documents no properties for the record (RecordShape.open): the catalogue's fields are served. */
  open = false,
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
    const out: Json = open ? { ...r } : template ? (structuredClone(template) as Json) : {};
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
    for (const { key, many, shapes } of variants) {
      const v = out[key];
      out[key] = many && Array.isArray(v) ? v.map((x) => oneShape(x, shapes)) : oneShape(v, shapes);
    }
    for (const { key, required } of notNull)
      if (out[key] === null) {
        if (required && template) out[key] = template[key];
        else delete out[key];
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

/** The alternatives of a oneOf/anyOf that are objects closed to other members (additionalProperties false). */
function closedShapes(file: ApiFile, s: Json): RecordShape['variants'][number]['shapes'] {
  const choices = [...(Array.isArray(s.oneOf) ? s.oneOf : []), ...(Array.isArray(s.anyOf) ? s.anyOf : [])];
  return choices
    .map((c) => flatten(file.answerDoc, c))
    .filter((c) => c.additionalProperties === false && isObj(c.properties))
    .map((c) => ({
      keys: Object.keys(c.properties as Json),
      required: Array.isArray(c.required) ? (c.required as string[]) : [],
    }));
}

/** A value cut to the first closed shape whose required members it has. */
function oneShape(v: unknown, shapes: RecordShape['variants'][number]['shapes']): unknown {
  if (!isObj(v)) return v;
  const shape = shapes.find((sh) => sh.required.every((k) => v[k] !== undefined));
  return shape ? Object.fromEntries(Object.entries(v).filter(([k]) => shape.keys.includes(k))) : v;
}

function allowsNull(file: ApiFile, s: Json): boolean {
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
  const choices = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  return choices.some((c) => allowsNull(file, flatten(file.answerDoc, c)));
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
  /**
   * Top-level properties the file does not allow null in: a value the store lacks is left out there, or, where
   * the file requires the property, given the template's value (which the file's schema takes).
   */
  notNull: { key: string; required: boolean }[];
  /**
   * Top-level properties that are one of several closed object shapes (a reference by {id} or by {name}): a
   * value with the members of more than one is cut to the first shape it fills, as the service would write one.
   */
  variants: { key: string; many: boolean; shapes: { keys: string[]; required: string[] }[] }[];
  /**
   * The file documents the answer but not what a record holds (a bare `object`, `{}`, or no schema: what
   * Swashbuckle writes for `object` and for an undocumented `200: Success`): the records are the catalogue's
   * own, as the service that the spec describes sends them, rather than empty objects.
   */
  open?: true;
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
  if (!file || !op) return undefined;
  if (documentsNothing(file, op.record)) return { template: {}, texts: [], notNull: [], variants: [], open: true };
  const t = sampleOf(file.answerDoc, op.record, { all: true, seed });
  if (!isObj(t)) return undefined;
  const texts: RecordShape['texts'] = [];
  const notNull: RecordShape['notNull'] = [];
  const variants: RecordShape['variants'] = [];
  const record = flatten(file.answerDoc, op.record);
  const required = Array.isArray(record.required) ? (record.required as string[]) : [];
  const props = record.properties;
  for (const [key, raw] of Object.entries(isObj(props) ? props : {})) {
    const p = flatten(file.answerDoc, raw);
    if (!allowsNull(file, p)) notNull.push({ key, required: required.includes(key) });
    const one = p.type === 'array' ? flatten(file.answerDoc, p.items) : p;
    const shapes = closedShapes(file, one);
    if (shapes.length > 1) variants.push({ key, many: p.type === 'array', shapes });
    if (isText(p)) texts.push({ key, many: false });
    else if (p.type === 'array' && isText(flatten(file.answerDoc, p.items))) texts.push({ key, many: true });
  }
  return { template: t, idAt: idPath(file.answerDoc, op.record), texts, notNull, variants };
}

/** A record schema with no properties that is still open to any (an object without `additionalProperties: false`). */
function documentsNothing(file: ApiFile, record: unknown): boolean {
  if (record === undefined) return true;
  const s = flatten(file.answerDoc, record);
  if (s.type !== undefined && s.type !== 'object') return false;
  if (s.oneOf !== undefined || s.anyOf !== undefined || s.additionalProperties === false) return false;
  return !isObj(s.properties) || Object.keys(s.properties).length === 0;
}

/** The start and end of a records answer wrapped in an envelope at `pointer` (`/data` -> `{"data":` ... `}`). */
export function envelopeOf(pointer: string): { head: string; tail: string } {
  const parts = pointerParts(pointer);
  return {
    head: parts.map((p) => `{${JSON.stringify(p)}:`).join(''),
    tail: '}'.repeat(parts.length),
  };
}
