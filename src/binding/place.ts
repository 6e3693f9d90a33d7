import {
  LIST_WORDS,
  PATH_GUID_FIELD,
  patternHasTime,
  patternIn,
  offeredValues,
  pointerOf,
  templateParams,
  type Encoding,
  type ExtraColumn,
  type Placement,
  type PlacementHow,
} from '../catalog';
import { chooseEncoding, enumEncoding, isRefLike, refKeys } from './encoding';
import { isCustomFields, isReference, type CatField } from './fields';
import type { FileParameter } from './parse';
import { isDateFormat, isGuidFormat, kindOf, type Schema } from './schema';
import { baseWords, isRefSuffixed, matchName, words, type NameMatch } from './words';

/**
 * Places a catalogue endpoint's fields in one operation of the customer's file: each field at the file's
 * property (or path or query parameter) that means it, by name (case, separators, plurals, reference
 * suffixes aside), by synonym or British spelling, or by shape; with the encoding that carries the typed
 * value into that property's shape. What the file has and no field fills becomes an extra column typed
 * from the file's schema. readOnly properties are never placed in a request.
 */

export interface Slot {
  pointer: string;
  name: string;
  schema: Schema;
  /** Required where it sits, and every object above it required too. */
  required: boolean;
  depth: number;
  parent?: Slot;
}

export interface PlaceOutcome {
  placements: Placement[];
  extras: ExtraColumn[];
  /** Catalogue fields the file has no room for. */
  unplaced: string[];
  /** How well the two sides fit, 0..1: for choosing between operations. */
  fit: number;
}

const MAX_DEPTH = 3;

/** The file body's properties at any depth up to 3, objects that are references not opened. */
export function slotsOf(body: Schema | undefined, role: 'body' | 'record'): Slot[] {
  const out: Slot[] = [];
  const walk = (s: Schema, prefix: string, depth: number, required: boolean, parent?: Slot) => {
    const req = new Set(s.required ?? []);
    for (const [name, p] of Object.entries(s.properties ?? {})) {
      if (role === 'body' && p.readOnly) continue;
      if (role === 'record' && p.writeOnly) continue;
      const slot: Slot = { pointer: `${prefix}${pointerOf(name)}`, name, schema: p, required: required && req.has(name), depth, ...(parent ? { parent } : {}) };
      out.push(slot);
      if (kindOf(p) === 'object' && p.properties && !isRefLike(p) && depth < MAX_DEPTH) walk(p, slot.pointer, depth + 1, slot.required, slot);
    }
  };
  if (body && kindOf(body) === 'object') walk(body, '', 1, true);
  return out;
}

const RANK: Record<NameMatch, number> = { exact: 0, name: 1, synonym: 2 };
const howOf = (m: NameMatch): PlacementHow => (m === 'exact' ? 'exact' : m);

/** Whether a slot lies inside (or is) another. */
const within = (s: Slot, other: Slot) => s.pointer === other.pointer || s.pointer.startsWith(`${other.pointer}/`);

interface Ctx {
  resource: string[];
  role: 'body' | 'record';
}

function unitFieldOf(c: CatField, all: readonly CatField[]): CatField | undefined {
  return c.type === 'number' ? all.find((x) => x.name === `${c.name}Unit`) : undefined;
}

