import { createHash } from 'node:crypto';
import { deref } from './document';

/**
 * Values that satisfy a schema of the customer's file: the body of an answer the file documents (with the new
 * record's id where the file puts it), and the properties of a dataset record the sandbox has no value for.
 * Deterministic: the same seed text gives the same values.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SampleOptions {
  /** Every documented property (a record) or only the required ones (an answer). */
  all: boolean;
  /** Makes GUIDs and numbers differ between records. */
  seed: string;
}

const MAX_DEPTH = 6;

function guidFrom(text: string): string {
  const h = createHash('sha1').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The schema with `$ref`s followed and `allOf` parts merged into one object schema (properties, required). */
export function flatten(doc: Obj, schema: unknown, depth = 0): Obj {
  const s = deref(doc, schema);
  if (!isObj(s)) return {};
  if (!Array.isArray(s.allOf) || depth > MAX_DEPTH) return s;
  const out: Obj = { ...s, properties: { ...(isObj(s.properties) ? s.properties : {}) } };
  delete out.allOf;
  const required = new Set<string>(Array.isArray(s.required) ? (s.required as string[]) : []);
  for (const part of s.allOf) {
    const p = flatten(doc, part, depth + 1);
    Object.assign(out.properties as Obj, isObj(p.properties) ? p.properties : {});
    for (const r of Array.isArray(p.required) ? (p.required as string[]) : []) required.add(r);
    if (out.type === undefined && p.type !== undefined) out.type = p.type;
  }
  out.required = [...required];
  return out;
}

/** The first alternative of a oneOf/anyOf that is not just null. */
function firstChoice(doc: Obj, s: Obj): unknown {
  const list = (s.oneOf ?? s.anyOf) as unknown[];
  return list.find((x) => {
    const d = deref(doc, x);
    return !(isObj(d) && d.type === 'null');
  });
}

const typeOf = (s: Obj): string | undefined => {
  if (Array.isArray(s.type)) return (s.type as string[]).find((t) => t !== 'null') ?? 'null';
  if (typeof s.type === 'string') return s.type;
  if (isObj(s.properties)) return 'object';
  if (s.items) return 'array';
  return undefined;
};

export function sampleOf(doc: Obj, schema: unknown, o: SampleOptions, at = '', depth = 0): unknown {
  if (schema === false || depth > MAX_DEPTH) return undefined;
  const s = flatten(doc, schema);
  if ((Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) && !s.properties)
    return sampleOf(doc, firstChoice(doc, s), o, at, depth + 1);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? null;
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'object': {
      const out: Obj = {};
      const props = isObj(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      for (const [name, p] of Object.entries(props)) {
        if (p === false || (!o.all && !required.includes(name))) continue;
        const v = sampleOf(doc, p, o, `${at}/${name}`, depth + 1);
        if (v !== undefined) out[name] = v;
      }
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const items = Array.isArray(s.prefixItems) ? s.prefixItems[0] : s.items;
      return Array.from({ length: min }, (_, i) => sampleOf(doc, items, o, `${at}/${i}`, depth + 1));
    }
    case 'string': {
      const text = sampleString(s, `${o.seed}${at}`);
      if (text !== undefined) return text;
      return Array.isArray(s.type) && s.type.includes('null') ? null : 'x';
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}

/** Texts tried against a pattern: the file's own examples first, then shapes files often ask for. */
const PATTERN_TRIES = ['5493001KJTIIGC8Y1R12', 'None', '0', 'x', 'X', 'a', 'A1', '2026-01-01'];

/** A text for the schema, or undefined when its pattern admits none the sandbox can think of. */
function sampleString(s: Obj, seed: string): string | undefined {
  if (typeof s.pattern === 'string') {
    let re: RegExp;
    try {
      re = new RegExp(s.pattern, 'u');
    } catch {
      return undefined;
    }
    const examples = [s.example, ...(Array.isArray(s.examples) ? s.examples : [])].filter(
      (e): e is string => typeof e === 'string',
    );
    return [...examples, ...PATTERN_TRIES].find((t) => re.test(t));
  }
  switch (s.format) {
    case 'uuid':
      return guidFrom(seed);
    case 'date':
      return '2026-01-01';
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'email':
      return 'someone@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uri-reference':
      return '/';
  }
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  return 'x'.repeat(Math.max(min, 1));
}

const ID_NAME = /^(id|guid|uuid)$/i;
const ID_LIKE = /(id|guid)$/i;

/**
 * Where an answer schema holds the record's id, as a list of property names: the property named id/guid
 * nearest the top (through envelopes such as `{"data": {"id"}}`), else the nearest uuid-formatted string.
 */
export function idPath(doc: Obj, schema: unknown): string[] | undefined {
  let level: { s: Obj; path: string[] }[] = [{ s: flatten(doc, schema), path: [] }];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: typeof level = [];
    let named: string[] | undefined;
    let formatted: string[] | undefined;
    for (const { s, path } of level) {
      for (const [name, raw] of Object.entries(isObj(s.properties) ? s.properties : {})) {
        const p = flatten(doc, raw);
        if (typeOf(p) === 'string') {
          if (!named && ID_NAME.test(name)) named = [...path, name];
          if (!formatted && p.format === 'uuid' && ID_LIKE.test(name)) formatted = [...path, name];
        } else if (typeOf(p) === 'object') next.push({ s: p, path: [...path, name] });
      }
    }
    if (named ?? formatted) return named ?? formatted;
    level = next;
  }
  return undefined;
}

/**
 * Where a create's answer schema puts the new record's id: [] when the answer is the id itself (a bare
 * `{"type": "string", "format": "uuid"}`, Swashbuckle's habit, or text the binding reads the id from), the place the binding reads it from where the
 * file has text there (an envelope such as `{Result, Messages}`), else the id-named property (idPath), else
 * the one uuid-formatted text; undefined when the schema has no place for it.
 */
export function answerIdAt(doc: Obj, schema: unknown, bound?: string[]): string[] | undefined {
  const s = flatten(doc, schema);
  if (typeOf(s) === 'string') return s.format === 'uuid' || s.format === 'guid' || bound?.length === 0 ? [] : undefined;
  if (bound?.length) {
    let at: Obj | undefined = s;
    for (const p of bound) at = at && isObj(at.properties) ? flatten(doc, at.properties[p]) : undefined;
    if (at && typeOf(at) === 'string') return bound;
  }
  const named = idPath(doc, schema);
  if (named) return named;
  const guids = Object.entries(isObj(s.properties) ? s.properties : {}).filter(([, p]) => flatten(doc, p).format === 'uuid');
  return guids.length === 1 ? [guids[0]![0]] : undefined;
}

export function setAt(target: Obj, path: string[], value: unknown): void {
  let at = target;
  for (const p of path.slice(0, -1)) {
    if (!isObj(at[p])) at[p] = {};
    at = at[p] as Obj;
  }
  at[path[path.length - 1]!] = value;
}
