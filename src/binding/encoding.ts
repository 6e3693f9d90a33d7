import { patternHasTime, patternIn, pointerOf, type Encoding } from '../catalog';
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

/** A separator a description gives for several values in one text: "separated by ;", "comma-separated". */
export function separatorIn(text: string | undefined): string | undefined {
  if (!text) return undefined;
  if (/comma[- ]separated|separated by (?:a )?comma/i.test(text)) return ',';
  if (/semicolon[- ]separated|separated by (?:a )?semicolon/i.test(text)) return ';';
  if (/pipe[- ]separated|separated by (?:a )?pipe/i.test(text)) return '|';
  const m = /(?:separated|joined|delimited) (?:by|with) ["'`]?([^\s"'`a-z0-9]{1,3})["'`]?/i.exec(text);
  return m?.[1];
}

/** Words saying a multi-select goes as one entry per chosen option. */
const REPEATS = /\b(?:one|an?|separate) (?:entry|item|element|object) (?:per|for each) (?:selected |chosen )?(?:option|value|answer)|repeat(?:ed)? (?:the )?entr(?:y|ies)|(?:several|multiple) entries (?:for|per) (?:one|the same|a) (?:field|custom field)/i;
/** Words asking for a select's option by its name (or its label, its text), not its id. */
const OPTION_NAME = /\b(?:names?|labels?|texts?|display (?:name|text)s?|captions?) of the (?:selected |chosen )?(?:options?|answers?|choices?|values?)|options?(?:'s)? (?:names?|labels?|texts?)\b|\b(?:options?|answers?) by (?:its |their )?names?\b/i;
/** Words asking for the option's id. */
const OPTION_ID = /\b(?:guids?|uuids?|ids?|identifiers?) of the (?:selected |chosen )?(?:options?|answers?|choices?)|options?(?:'s)? (?:guids?|uuids?|ids?|identifiers?)\b/i;

/**
 * How a select's answer goes: by the option's name where the file asks for the name in words, or where the
 * value is typed so that no GUID fits it (an enum of words, a pattern a GUID does not match); by its GUID
 * (the default, as the catalogue) otherwise.
 */
function optionsBy(texts: readonly (string | undefined)[], value: Schema | undefined): 'name' | undefined {
  const said = texts.filter(Boolean).join(' ');
  if (OPTION_ID.test(said)) return undefined;
  if (OPTION_NAME.test(said)) return 'name';
  const leaf = kindOf(value) === 'array' ? value?.items : value;
  if (leaf && !isGuidFormat(leaf.format) && kindOf(leaf) === 'string') {
    const sample = '0f8fad5b-d9cb-469f-a165-70867728950e';
    if (leaf.pattern) {
      try {
        if (!new RegExp(leaf.pattern).test(sample)) return 'name';
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Whether a value slot takes only text: a string, a list of strings, or alternatives of those
 * (`str | list[str]`): then every answer (a number, a yes/no) is sent as text.
 */
function textOnly(slot: Schema | undefined): boolean {
  const leaf = (s: Schema | undefined) => (kindOf(s) === 'array' ? s?.items : s);
  if (slot?.alternatives) return slot.alternatives.every((a) => kindOf(leaf(a)) === 'string');
  return kindOf(leaf(slot)) === 'string';
}

/** A date answer's format where the file gives one: a date-time slot, or a pattern in words. */
function answerDates(slot: Schema | undefined, texts: readonly (string | undefined)[]): Pick<Extract<Encoding, { kind: 'custom-fields' }>, 'dateFormat' | 'datePattern'> {
  const pattern = patternIn(slot?.format) ?? patternIn(slot?.description) ?? texts.map(patternIn).find(Boolean);
  if (pattern) return { datePattern: pattern, ...(patternHasTime(pattern) ? { dateFormat: 'date-time' as const } : {}) };
  return slot?.format === 'date-time' ? { dateFormat: 'date-time' } : {};
}

/**
 * How several answers of one field (a multi-select's options) go in a value slot: as a list where the slot
 * takes one (an array, or anything), joined where it takes text (with the separator its description
 * gives), one entry each only where the file says so in words; a slot for a number or a yes/no takes one.
 */
function multiOf(slot: Schema | undefined, texts: readonly (string | undefined)[], entries: boolean): Pick<Extract<Encoding, { kind: 'custom-fields' }>, 'multi' | 'separator'> {
  const said = texts.filter(Boolean).join(' ');
  const k = kindOf(slot);
  if (k === 'array') return { multi: 'array' };
  // A slot of one value or a list (`str | list[str]`): several options as a list, one as it is.
  if (slot?.alternatives?.some((a) => kindOf(a) === 'array')) return { multi: 'list' };
  if (entries && REPEATS.test(said)) return { multi: 'repeat' };
  if (k === 'string') {
    const separator = separatorIn(slot?.description) ?? separatorIn(said);
    return { multi: 'join', ...(separator ? { separator } : {}) };
  }
  if (k === undefined) return entries ? {} : { multi: 'array' };
  return {};
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
  if (kindOf(f) === 'object' && f.additionalProperties && !f.properties) {
    const value = f.additionalProperties;
    const texts = [f.description, value.description];
    const options = optionsBy(texts, value);
    return {
      kind: 'custom-fields',
      style: 'map',
      ...(textOnly(value) ? { valueAs: 'string' as const } : {}),
      ...multiOf(value, texts, false),
      ...(options ? { options } : {}),
      ...answerDates(value, texts),
    };
  }
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
    rest.find((k) => splitWords(k).some((x) => ['value', 'values', 'answer', 'answers', 'text'].includes(x))) ?? (rest.length === 1 ? rest[0] : undefined);
  if (!guidKey || !valueKey) return undefined;
  const g = item.properties[guidKey]!;
  let guidAt = pointerOf(guidKey);
  if (kindOf(g) === 'object') {
    const inner = refKeys(g, 'body');
    if (!inner?.idAt) return undefined;
    guidAt += inner.idAt;
  }
  const v = item.properties[valueKey]!;
  const texts = [f.description, item.description, v.description];
  const leaf = kindOf(v) === 'array' ? v.items : v;
  const options = optionsBy(texts, v);
  return {
    kind: 'custom-fields',
    style: 'entries',
    guidAt,
    valueAt: pointerOf(valueKey),
    ...(dateKey ? { dateAt: pointerOf(dateKey) } : {}),
    ...(textOnly(v) ? { valueAs: 'string' as const } : {}),
    ...multiOf(v, texts, true),
    ...(options ? { options } : {}),
    ...answerDates(dateKey ? item.properties[dateKey] : leaf, texts),
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
    if (lk !== 'string' && lk !== undefined) return undefined;
    const pattern = patternIn(leaf?.format) ?? patternIn(leaf?.description) ?? patternIn(f.description);
    if (pattern) return { kind: 'date', format: patternHasTime(pattern) ? 'date-time' : 'date', pattern };
    return { kind: 'date', format: isDateFormat(leaf?.format) ? leaf!.format as 'date' | 'date-time' : c.format };
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