/** Places `fields` in `slots`; returns placements and which slots were used. */
function placeInSlots(fields: readonly CatField[], slots: readonly Slot[], ctx: Ctx, used: Set<Slot>, placed: Map<string, Placement>): void {
  const free = (s: Slot) => ![...used].some((u) => within(s, u) || within(u, s));
  const tryPlace = (c: CatField, slot: Slot, how: PlacementHow): boolean => {
    const unit = unitFieldOf(c, fields);
    const unitHasOwn = unit && slots.some((s) => free(s) && s !== slot && matchName(unit.name, s.name, ctx.resource));
    const enc = chooseEncoding(c, slot.schema, slot.name, unitHasOwn ? undefined : unit, (sub, entry) => placeEntry(sub, entry, ctx), ctx.role);
    if (!enc) return false;
    used.add(slot);
    placed.set(c.name, { field: c.name, in: 'body', at: slot.pointer, fileName: slot.name, encoding: enc, how, ...(slot.required ? { required: true } : {}) });
    return true;
  };
  // By name: best match first, shallow before deep.
  const pairs: { c: CatField; slot: Slot; m: NameMatch }[] = [];
  for (const c of fields) {
    if (placed.has(c.name)) continue;
    for (const slot of slots) {
      // Nested properties are also known by their parent's name: rootCause.category, Term.Start.
      const m =
        matchName(c.name, slot.name, ctx.resource) ??
        (slot.parent && matchName(c.name, `${slot.parent.name} ${slot.name}`, ctx.resource) ? 'synonym' : undefined);
      if (m) pairs.push({ c, slot, m });
    }
  }
  pairs.sort((a, b) => RANK[a.m] - RANK[b.m] || a.slot.depth - b.slot.depth);
  for (const { c, slot, m } of pairs) if (!placed.has(c.name) && free(slot)) tryPlace(c, slot, howOf(m));
  // By shape: custom field answers in the one list of entries with a field id and a value; a reference in
  // the one free property that names the same kind of record (reportingUnit for ReportingOrganization is
  // not guessed; supplierRef for ThirdPartyGuid is).
  for (const c of fields) {
    if (placed.has(c.name)) continue;
    const candidates = slots.filter((s) => {
      if (!free(s)) return false;
      if (isCustomFields(c)) return chooseEncoding(c, s.schema, s.name, undefined, () => undefined) !== undefined;
      if (isReference(c) && c.meaning?.list) {
        const own = baseWords(c.name);
        const last = own[own.length - 1]!;
        const theirs = baseWords(s.name);
        const listWords = Object.keys(LIST_WORDS).filter((w) => LIST_WORDS[w] === c.meaning!.list);
        const namesList = listWords.includes(last) || theirs.some((w) => listWords.includes(w));
        return theirs.includes(last) && namesList && (isRefLike(s.schema) || isGuidFormat(s.schema.format) || isRefSuffixed(s.name) || kindOf(s.schema) === 'array');
      }
      return false;
    });
    if (candidates.length === 1) tryPlace(c, candidates[0]!, 'shape');
  }
  // By description, where the name says nothing: SeverityGuid "The incident's classification.",
  // Headline "The incident's name." A short description that names every word of the field, unique.
  for (const c of fields) {
    if (placed.has(c.name)) continue;
    const want = baseWords(c.name);
    const candidates = slots.filter((s) => {
      if (!free(s) || !s.schema.description) return false;
      const said = words(s.schema.description);
      if (said.length > 14 || !want.every((w) => said.includes(w))) return false;
      return !fields.some((other) => other !== c && matchName(other.name, s.name, ctx.resource));
    });
    if (candidates.length === 1) tryPlace(c, candidates[0]!, 'synonym');
  }
  // A text field whose name matches an object of the file: its one free text property
  // (rootCause: {category: {id}, explanation} for RootCause).
  for (const c of fields) {
    if (placed.has(c.name) || c.type !== 'string' || isReference(c)) continue;
    const holder = slots.find((s) => kindOf(s.schema) === 'object' && matchName(c.name, s.name, ctx.resource));
    if (!holder) continue;
    const texts = slots.filter((s) => s.parent === holder && free(s) && kindOf(s.schema) === 'string' && !isGuidFormat(s.schema.format) && !isRefSuffixed(s.name));
    if (texts.length === 1) tryPlace(c, texts[0]!, 'shape');
  }
}

/** Places the fields of a catalogue list's entries (Hyperlinks: Url, Description) in the file's entry. */
function placeEntry(fields: CatField[], entry: Schema, ctx: Ctx): Extract<Encoding, { kind: 'objects' }>['fields'] | undefined {
  const slots = slotsOf(entry, ctx.role).filter((s) => s.depth === 1);
  const placed = new Map<string, Placement>();
  placeInSlots(fields, slots, ctx, new Set(), placed);
  return [...placed.values()].map((p) => ({ field: p.field, at: p.at, fileName: p.fileName, encoding: p.encoding }));
}

/** The literal segment before each path parameter: what the parameter is the id of. */
function paramContext(path: string): Map<string, string> {
  const parts = path.split('/').filter(Boolean);
  const out = new Map<string, string>();
  parts.forEach((p, i) => {
    const m = /^\{(.+)\}$/.exec(p);
    if (!m) return;
    const before = [...parts.slice(0, i)].reverse().find((x) => !x.startsWith('{') && !/^v\d+$/i.test(x));
    out.set(m[1]!, before ?? '');
  });
  return out;
}

const sameWords = (a: string[], b: string[]) => a.length > 0 && a.length === b.length && a.every((w, i) => w === b[i]);

