import { z } from 'zod';
import { toJsonSchema, type JsonSchema } from './schema-json';

/**
 * Property paths and translation between the catalogue's field names and a customer's JSON (the binding's
 * property map). Pure: no I/O.
 *
 * A property path is a dotted path into the service's JSON: `Name`, `Organization.Guid`. One `[]` marks an
 * array: a catalogue list mapped to `Organizations[].Guid` is sent as `Organizations: [{ Guid }, { Guid }]`
 * (an array of reference objects: each element of the list goes to the rest of the path in its own entry).
 * An array of objects whose entries have their own fields (custom field entries) is `{ path, items }`, where
 * `items` maps each entry's fields. A path never ends in `[]`: a plain list is mapped by its own name.
 */

const SEG = '[A-Za-z0-9_$@-]+';
const PATH = new RegExp(`^${SEG}(\\[\\])?(\\.${SEG}(\\[\\])?)*$`);
export const propertyPath = z
  .string()
  .regex(PATH, 'a property path is dotted names, e.g. Organization.Guid or Organizations[].Guid')
  .refine((p) => !p.endsWith('[]'), 'a property path may not end in []')
  .refine((p) => (p.match(/\[\]/g) ?? []).length <= 1, 'a property path has at most one []');

/** A property the file requires that no catalogue field fills: the template gains a column for it. */
export const extraProperty = z.object({
  name: propertyPath,
  type: z.string(),
  format: z.string().optional(),
  enum: z.array(z.string()).optional(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});
export type ExtraProperty = z.infer<typeof extraProperty>;

export interface WireShape {
  properties: Record<string, string | { path: string; items: WireShape }>;
  required: string[];
  extra?: ExtraProperty[];
  enums: Record<string, { values: string[]; map?: Record<string, string> }>;
  formats: Record<string, string>;
}

export const wireShape: z.ZodType<WireShape> = z.lazy(() =>
  z.object({
    properties: z.record(
      z.string(),
      z.union([propertyPath, z.object({ path: propertyPath, items: wireShape })]),
    ),
    required: z.array(propertyPath),
    extra: z.array(extraProperty).optional(),
    enums: z.record(
      z.string(),
      z.object({ values: z.array(z.string()), map: z.record(z.string(), z.string()).optional() }),
    ),
    formats: z.record(z.string(), z.string()),
  }),
);

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function setPath(target: Json, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i]!;
    if (!isObj(at[p])) at[p] = {};
    at = at[p] as Json;
  }
  at[parts[parts.length - 1]!] = value;
}

function getPath(source: unknown, path: string): unknown {
  let at: unknown = source;
  for (const p of path.split('.')) {
    if (!isObj(at)) return undefined;
    at = at[p];
  }
  return at;
}

/** Sets `value` at a path that may hold one `[]`: a list is spread over the array's entries. */
function put(target: Json, path: string, value: unknown): void {
  const i = path.indexOf('[].');
  if (i < 0) return setPath(target, path, value);
  if (value === null || value === undefined) return setPath(target, path.slice(0, i), value);
  const list = Array.isArray(value) ? value : [value];
  const rest = path.slice(i + 3);
  setPath(
    target,
    path.slice(0, i),
    list.map((v) => {
      const entry: Json = {};
      setPath(entry, rest, v);
      return entry;
    }),
  );
}

function take(source: unknown, path: string): unknown {
  const i = path.indexOf('[].');
  if (i < 0) return getPath(source, path);
  const list = getPath(source, path.slice(0, i));
  if (!Array.isArray(list)) return list === null ? null : undefined;
  return list.map((e) => getPath(e, path.slice(i + 3)));
}

const mapEnum = (shape: WireShape, field: string, v: unknown, reverse: boolean): unknown => {
  const map = shape.enums[field]?.map;
  if (!map || typeof v !== 'string') return v;
  if (!reverse) return map[v] ?? v;
  const back = Object.entries(map).find(([, w]) => w === v);
  return back ? back[0] : v;
};

