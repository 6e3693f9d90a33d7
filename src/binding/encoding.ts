import { pointerOf, type Encoding } from '../catalog';
import { bodyValues, isCustomFields, isReference, type CatField } from './fields';
import { isDateFormat, isGuidFormat, kindOf, type Schema } from './schema';
import { isRefSuffixed, splitWords, words } from './words';

/**
 * The encoding that carries a catalogue field's typed value into the shape the file gives its property:
 * a reference as a GUID string, a {Guid, Name} object or an array of them; a date in the file's format;
 * an enum in the file's spelling; a number and unit joined; custom field answers in the file's entry shape.
 * Undefined when the shapes cannot meet (an object where the catalogue has a date): then the field is not
 * placed there.
 */

const ID_WORDS = new Set(['id', 'guid', 'uuid', 'key', 'ref']);
const NAME_WORDS = new Set(['name', 'displayname', 'label', 'title', 'text']);

/**
 * The keys of a reference object: which property holds the GUID and which the name. In a request,
 * readOnly keys are left out (the service sets them), and of a oneOf/anyOf ({id} | {name}) only the
 * variant with the GUID is used, since a body must match one variant.
 */
export function refKeys(
  schema: Schema,
  role: 'body' | 'record' = 'record',
  prefer: 'id' | 'name' = 'id',
): { idAt?: string; nameAt?: string } | undefined {
  const withId = (v: Schema) => Object.keys(v.properties ?? {}).some((k) => ID_WORDS.has(splitWords(k).join('')) || isGuidFormat(v.properties![k]!.format));
  const withName = (v: Schema) => Object.keys(v.properties ?? {}).some((k) => NAME_WORDS.has(words(k).join('')));
  // A record shows one variant too: the one with the name where the catalogue reads a name.
  const variant = schema.variants && (role === 'body' || prefer === 'id' ? schema.variants.find(withId) : schema.variants.find(withName));
  const s = variant ?? schema;
  const keys = Object.keys(s.properties ?? {}).filter((k) => role !== 'body' || !s.properties![k]!.readOnly);
  if (!keys.length) return undefined;
  const ws = (k: string) => splitWords(k);
  const idKey =
    keys.find((k) => ws(k).length === 1 && ID_WORDS.has(ws(k)[0]!)) ??
    keys.find((k) => isGuidFormat(s.properties![k]!.format)) ??
    keys.find((k) => isRefSuffixed(k));
  const nameKey = keys.find((k) => NAME_WORDS.has(words(k).join(''))) ?? keys.find((k) => NAME_WORDS.has(ws(k).join('')));
  if (!idKey && !nameKey) return undefined;
  return { ...(idKey ? { idAt: pointerOf(idKey) } : {}), ...(nameKey ? { nameAt: pointerOf(nameKey) } : {}) };
}

/** A reference-like object: a GUID key and few other properties ({Guid}, {id, name}, {Guid, Name, Code}). */
export function isRefLike(s: Schema): boolean {
  const keys = Object.keys(s.properties ?? {});
  return keys.length > 0 && keys.length <= 4 && !!refKeys(s)?.idAt;
}

const fold = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const same = (a: string, b: string) => fold(a) === fold(b) || fold(a).replace(/s$/, '') === fold(b).replace(/s$/, '');

/**
 * Catalogue enum values -> the file's value of the same meaning: by the name the file gives a value
 * (`names`: value -> name, enum-names.ts), else by the value's own spelling (case and separators aside:
 * "Months" -> "MONTHS"). With names, every named value the catalogue lacks is added under its name ("Years"
 * -> "4"): users pick names, never the file's numbers. A catalogue value the file does not name stays out
 * (enumsUnread reports it).
 */
export function enumMap(catalogue: readonly string[], file: readonly string[], names?: Readonly<Record<string, string>>): Record<string, string> {
  const map: Record<string, string> = {};
  for (const v of catalogue) {
    const named = names && Object.keys(names).find((x) => same(names[x]!, v));
    const w = named ?? (names && file.every((x) => names[x] !== undefined) ? undefined : file.find((x) => fold(x) === fold(v)) ?? file.find((x) => same(x, v)));
    if (w !== undefined && (w !== v || named !== undefined)) map[v] = w;
  }
  const taken = new Set(Object.values(map));
  for (const [value, name] of Object.entries(names ?? {}))
    if (!taken.has(value) && !catalogue.includes(name) && map[name] === undefined && file.includes(value)) map[name] = value;
  return map;
}