/** Whether parameter `name` (after segment `segment`) is the id of what `what` names (incident, ThirdPartyGuid). */
function paramMeans(name: string, segment: string, what: string): boolean {
  const target = baseWords(what);
  const own = baseWords(name);
  if (sameWords(own, target)) return true;
  return (own.length === 0 || words(name).every((w) => ['id', 'guid', 'uuid', 'key', 'ref'].includes(w))) && sameWords(baseWords(segment), target);
}

/** A file part of a form: Swagger's `type: file`, OpenAPI's binary string. */
const isBinary = (s: Schema): boolean => kindOf(s) === 'string' && (s.format === 'binary' || s.format === 'base64');

function extraCell(s: Schema, name: string): Pick<ExtraColumn, 'cell' | 'values' | 'list' | 'many' | 'encoding' | 'header'> | undefined {
  const k = kindOf(s);
  const listFor = (n: string) => {
    const ws = baseWords(n);
    for (let i = 0; i < ws.length; i++) {
      const hit = LIST_WORDS[ws.slice(i).join('')] ?? LIST_WORDS[ws[i]!];
      if (hit) return hit;
    }
    return undefined;
  };
  if (k === 'array') {
    const inner = s.items && extraCell(s.items, name);
    if (!inner || inner.many || inner.encoding.kind === 'custom-fields' || inner.encoding.kind === 'objects') return undefined;
    const enc = inner.encoding;
    const many: Encoding =
      enc.kind === 'plain' || enc.kind === 'guid' || enc.kind === 'ref' || enc.kind === 'enum' ? { ...enc, many: true } : enc;
    return { ...inner, many: true, encoding: many };
  }
  if (k === 'object') {
    const keys = refKeys(s, 'body');
    // A reference is an id and perhaps a name; an object with more to it is not one cell.
    if ((!keys?.idAt && !keys?.nameAt) || Object.keys(s.properties ?? {}).length > 2) return undefined;
    const list = listFor(name);
    if (list) return { cell: 'name', list, header: name, encoding: { kind: 'ref', list, value: 'name', ...keys } };
    if (keys.idAt) return { cell: 'guid', header: `${name} (GUID)`, encoding: { kind: 'ref', value: 'guid', idAt: keys.idAt } };
    return { cell: 'text', header: name, encoding: { kind: 'ref', value: 'name', nameAt: keys.nameAt! } };
  }
  if (s.enum?.length) {
    // Named values (an integer enum whose description says "0 = Phone, 1 = Email") are picked by name.
    const encoding = enumEncoding([], s);
    return { cell: 'text', values: offeredValues([], encoding), header: name, encoding };
  }
  const guidNamed = /(guid|uuid)s?$/i.test(name);
  if (k === 'string' && (isGuidFormat(s.format) || guidNamed || (isRefSuffixed(name) && listFor(name)))) {
    const list = listFor(name);
    if (list) return { cell: 'name', list, header: name, encoding: { kind: 'guid', list, value: 'name' } };
    return { cell: 'guid', header: guidNamed ? name : `${name} (GUID)`, encoding: { kind: 'guid', value: 'guid' } };
  }
  if (k === 'string' && isBinary(s)) return undefined;
  const pattern = k === 'string' ? (patternIn(s.format) ?? patternIn(s.description)) : undefined;
  if (pattern) {
    const format = patternHasTime(pattern) ? 'date-time' : 'date';
    return { cell: format, header: name, encoding: { kind: 'date', format, pattern } };
  }
  if (k === 'string' && isDateFormat(s.format)) return { cell: s.format, header: name, encoding: { kind: 'date', format: s.format } };
  if (k === 'number') return s.type === 'integer' ? { cell: 'integer', header: name, encoding: { kind: 'plain', as: 'integer' } } : { cell: 'number', header: name, encoding: { kind: 'plain', as: 'number' } };
  if (k === 'boolean') return { cell: 'boolean', header: name, encoding: { kind: 'plain', as: 'boolean' } };
  if (k === 'string' || k === undefined) return { cell: 'text', header: name, encoding: { kind: 'plain' } };
  return undefined;
}

function extraOf(where: 'body' | 'path' | 'query', at: string, name: string, s: Schema, required: boolean, header?: string): ExtraColumn | undefined {
  const cell = extraCell(s, name);
  if (!cell) return undefined;
  return {
    key: `${where}:${at}`,
    ...cell,
    header: header ?? cell.header,
    in: where,
    at,
    fileName: name,
    required,
    ...(s.default !== undefined ? { default: s.default } : {}),
    ...(s.description ? { description: s.description } : {}),
  };
}