/**
 * Catalogue-shaped object -> wire-shaped object. Fields the shape does not map are left out (the file has no
 * such property; `unmappedFields` names them so a flow can say so). `extra` holds values for the shape's extra
 * properties, by wire path; an extra property with a default is filled with it when no value is given.
 */
export function toWire(shape: WireShape, value: Json, extra: Record<string, unknown> = {}): Json {
  const out: Json = {};
  for (const [field, v] of Object.entries(value)) {
    const to = shape.properties[field];
    if (to === undefined || v === undefined) continue;
    if (typeof to === 'string') put(out, to, mapEnum(shape, field, v, false));
    else put(out, to.path, Array.isArray(v) ? v.map((e) => (isObj(e) ? toWire(to.items, e) : e)) : v);
  }
  for (const p of shape.extra ?? []) {
    const v = p.name in extra ? extra[p.name] : p.default;
    if (v !== undefined) put(out, p.name, v);
  }
  return out;
}

/** Wire-shaped -> catalogue-shaped (answers, dataset records). `keepOthers` keeps unmapped top-level properties under their own names. */
export function fromWire(shape: WireShape, wire: unknown, keepOthers = false): Json {
  const out: Json = {};
  if (!isObj(wire)) return out;
  const used = new Set<string>();
  for (const [field, to] of Object.entries(shape.properties)) {
    const path = typeof to === 'string' ? to : to.path;
    used.add(path.split(/[.[]/)[0]!);
    const v = take(wire, path);
    if (v === undefined) continue;
    if (typeof to === 'string') out[field] = mapEnum(shape, field, v, true);
    else out[field] = Array.isArray(v) ? v.map((e) => (isObj(e) ? fromWire(to.items, e, keepOthers) : e)) : v;
  }
  if (keepOthers) for (const [k, v] of Object.entries(wire)) if (!used.has(k) && !(k in out)) out[k] = v;
  return out;
}

/** Catalogue fields with a value that the shape has no property for. */
export function unmappedFields(shape: WireShape, value: Json): string[] {
  return Object.keys(value).filter((f) => value[f] !== undefined && shape.properties[f] === undefined);
}

/**
 * Required wire paths absent from a built body. A nested requirement (`Organization.Guid`) applies only when
 * its parent is present, as in JSON Schema; with `[]` it applies to every entry.
 */
export function missingRequired(shape: WireShape, wireValue: unknown): string[] {
  const missing: string[] = [];
  for (const path of shape.required) {
    const i = path.indexOf('[].');
    // JSON Schema's `required` asks for presence: a null the body schema allows (a v2 full update clearing a
    // field) is present; whether null is allowed is the body schema's question, checked before this.
    const absent = (v: unknown) => v === undefined;
    if (i >= 0) {
      const list = getPath(wireValue, path.slice(0, i));
      if (Array.isArray(list) && list.some((e) => absent(getPath(e, path.slice(i + 3))))) missing.push(path);
      continue;
    }
    const dot = path.lastIndexOf('.');
    if (dot > 0 && !isObj(getPath(wireValue, path.slice(0, dot)))) continue;
    if (absent(getPath(wireValue, path))) missing.push(path);
  }
  return missing;
}

function shapeOf(js: JsonSchema): WireShape {
  const props = js.type === 'object' && js.properties ? js.properties : {};
  const shape: WireShape = { properties: {}, required: [...(js.required ?? [])], enums: {}, formats: {} };
  for (const [field, p] of Object.entries(props)) {
    const items =
      p.type === 'array' && p.items?.type === 'object' && p.items.properties ? p.items : undefined;
    if (items) {
      const inner = shapeOf(items);
      shape.properties[field] = { path: field, items: inner };
      for (const r of inner.required) shape.required.push(`${field}[].${r}`);
    } else shape.properties[field] = field;
    if (Array.isArray(p.enum)) shape.enums[field] = { values: p.enum.map(String) };
    const format = p.format ?? p.items?.format;
    if (typeof format === 'string') shape.formats[field] = format;
  }
  return shape;
}

/** The shape that maps every field of a catalogue schema to itself (no binding). */
export function identityMap(schema: z.ZodType): WireShape {
  return shapeOf(toJsonSchema(schema));
}
