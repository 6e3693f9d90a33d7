import { enumNames } from './enum-names';

/**
 * A customer file's JSON Schemas, normalised to one plain form the importer reads: `allOf` merged,
 * `oneOf`/`anyOf` of objects merged (a property is required only when every variant requires it),
 * OpenAPI 3.0 `nullable`, Swagger's `x-nullable` and 3.1 type arrays (["string", "null"]) made `nullable`,
 * 3.1 `const` an enum of one, `readOnly`/`writeOnly` kept. $refs are already resolved by the parser; a
 * schema that refers to itself is cut where it recurs (an object with no properties there).
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  format?: string;
  enum?: unknown[];
  /** What the file says each enum value means (value as text -> name): enum-names.ts. */
  enumNames?: Record<string, string>;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  /** An object keyed by anything (a map): the schema of its values. */
  additionalProperties?: Schema;
  readOnly?: boolean;
  writeOnly?: boolean;
  default?: unknown;
  description?: string;
  pattern?: string;
  /** oneOf/anyOf of objects: the variants as the file has them (merged above for matching by name). */
  variants?: Schema[];
  /** oneOf/anyOf of different types that are not all objects (`str | list[str]`): each of them. */
  alternatives?: Schema[];
}

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean']);

const cache = new WeakMap<object, Schema>();
const inProgress = new WeakSet<object>();

function merge(parts: Schema[], requiredBy: 'all' | 'any'): Schema {
  const out: Schema = { type: 'object', properties: {} };
  const required: string[][] = [];
  for (const p of parts) {
    for (const [k, v] of Object.entries(p.properties ?? {})) {
      const before = out.properties![k];
      out.properties![k] = before && before.properties && v.properties ? merge([before, v], 'all') : v;
    }
    required.push(p.required ?? []);
    if (p.additionalProperties && !out.additionalProperties) out.additionalProperties = p.additionalProperties;
    if (p.description && !out.description) out.description = p.description;
  }
  const req =
    requiredBy === 'all'
      ? [...new Set(required.flat())]
      : (required[0] ?? []).filter((r) => required.every((list) => list.includes(r)));
  if (req.length) out.required = req;
  return out;
}

export function normalize(raw: unknown): Schema {
  if (!isObj(raw)) return {};
  const hit = cache.get(raw);
  if (hit) return hit;
  if (inProgress.has(raw)) return { type: 'object' };
  inProgress.add(raw);
  try {
    const s = build(raw);
    cache.set(raw, s);
    return s;
  } finally {
    inProgress.delete(raw);
  }
}

function build(raw: Raw): Schema {
  let nullable = raw.nullable === true || raw['x-nullable'] === true;
  let type: Schema['type'];
  if (Array.isArray(raw.type)) {
    const types = raw.type.map(String);
    if (types.includes('null')) nullable = true;
    const real = types.filter((t) => TYPES.has(t));
    // ["string", "number", "boolean"]: any of them, so no one type (a value goes as it is).
    if (real.length === 1) type = real[0] as Schema['type'];
  } else if (typeof raw.type === 'string') {
    if (raw.type === 'null') nullable = true;
    else if (TYPES.has(raw.type)) type = raw.type as Schema['type'];
  }
  let out: Schema = {};
  const variants = (key: 'oneOf' | 'anyOf') => (Array.isArray(raw[key]) ? (raw[key] as unknown[]) : []);
  const alternatives = [...variants('oneOf'), ...variants('anyOf')];
  if (alternatives.length) {
    const normal = alternatives.map(normalize);
    const isNull = (x: unknown, n: Schema) => isObj(x) && (x.type === 'null' || (Array.isArray(x.type) && x.type.length === 1 && x.type[0] === 'null')) && !n.properties;
    const real = normal.filter((n, i) => !isNull(alternatives[i], n));
    if (real.length < normal.length) nullable = true;
    if (real.length && real.every((n) => n.type === 'object' || n.properties)) {
      out = merge(real, 'any');
      if (real.length > 1) out.variants = real;
    }
    // Scalars of different types (string, number or boolean): any of them, so no one type.
    else if (real.length && new Set(real.map((n) => n.type)).size > 1) out = { alternatives: real };
    else if (real.length) out = { ...real[0]! };
  }
  if (Array.isArray(raw.allOf)) {
    const parts = (raw.allOf as unknown[]).map(normalize);
    const objects = parts.filter((p) => p.type === 'object' || p.properties);
    if (objects.length) out = merge([...(out.properties ? [out] : []), ...objects], 'all');
    else if (parts[0]) out = { ...parts[0], ...out };
  }
  if (isObj(raw.properties)) {
    const own: Schema = {
      type: 'object',
      properties: Object.fromEntries(Object.entries(raw.properties).map(([k, v]) => [k, normalize(v)])),
      ...(Array.isArray(raw.required) ? { required: raw.required.map(String) } : {}),
    };
    out = out.properties ? merge([out, own], 'all') : { ...out, ...own };
  } else if (Array.isArray(raw.required) && out.properties) {
    out.required = [...new Set([...(out.required ?? []), ...raw.required.map(String)])];
  }
  if (type) out.type = type;
  else if (!out.type && out.properties) out.type = 'object';
  if (raw.items !== undefined) out.items = normalize(raw.items);
  if (isObj(raw.additionalProperties)) out.additionalProperties = normalize(raw.additionalProperties);
  if (typeof raw.format === 'string') out.format = raw.format;
  if (Array.isArray(raw.enum)) out.enum = raw.enum.filter((v) => v !== null);
  const names = enumNames(raw, out.enum);
  if (names) out.enumNames = names;
  if (raw.const !== undefined) out.enum = [raw.const];
  if (raw.readOnly === true) out.readOnly = true;
  if (raw.writeOnly === true) out.writeOnly = true;
  if (raw.default !== undefined) out.default = raw.default;
  if (typeof raw.description === 'string') out.description = raw.description;
  if (typeof raw.pattern === 'string') out.pattern = raw.pattern;
  if (nullable) out.nullable = true;
  return out;
}

/** The type a schema is, integer as number; objects recognised by their properties. */
export function kindOf(s: Schema | undefined): 'object' | 'array' | 'string' | 'number' | 'boolean' | undefined {
  if (!s) return undefined;
  if (s.type === 'integer') return 'number';
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

export const isGuidFormat = (f: string | undefined): boolean => f === 'uuid' || f === 'guid';
export const isDateFormat = (f: string | undefined): f is 'date' | 'date-time' => f === 'date' || f === 'date-time';