export interface OperationSide {
  path: string;
  params: readonly FileParameter[];
  body?: Schema;
}

/**
 * Places a catalogue operation (its body fields, and its own `{guid}` when its path has one) in a file
 * operation. `cataloguePath` says what the catalogue's `{guid}` is the id of.
 */
export function placeOperation(fields: readonly CatField[], cataloguePath: string, file: OperationSide, resource: string[]): PlaceOutcome & { unfillable: string[] } {
  const ctx: Ctx = { resource, role: 'body' };
  const placed = new Map<string, Placement>();
  const pathParams = templateParams(file.path);
  const context = paramContext(file.path);
  const paramUsed = new Set<string>();
  const param = (field: string, name: string, how: PlacementHow, encoding: Encoding): void => {
    paramUsed.add(name);
    placed.set(field, { field, in: 'path', at: name, fileName: name, encoding, how, required: true });
  };
  // The catalogue's own {guid}: the parameter that is the id of the same kind of record.
  if (cataloguePath.includes('{guid}')) {
    const catContext = paramContext(cataloguePath).get('guid') ?? '';
    const hit = pathParams.find((p) => paramMeans(p, context.get(p) ?? '', catContext)) ?? pathParams[pathParams.length - 1];
    if (hit) param(PATH_GUID_FIELD, hit, hit === pathParams[pathParams.length - 1] && !paramMeans(hit, context.get(hit) ?? '', catContext) ? 'shape' : 'name', { kind: 'plain' });
  }
  // A reference the file puts in the path: /thirdparties/{id}/contracts for ThirdPartyGuid.
  for (const c of fields) {
    if (!isReference(c) || c.type === 'array') continue;
    const hit = pathParams.find((p) => !paramUsed.has(p) && paramMeans(p, context.get(p) ?? '', c.name));
    if (hit) param(c.name, hit, 'name', c.meaning?.value === 'name' ? { kind: 'guid', value: 'name', ...(c.meaning.list ? { list: c.meaning.list } : {}) } : { kind: 'plain' });
  }
  const slots = slotsOf(file.body, 'body');
  const used = new Set<Slot>();
  // A document's content (the catalogue's base64 text) in the one file part of a form, named by its FileName.
  const content = fields.find((f) => f.name === 'ContentBase64');
  const files = slots.filter((s) => s.depth === 1 && isBinary(s.schema));
  if (content && files.length === 1 && fields.some((f) => f.name === 'FileName')) {
    used.add(files[0]!);
    placed.set(content.name, { field: content.name, in: 'body', at: files[0]!.pointer, fileName: files[0]!.name, encoding: { kind: 'file', nameField: 'FileName' }, how: 'shape', ...(files[0]!.required ? { required: true } : {}) });
  }
  placeInSlots(fields, slots, ctx, used, placed);
  // Query parameters the file names like a catalogue field.
  for (const q of file.params.filter((p) => p.in === 'query')) {
    const c = fields.find((f) => !placed.has(f.name) && matchName(f.name, q.name, resource));
    if (!c) continue;
    const enc = chooseEncoding(c, q.schema, q.name, undefined, () => undefined);
    if (enc && enc.kind !== 'objects' && enc.kind !== 'custom-fields' && !(enc.kind === 'ref'))
      placed.set(c.name, { field: c.name, in: 'query', at: q.name, fileName: q.name, encoding: enc, how: 'name', ...(q.required ? { required: true } : {}) });
  }
  // What the file has and nothing fills: extra columns.
  const extras: ExtraColumn[] = [];
  const unfillable: string[] = [];
  for (const p of pathParams) {
    if (paramUsed.has(p)) continue;
    const def = file.params.find((x) => x.in === 'path' && x.name === p);
    const x = extraOf('path', p, p, def?.schema ?? { type: 'string' }, true);
    if (x) extras.push(x);
  }
  for (const q of file.params) {
    if (q.in !== 'query' || !q.required || [...placed.values()].some((p) => p.in === 'query' && p.at === q.name)) continue;
    const x = extraOf('query', q.name, q.name, q.schema, true);
    if (x) extras.push(x);
    else unfillable.push(q.name);
  }
  const usedSlots = [...used];
  const open = (s: Slot) => !usedSlots.some((u) => within(s, u) || within(u, s));
  // A body that is one wrapper ({"data": {...}}): column headers leave the wrapper out.
  const top = slots.filter((s) => s.depth === 1);
  const wrapper = top.length === 1 && kindOf(top[0]!.schema) === 'object' ? top[0]!.pointer : undefined;
  // An object whose properties are all open becomes its leaves' columns; a leaf is a column of its own.
  for (const s of slots) {
    if (!open(s)) continue;
    const k = kindOf(s.schema);
    if (k === 'object' && s.schema.properties && !isRefLike(s.schema) && s.depth < MAX_DEPTH) continue;
    if (s.parent && !open(s.parent) && !usedSlots.some((u) => u.parent && within(u, s.parent!))) continue;
    // Required in the body as sent: the parent object exists (something placed in it, or it is required).
    const parentSent = !s.parent || s.parent.required || usedSlots.some((u) => within(u, s.parent!));
    const required = (s.parent ? (s.parent.schema.required ?? []).includes(s.name) : s.required) && parentSent;
    const inside = wrapper && s.pointer.startsWith(`${wrapper}/`) ? s.pointer.slice(wrapper.length) : s.pointer;
    const header = inside.split('/').length > 2 ? inside.slice(1).split('/').join('.') : inside !== s.pointer ? inside.slice(1) : undefined;
    const x = extraOf('body', s.pointer, s.name, s.schema, required, header && extraCell(s.schema, s.name)?.header.endsWith('(GUID)') ? `${header} (GUID)` : header);
    if (x) extras.push(x);
    else if (required) unfillable.push(s.pointer.slice(1));
  }
  const placements = [...placed.values()];
  const carried = (f: CatField) =>
    placements.some((p) => (p.encoding.kind === 'number-unit' && p.encoding.unitField === f.name) || (p.encoding.kind === 'file' && p.encoding.nameField === f.name));
  const unplaced = fields.filter((f) => !placed.has(f.name) && !carried(f)).map((f) => f.name);
  const fileCount = slots.filter((s) => s.depth === 1).length + pathParams.length;
  const filled = new Set(placements.map((p) => (p.in === 'body' ? p.at.split('/')[1] : `{${p.at}}`))).size;
  const catCount = fields.length + (cataloguePath.includes('{guid}') ? 1 : 0);
  const fit = catCount + fileCount === 0 ? 1 : (2 * placements.length) / (catCount + Math.max(fileCount, filled));
  return { placements, extras, unplaced, fit: Math.min(1, fit), unfillable };
}