/** The file's enum values are numbers: sent as JSON numbers. */
function numbers(s: Schema | undefined): 'integer' | 'number' | undefined {
  if (!s?.enum?.length) return undefined;
  if (s.type === 'integer') return 'integer';
  if (s.type === 'number') return 'number';
  if (!s.enum.every((v) => typeof v === 'number')) return undefined;
  return s.enum.every((v) => Number.isInteger(v)) ? 'integer' : 'number';
}

/** The enum encoding of a catalogue field (its values, if it has them) in a file's enum property. */
export function enumEncoding(catalogue: readonly string[], f: Schema): Extract<Encoding, { kind: 'enum' }> {
  const values = (f.enum ?? []).map(String);
  const as = numbers(f);
  return { kind: 'enum', values, map: enumMap(catalogue, values, f.enumNames), ...(as ? { as } : {}) };
}

function customFieldsEncoding(f: Schema): Encoding | undefined {
  if (kindOf(f) === 'object' && f.additionalProperties && !f.properties) return { kind: 'custom-fields', style: 'map' };
  const item = kindOf(f) === 'array' ? f.items : undefined;
  if (!item?.properties) return undefined;
  const keys = Object.keys(item.properties);
  const w = (k: string) => words(k);
  const guidKey =
    keys.find((k) => { const x = w(k); return x.includes('customfield') || (x.includes('field') && x.length <= 2); }) ??
    keys.find((k) => w(k).length === 1 && ID_WORDS.has(w(k)[0]!));
  const dateKey = keys.find((k) => { const x = w(k); return x.includes('date') && k !== guidKey; });
  const rest = keys.filter((k) => k !== guidKey && k !== dateKey);
  const valueKey =
    rest.find((k) => splitWords(k).some((x) => ['value', 'answer', 'text'].includes(x))) ?? (rest.length === 1 ? rest[0] : undefined);
  if (!guidKey || !valueKey) return undefined;
  const g = item.properties[guidKey]!;
  let guidAt = pointerOf(guidKey);
  if (kindOf(g) === 'object') {
    const inner = refKeys(g, 'body');
    if (!inner?.idAt) return undefined;
    guidAt += inner.idAt;
  }
  const v = item.properties[valueKey]!;
  return {
    kind: 'custom-fields',
    style: 'entries',
    guidAt,
    valueAt: pointerOf(valueKey),
    ...(dateKey ? { dateAt: pointerOf(dateKey) } : {}),
    ...(kindOf(v) === 'string' ? { valueAs: 'string' as const } : {}),
  };
}

function referenceEncoding(c: CatField, f: Schema, fileName: string, role: 'body' | 'record'): Encoding | undefined {
  const value = c.meaning?.value ?? 'guid';
  const list = c.meaning?.list;
  const base = { value, ...(list ? { list } : {}) } as const;
  const k = kindOf(f);
  const prefer = value === 'name' ? 'name' : 'id';
  if (k === 'object') {
    const keys = refKeys(f, role, prefer);
    return keys ? { kind: 'ref', ...base, ...keys } : undefined;
  }
  if (k === 'array') {
    const it = f.items;
    const one = c.type !== 'array' ? { single: true } : {};
    if (kindOf(it) === 'object') {
      const keys = it && refKeys(it, role, prefer);
      return keys ? { kind: 'ref', ...base, ...keys, many: true, ...one } : undefined;
    }
    const wantsGuid = isGuidFormat(it?.format) || isRefSuffixed(fileName) || value === 'guid';
    return wantsGuid ? { kind: 'guid', ...base, many: true, ...one } : { kind: 'plain', many: true, ...one };
  }
  if (k === 'string' || k === undefined) {
    const wantsGuid = isGuidFormat(f.format) || isRefSuffixed(fileName) || value === 'guid';
    return wantsGuid ? { kind: 'guid', ...base } : { kind: 'plain' };
  }
  return undefined;
}

function numberUnitEncoding(c: CatField, unit: CatField, f: Schema): Encoding | undefined {
  const k = kindOf(f);
  const catUnits = unit.enum ?? [];
  if (k === 'object' && f.properties) {
    const keys = Object.keys(f.properties);
    const unitKey = keys.find((x) => words(x).includes('unit'));
    const valueKey = keys.find((x) => x !== unitKey && (kindOf(f.properties![x]) === 'number'));
    if (!unitKey || !valueKey) return undefined;
    const u = f.properties[unitKey]!;
    const fileUnits = (u.enum ?? []).map(String);
    const unitAs = numbers(u);
    return { kind: 'number-unit', unitField: unit.name, style: 'object', valueAt: pointerOf(valueKey), unitAt: pointerOf(unitKey), units: enumMap(catUnits, fileUnits, u.enumNames), ...(unitAs ? { unitAs } : {}) };
  }
  if (k === 'string') {
    const iso = f.format === 'duration' || /^\^?P/.test(f.pattern ?? '') || /iso ?8601|duration/i.test(f.description ?? '');
    return { kind: 'number-unit', unitField: unit.name, style: iso ? 'iso-duration' : 'text', units: {} };
  }
  return undefined;
}

