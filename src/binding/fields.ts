import { DATASETS_AND_OPERATIONS, FIELD_MEANINGS, toJsonSchema, type FieldMeaning, type JsonSchema } from '../catalog';

/**
 * A catalogue body or record field as the importer reads it: its type, format, enum, entries, and what it
 * means (catalog/meanings.ts). From the catalogue's JSON Schema rendering (catalog/schema-json.ts).
 */
export interface CatField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any';
  format?: string;
  enum?: string[];
  /** Arrays: the entry's type and, for entries that are objects, their fields. */
  items?: { type: CatField['type']; format?: string; fields?: CatField[] };
  fields?: CatField[];
  required: boolean;
  meaning?: FieldMeaning;
}

function typeOf(js: JsonSchema): CatField['type'] {
  if (js.anyOf) {
    const real = js.anyOf.filter((a) => a.type !== 'null');
    return real.length === 1 ? typeOf(real[0]!) : 'any';
  }
  switch (js.type) {
    case 'string':
    case 'boolean':
    case 'array':
    case 'object':
      return js.type;
    case 'number':
    case 'integer':
      return 'number';
    default:
      return js.properties ? 'object' : 'any';
  }
}

function fieldOf(name: string, js: JsonSchema, required: boolean): CatField {
  const inner = js.anyOf?.find((a) => a.type !== 'null') ?? js;
  const f: CatField = { name, type: typeOf(js), required };
  const format = inner.format ?? (inner.items as JsonSchema | undefined)?.format;
  if (typeof format === 'string' && f.type !== 'array') f.format = format;
  if (Array.isArray(inner.enum)) f.enum = inner.enum.map(String);
  if (f.type === 'array' && inner.items) {
    const it = inner.items;
    f.items = { type: typeOf(it), ...(typeof it.format === 'string' ? { format: it.format } : {}) };
    if (it.properties) f.items.fields = catFields(it);
  }
  if (f.type === 'object' && inner.properties) f.fields = catFields(inner);
  const meaning = FIELD_MEANINGS[name];
  if (meaning) f.meaning = meaning;
  return f;
}

let bodyEnums: Map<string, string[] | null> | undefined;
let anyBodyEnums: Map<string, Set<string>> | undefined;

/**
 * Every value any write operation's body gives a field of this name (a record's Status: the incident's
 * and the task's): how a file's named enum in a record reads back in the catalogue's spelling ("ToDo" is
 * "To do"), where the catalogue's record field is plain text.
 */
export function bodyValues(name: string): string[] {
  if (!anyBodyEnums) {
    anyBodyEnums = new Map();
    for (const op of DATASETS_AND_OPERATIONS) {
      if (op.kind !== 'operation' || !op.body) continue;
      for (const [k, v] of Object.entries(toJsonSchema(op.body).properties ?? {})) {
        const inner = v.anyOf?.find((a) => a.type !== 'null') ?? v;
        if (!Array.isArray(inner.enum)) continue;
        const set = anyBodyEnums.get(k) ?? new Set<string>();
        for (const x of inner.enum) set.add(String(x));
        anyBodyEnums.set(k, set);
      }
    }
  }
  return [...(anyBodyEnums.get(name) ?? [])];
}

/**
 * The values a field takes where some write operation's body lists them and no other body lists different
 * ones (NoticePeriodUnit): a record's text field of that name takes the same values, so a file's spelling
 * of them ("months") is read back as the catalogue's ("Months").
 */
function enumOfBodies(name: string): string[] | undefined {
  if (!bodyEnums) {
    bodyEnums = new Map();
    for (const op of DATASETS_AND_OPERATIONS) {
      if (op.kind !== 'operation' || !op.body) continue;
      for (const [k, v] of Object.entries(toJsonSchema(op.body).properties ?? {})) {
        const inner = v.anyOf?.find((a) => a.type !== 'null') ?? v;
        if (!Array.isArray(inner.enum)) continue;
        const values = inner.enum.map(String);
        const before = bodyEnums.get(k);
        bodyEnums.set(k, before === undefined || (before && before.join() === values.join()) ? values : null);
      }
    }
  }
  return bodyEnums.get(name) ?? undefined;
}

export function catFields(js: JsonSchema | undefined, role: 'body' | 'record' = 'body'): CatField[] {
  if (!js?.properties) return [];
  const required = new Set(js.required ?? []);
  return Object.entries(js.properties).map(([k, v]) => {
    const f = fieldOf(k, v, required.has(k));
    if (role === 'record' && !f.enum && f.type === 'string') {
      const values = enumOfBodies(k);
      if (values) f.enum = values;
    }
    return f;
  });
}

/** Custom field answers: entries with a CustomFieldGuid. */
export const isCustomFields = (c: CatField): boolean =>
  c.type === 'array' && !!c.items?.fields?.some((x) => x.name === 'CustomFieldGuid');

/** A field whose value names or points at a record (a reference). */
export const isReference = (c: CatField): boolean =>
  !!c.meaning || c.format === 'uuid' || c.items?.format === 'uuid';