/** Places a catalogue dataset's record fields in one record of the file's answer. */
export function placeRecord(fields: readonly CatField[], record: Schema | undefined, resource: string[]): PlaceOutcome {
  const placed = new Map<string, Placement>();
  const slots = slotsOf(record, 'record');
  const used = new Set<Slot>();
  placeInSlots(fields, slots, { resource, role: 'record' }, used, placed);
  // A record's identity under its own words (CategoryGuid, CategoryName for an incident type): the one
  // free GUID property is its Id, the one free name property its Name.
  const free = slots.filter((s) => s.depth === 1 && !used.has(s));
  const only = (test: (s: Slot) => boolean) => {
    const hits = free.filter(test);
    return hits.length === 1 ? hits[0] : undefined;
  };
  const id = fields.find((f) => f.name === 'Id' || f.name === 'GUID');
  if (id && !placed.has(id.name)) {
    const s = only((x) => kindOf(x.schema) === 'string' && (isGuidFormat(x.schema.format) || /guid$/i.test(x.name)) && !x.name.toLowerCase().includes('parent'));
    if (s) placed.set(id.name, { field: id.name, in: 'body', at: s.pointer, fileName: s.name, encoding: { kind: 'plain' }, how: 'shape' });
  }
  const name = fields.find((f) => f.name === 'Name');
  if (name && !placed.has('Name')) {
    const s = only((x) => kindOf(x.schema) === 'string' && words(x.name).includes('name'));
    if (s) placed.set('Name', { field: 'Name', in: 'body', at: s.pointer, fileName: s.name, encoding: { kind: 'plain' }, how: 'shape' });
  }
  const placements = [...placed.values()];
  const unplaced = fields.filter((f) => !placed.has(f.name)).map((f) => f.name);
  const fileCount = slots.filter((s) => s.depth === 1).length;
  const fit = fields.length + fileCount === 0 ? 1 : (2 * placements.length) / (fields.length + fileCount);
  return { placements, extras: [], unplaced, fit: Math.min(1, fit) };
}