function scalarEncoding(c: CatField, f: Schema): Encoding | undefined {
  const k = kindOf(f);
  const isInt = f.type === 'integer';
  if (c.type === 'any') return { kind: 'plain' };
  if (c.type === 'array') {
    if (k === 'array') {
      const it = kindOf(f.items);
      if (it === 'object' || (c.items?.type === 'object' && it !== undefined)) return undefined;
      const as = it === 'string' && c.items?.type !== 'string' ? 'string' : it === 'number' && c.items?.type === 'string' ? (f.items?.type === 'integer' ? 'integer' : 'number') : undefined;
      if (f.items?.enum && c.items?.type === 'string') return { ...enumEncoding([], f.items), many: true };
      return { kind: 'plain', many: true, ...(as ? { as } : {}) };
    }
    if (k === 'string' || k === undefined) return { kind: 'plain', as: 'string' };
    return undefined;
  }
  if (k === 'object') return undefined;
  const many = k === 'array' ? true : undefined;
  const one = many ? { single: true } : {};
  const leaf = k === 'array' ? f.items : f;
  const lk = kindOf(leaf);
  if (lk === 'object' || lk === 'array') return undefined;
  // An enum, or text the file keeps as a named enum (a custom field's Type as Swashbuckle's 0..5): by meaning.
  if (leaf?.enum?.length && (c.enum || (c.type === 'string' && leaf.enumNames)))
    return { ...enumEncoding(c.enum ?? bodyValues(c.name), leaf), ...(many ? { many, ...one } : {}) };
  if (c.format === 'date' || c.format === 'date-time') {
    if (lk === 'string' || lk === undefined) return { kind: 'date', format: isDateFormat(leaf?.format) ? leaf!.format as 'date' | 'date-time' : c.format };
    return undefined;
  }
  let as: 'string' | 'number' | 'integer' | 'boolean' | undefined;
  if (c.type === 'number' && lk === 'string') as = 'string';
  else if (c.type === 'string' && lk === 'number') as = leaf?.type === 'integer' ? 'integer' : 'number';
  else if (c.type === 'number' && lk === 'number' && (isInt || leaf?.type === 'integer')) as = 'integer';
  else if (c.type === 'boolean' && lk === 'string') as = 'string';
  else if (c.type === 'string' && lk === 'boolean') as = 'boolean';
  return { kind: 'plain', ...(as ? { as } : {}), ...(many ? { many, ...one } : {}) };
}

/**
 * The encoding for catalogue field `c` placed at a file property of schema `f` named `fileName`.
 * `unit`: the catalogue's unit field for a number the file joins with its unit (NoticePeriodUnit).
 * `sub`: places the fields of a catalogue entry in the file's entry (for lists of objects).
 */
/**
 * A custom field's answer options listed as plain names (["Low", "High"]) where the catalogue has option
 * entries {Id, Name, Value} (spec): each name is the option's id, value and name, and is sent as the name.
 */
function optionNames(c: CatField, f: Schema): Encoding | undefined {
  if (c.name !== 'AnswerOptions' || kindOf(f) !== 'array' || kindOf(f.items) !== 'string') return undefined;
  const whole = (field: string) => ({ field, at: '', fileName: '', encoding: { kind: 'plain' as const } });
  // The name is what such a file holds: written last, so it is what is sent.
  return { kind: 'objects', fields: [whole('Id'), whole('Value'), whole('Name')] };
}

export function chooseEncoding(
  c: CatField,
  f: Schema,
  fileName: string,
  unit: CatField | undefined,
  sub: (fields: CatField[], entry: Schema) => Extract<Encoding, { kind: 'objects' }>['fields'] | undefined,
  role: 'body' | 'record' = 'body',
): Encoding | undefined {
  if (isCustomFields(c)) return customFieldsEncoding(f);
  const options = optionNames(c, f);
  if (options) return options;
  if (c.type === 'array' && c.items?.type === 'object' && c.items.fields) {
    if (kindOf(f) !== 'array' || !f.items?.properties) return undefined;
    const fields = sub(c.items.fields, f.items);
    return fields?.length ? { kind: 'objects', fields } : undefined;
  }
  if (unit && c.type === 'number' && kindOf(f) !== 'number') return numberUnitEncoding(c, unit, f);
  if (isReference(c)) return referenceEncoding(c, f, fileName, role);
  return scalarEncoding(c, f);
}
