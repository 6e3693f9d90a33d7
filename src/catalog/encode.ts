import { formatDate } from './date-pattern';
import * as fields from './fields';
import * as pointer from './pointer';
import {
  DEFAULT_SEPARATOR,
  PATH_GUID_FIELD,
  type BoundOperation,
  type EncodedRequest,
  type EncodeProblem,
  type EncodeResult,
  type Encoding,
  type ExtraColumn,
  type Lists,
  type NameIndex,
  type NameLookup,
} from './placement';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { isGuid, isIsoDate } = fields;
const { pointerParts, setAt } = pointer;

/**
 * Catalogue-shaped values -> the request a customer's file describes (placement.ts). Pure. Nothing is
 * dropped: every non-empty value lands in the request or comes back as a problem naming its field.
 */

/** Catalogue fields (the body schema's output), '{guid}', and extra column keys -> typed values. */
export type Values = Readonly<Record<string, unknown>>;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Empty: nothing typed. Such a value needs no placement; a placed null or [] is still sent (a clearing update). */
export const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const fold = (s: string) => s.trim().toLowerCase();

/** A NameIndex over plain {id, name} entries: exact name first, then trimmed and case-insensitive. */
export function indexList(entries: readonly { id: string; name: string }[]): NameIndex {
  const exact = new Map<string, string[]>();
  const folded = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const e of entries) {
    if (typeof e.id !== 'string' || typeof e.name !== 'string') continue;
    exact.set(e.name, [...(exact.get(e.name) ?? []), e.id]);
    folded.set(fold(e.name), [...(folded.get(fold(e.name)) ?? []), e.id]);
    names.set(e.id.toLowerCase(), e.name);
  }
  return {
    resolve(name: string): NameLookup {
      const ids = exact.get(name) ?? folded.get(fold(name));
      if (!ids?.length) return { ok: false, code: 'unknown-name', message: `"${name}" is not in the list` };
      if (ids.length > 1)
        return {
          ok: false,
          code: 'ambiguous-name',
          message: `"${name}" is in the list ${ids.length} times; type the GUID of the one you mean`,
        };
      return { ok: true, id: ids[0]!, name: names.get(ids[0]!.toLowerCase()) ?? name };
    },
    nameOf: (id) => names.get(id.toLowerCase()),
  };
}

const FAIL = Symbol('fail');
type Out = unknown | typeof FAIL;

interface Ctx {
  field: string;
  lists: Lists;
  problems: EncodeProblem[];
  values: Values;
  consumed: Set<string>;
}

function problem(ctx: Ctx, code: EncodeProblem['code'], message: string, field = ctx.field): typeof FAIL {
  ctx.problems.push({ field, code, message });
  return FAIL;
}

function each(ctx: Ctx, v: unknown, many: boolean | undefined, one: (x: unknown) => Out): Out {
  if (many) {
    const list = Array.isArray(v) ? v : [v];
    const out = list.map(one);
    return out.includes(FAIL) ? FAIL : out;
  }
  if (Array.isArray(v)) {
    if (v.length === 1) return one(v[0]);
    return problem(ctx, 'one-value', `the API file takes one value here, not ${v.length}; keep one`);
  }
  return one(v);
}

function convert(ctx: Ctx, v: unknown, as: 'string' | 'number' | 'integer' | 'boolean' | undefined): Out {
  if (v === null || as === undefined) return v;
  if (as === 'string') {
    if (isObj(v) || Array.isArray(v)) return problem(ctx, 'bad-value', 'the API file wants text here');
    return String(v);
  }
  if (as === 'boolean') {
    if (typeof v === 'boolean') return v;
    const s = fold(String(v));
    if (['true', 'yes', '1'].includes(s)) return true;
    if (['false', 'no', '0'].includes(s)) return false;
    return problem(ctx, 'bad-value', `"${String(v)}" is not yes or no`);
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return problem(ctx, 'bad-number', `"${String(v)}" is not a number`);
  if (as === 'integer' && !Number.isInteger(n))
    return problem(ctx, 'bad-number', `the API file wants a whole number, not ${n}`);
  return n;
}

/** A name or a GUID -> {id, name}; name may be undefined when a GUID's name is not known. */
function lookup(
  ctx: Ctx,
  v: unknown,
  list: string | undefined,
  needId: boolean,
  needName: boolean,
): { id?: string; name?: string } | typeof FAIL {
  if (typeof v !== 'string' || v.trim() === '')
    return problem(ctx, 'bad-value', 'expected a name or a GUID');
  const s = v.trim();
  const index = list ? ctx.lists[list] : undefined;
  if (isGuid(s)) {
    const name = index?.nameOf(s);
    if (needName && !needId && name === undefined)
      return problem(ctx, 'no-list', `the API file wants a name here and ${s} is not in the ${list ?? 'standing data'} list; type the name`);
    return { id: s, ...(name !== undefined ? { name } : {}) };
  }
  if (!needId) return { name: s };
  if (!list)
    return problem(ctx, 'not-a-guid', `the API file wants a GUID here; "${s}" is not one`);
  if (!index)
    return problem(
      ctx,
      'no-list',
      `the API file wants the GUID of "${s}" and this environment has no ${list} list to look it up in; type its GUID`,
    );
  const r = index.resolve(s);
  if (!r.ok) return problem(ctx, r.code, `${r.message} (${list}); pick a name from the list or type its GUID`);
  return { id: r.id, name: r.name };
}

function encodeDate(ctx: Ctx, v: unknown, format: 'date' | 'date-time', pattern?: string): Out {
  if (typeof v !== 'string' || !isIsoDate(v.trim()))
    return problem(ctx, 'bad-date', `"${String(v)}" is not a date (yyyy-mm-dd)`);
  const s = v.trim().replace(' ', 'T');
  if (pattern) return formatDate(s, pattern);
  if (format === 'date') return s.slice(0, 10);
  return s.length === 10 ? `${s}T00:00:00Z` : s;
}

/** The file's value as it goes out: a number where the file's enum is numbers (an integer must be a JSON number). */
const enumOut = (s: string, as: 'integer' | 'number' | undefined): string | number => (as && s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);

function encodeEnum(ctx: Ctx, v: unknown, e: Extract<Encoding, { kind: 'enum' }>): Out {
  if (typeof v !== 'string' && typeof v !== 'number') return problem(ctx, 'bad-value', 'expected one value of the list');
  const { values, map } = e;
  const s = String(v);
  if (Object.hasOwn(map, s)) return enumOut(map[s]!, e.as);
  const named = Object.keys(map).find((k) => fold(k) === fold(s));
  if (named !== undefined) return enumOut(map[named]!, e.as);
  if (values.includes(s)) return enumOut(s, e.as);
  const close = values.find((w) => fold(w) === fold(s));
  if (close !== undefined) return enumOut(close, e.as);
  const names = [...Object.keys(map), ...values.filter((x) => !Object.values(map).includes(x))];
  return problem(ctx, 'not-in-list', `"${s}" is not one of ${names.join(', ')}; pick one from the dropdown`);
}

const DURATION: Record<string, string> = { year: 'Y', years: 'Y', month: 'M', months: 'M', week: 'W', weeks: 'W', day: 'D', days: 'D' };

function encodeNumberUnit(ctx: Ctx, v: unknown, e: Extract<Encoding, { kind: 'number-unit' }>): Out {
  const n = convert(ctx, v, 'number');
  if (n === FAIL) return FAIL;
  const rawUnit = ctx.values[e.unitField];
  ctx.consumed.add(e.unitField);
  const unit = isEmpty(rawUnit) ? undefined : String(rawUnit);
  const named = unit === undefined ? undefined : Object.keys(e.units).find((k) => fold(k) === fold(unit));
  const spelled = unit === undefined ? undefined : (e.units[unit] ?? (named !== undefined ? e.units[named] : unit));
  if (e.style === 'text') return spelled === undefined ? String(n) : `${String(n)} ${spelled}`;
  if (e.style === 'object') {
    const out: Json = {};
    setAt(out, e.valueAt ?? '/value', n);
    if (spelled !== undefined) {
      if (e.unitAs && !Object.values(e.units).includes(spelled))
        return problem(ctx, 'not-in-list', `"${unit}" is not one of ${Object.keys(e.units).join(', ')}; pick one from the dropdown`, e.unitField);
      setAt(out, e.unitAt ?? '/unit', enumOut(spelled, e.unitAs));
    }
    return out;
  }
  const letter = spelled !== undefined ? (spelled.length === 1 ? spelled : DURATION[fold(spelled)]) : undefined;
  if (!letter)
    return problem(ctx, 'bad-value', `the API file wants a duration; give ${e.unitField} as years, months, weeks or days`, e.unitField);
  return `P${String(n)}${letter.toUpperCase()}`;
}

type CustomFieldsEncoding = Extract<Encoding, { kind: 'custom-fields' }>;

/** One answer's value as the file wants it: a select's option by name where it asks, a date in its format. */
function answerValue(ctx: Ctx, entry: Json, e: CustomFieldsEncoding): Out {
  if (entry.DateValue !== undefined && entry.DateValue !== null) {
    if (!e.dateFormat && !e.datePattern) return entry.DateValue;
    return encodeDate(ctx, entry.DateValue, e.dateFormat ?? 'date', e.datePattern);
  }
  let value = entry.Value;
  if (e.options === 'name' && typeof value === 'string' && isGuid(value)) {
    // A select's answer is its option's GUID; the file asks for the option's name.
    const name = e.optionsList ? ctx.lists[e.optionsList]?.nameOf(value) : undefined;
    if (name === undefined)
      return problem(
        ctx,
        'no-list',
        `the API file wants the name of the option ${value} and ${e.optionsList ? `the ${e.optionsList} list does not have it` : 'no list of options is bound'}; type the option's name as the list has it`,
      );
    value = name;
  }
  if (e.valueAs === 'string' && value !== null && value !== undefined) value = String(value as string);
  return value;
}

function encodeCustomFields(ctx: Ctx, v: unknown, e: CustomFieldsEncoding): Out {
  const list = Array.isArray(v) ? v : [v];
  // A field's answers together, in the order given: a multi-select comes as one entry per chosen option.
  const byField = new Map<string, { date: boolean; values: unknown[] }>();
  let failed = false;
  for (const entry of list) {
    if (!isObj(entry) || typeof entry.CustomFieldGuid !== 'string') {
      failed = problem(ctx, 'bad-value', 'a custom field answer needs its field GUID') === FAIL;
      continue;
    }
    for (const k of Object.keys(entry))
      if (!['CustomFieldGuid', 'Value', 'DateValue'].includes(k) && !isEmpty(entry[k]))
        failed = problem(ctx, 'not-placed', `${k} of a custom field answer has no place in the API file`) === FAIL;
    const value = answerValue(ctx, entry, e);
    if (value === FAIL) {
      failed = true;
      continue;
    }
    const isDate = entry.DateValue !== undefined && entry.DateValue !== null;
    const group = byField.get(entry.CustomFieldGuid) ?? { date: isDate, values: [] };
    group.values.push(value);
    byField.set(entry.CustomFieldGuid, group);
  }
  if (failed) return FAIL;
  const multi = e.multi ?? (e.style === 'map' ? undefined : 'repeat');
  const separator = e.separator ?? DEFAULT_SEPARATOR;
  /** The one value a field's answers make, or FAIL where the shape cannot hold them all. */
  const joined = (guid: string, values: unknown[]): Out => {
    if (multi === 'array') return values;
    if (values.length === 1) return values[0];
    if (multi === 'list') return values;
    if (multi === 'join') return values.map((x) => String(x as string)).join(separator);
    return problem(
      ctx,
      'one-value',
      `the custom field ${guid} has ${values.length} answers and the API file takes one value per field here; keep one, or ask the admin to bind how the file takes several (docs/binding.md)`,
    );
  };
  if (e.style === 'map') {
    const map: Json = {};
    for (const [guid, g] of byField) {
      const out = joined(guid, g.values);
      if (out === FAIL) failed = true;
      else map[guid] = out;
    }
    return failed ? FAIL : map;
  }
  const entries: unknown[] = [];
  for (const [guid, g] of byField) {
    const at = g.date ? (e.dateAt ?? e.valueAt ?? '/Value') : (e.valueAt ?? '/Value');
    // A separate date slot holds one date; the array is the value slot's.
    const groups = multi === 'repeat' ? g.values.map((x) => [x]) : [g.values];
    for (const values of groups) {
      const value = g.date && e.dateAt !== undefined && values.length === 1 ? values[0] : joined(guid, values);
      if (value === FAIL) {
        failed = true;
        continue;
      }
      const out: Json = {};
      setAt(out, e.guidAt ?? '/CustomFieldGuid', guid);
      setAt(out, at, value);
      entries.push(out);
    }
  }
  return failed ? FAIL : entries;
}

/** A document's base64 content as a file part named by the catalogue's file name field. */
function encodeFile(ctx: Ctx, v: unknown, e: Extract<Encoding, { kind: 'file' }>): Out {
  ctx.consumed.add(e.nameField);
  const name = ctx.values[e.nameField];
  if (typeof v !== 'string') return problem(ctx, 'bad-value', 'expected the file\'s content');
  if (typeof name !== 'string' || name.trim() === '')
    return problem(ctx, 'required', `the API file sends it as a file and needs its name; fill in ${e.nameField}`, e.nameField);
  return { filename: name.trim(), base64: v };
}

function encodeObjects(ctx: Ctx, v: unknown, e: Extract<Encoding, { kind: 'objects' }>): Out {
  const list = Array.isArray(v) ? v : [v];
  const out: unknown[] = [];
  let failed = false;
  for (const entry of list) {
    if (!isObj(entry)) {
      failed = problem(ctx, 'bad-value', 'expected entries with named fields') === FAIL;
      continue;
    }
    let built: unknown = {};
    // Fields placed at "" make the entry the value itself: the last of them (in the encoding's order) wins.
    let whole = -1;
    for (const [k, x] of Object.entries(entry)) {
      if (x === undefined) continue;
      const sub = e.fields.find((f) => f.field === k);
      if (!sub) {
        // An entry the file keeps as one value (an option by its name) stands for the whole entry.
        if (!isEmpty(x) && !e.fields.some((f) => f.at === ''))
          failed = problem(ctx, 'not-placed', `${k} has no place in the API file's entries`, `${ctx.field}.${k}`) === FAIL;
        continue;
      }
      const r = encodeValue({ ...ctx, field: `${ctx.field}.${k}` }, sub.encoding, x);
      if (r === FAIL) failed = true;
      else if (sub.at === '') {
        const rank = e.fields.indexOf(sub);
        if (rank > whole) {
          whole = rank;
          built = r;
        }
      } else if (isObj(built)) setAt(built, sub.at, r);
    }
    out.push(built);
  }
  return failed ? FAIL : out;
}

function encodeValue(ctx: Ctx, e: Encoding, v: unknown): Out {
  if (v === null) return null;
  switch (e.kind) {
    case 'plain':
      return e.many || e.as ? each(ctx, v, e.many, (x) => convert(ctx, x, e.as)) : v;
    case 'guid':
      return each(ctx, v, e.many, (x) => {
        const r = lookup(ctx, x, e.list, true, false);
        return r === FAIL ? FAIL : r.id;
      });
    case 'ref':
      return each(ctx, v, e.many, (x) => {
        const r = lookup(ctx, x, e.list, e.idAt !== undefined, e.nameAt !== undefined);
        if (r === FAIL) return FAIL;
        const obj: Json = {};
        if (e.idAt !== undefined) setAt(obj, e.idAt, r.id);
        if (e.nameAt !== undefined && r.name !== undefined) setAt(obj, e.nameAt, r.name);
        return obj;
      });
    case 'date':
      return encodeDate(ctx, v, e.format, e.pattern);
    case 'enum':
      return each(ctx, v, e.many, (x) => encodeEnum(ctx, x, e));
    case 'number-unit':
      return encodeNumberUnit(ctx, v, e);
    case 'custom-fields':
      return encodeCustomFields(ctx, v, e);
    case 'file':
      return encodeFile(ctx, v, e);
    case 'objects':
      return encodeObjects(ctx, v, e);
  }
}

const scalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

interface Target {
  field: string;
  in: 'body' | 'path' | 'query';
  at: string;
  encoding: Encoding;
  required?: boolean;
  label: string;
}

/** What an operation's requests are made of, the same for every row: worked out once per operation. */
interface RequestPlan {
  targets: { t: Target; key: string; def?: unknown }[];
  /** The fields and extras' keys the placements consume. */
  consumes: ReadonlySet<string>;
  hasBody: boolean;
  hasPathParams: boolean;
  /**
   * Every value goes into the body as it is, each at a property of its own (no conversion, list, path or
   * query parameter, nor two placements at one place): a request's problems then depend only on which
   * values are given (see bodyProblems).
   */
  asItIs: boolean;
  /** The targets a request must fill (a required placement or extra). */
  required: RequestPlan['targets'];
}
const plans = new WeakMap<BoundOperation, RequestPlan>();

function planOf(op: BoundOperation): RequestPlan {
  let plan = plans.get(op);
  if (plan) return plan;
  const targets: RequestPlan['targets'] = [];
  for (const p of op.placements)
    targets.push({ key: p.field, t: { field: p.field, in: p.in, at: p.at, encoding: p.encoding, ...(p.required ? { required: true } : {}), label: p.field } });
  for (const x of op.extras)
    targets.push({
      key: x.key,
      t: { field: x.key, in: x.in, at: x.at, encoding: x.encoding, required: x.required, label: x.header },
      ...(x.default !== undefined ? { def: x.default } : {}),
    });
  const places = targets.map(({ t }) => pointerParts(t.at));
  const hasPathParams = op.path.includes('{');
  plan = {
    targets,
    consumes: new Set(targets.map((t) => t.key)),
    hasBody: op.method !== 'GET' && (op.placements.some((p) => p.in === 'body') || op.extras.some((x) => x.in === 'body')),
    hasPathParams,
    asItIs:
      !hasPathParams &&
      targets.every(({ key }) => !(key in Object.prototype)) &&
      targets.every(({ t }) => t.in === 'body' && t.encoding.kind === 'plain' && !t.encoding.many && !t.encoding.as) &&
      // One property each, none of them Object.prototype's (setAt would write through "__proto__").
      places.every((parts) => parts.length === 1 && !(parts[0]! in Object.prototype)) &&
      new Set(places.map((parts) => parts[0])).size === places.length,
    required: targets.filter(({ t }) => t.required),
  };
  plans.set(op, plan);
  return plan;
}

const contextOf = (t: Target, lists: Lists, problems: EncodeProblem[], values: Values, consumed: Set<string>): Ctx => ({
  field: t.field,
  lists,
  problems,
  values,
  consumed,
});

/**
 * The request for one row's values. Problems name the catalogue field (or the extra column's key) and
 * say what to do; with any problem nothing is sent.
 */
export function encodeRequest(op: BoundOperation, values: Values, lists: Lists): EncodeResult {
  const plan = planOf(op);
  const problems: EncodeProblem[] = [];
  // Validation encodes every row: a context (and the set of fields encodings consume besides their own, a
  // number's unit or a file's name) is made only for a value that needs more than being taken as it is.
  let consumed: Set<string> | undefined;
  const body: Json = {};
  let wholeBody: unknown = undefined;
  const params = new Map<string, string>();
  const query: [string, string][] = [];
  for (const { t, key, def } of plan.targets) {
    const given = values[key];
    const v = given === undefined || given === '' ? def : given;
    if (v === undefined || v === '' || (t.in !== 'body' && isEmpty(v))) {
      if (t.required || t.in === 'path')
        problem(contextOf(t, lists, problems, values, (consumed ??= new Set())), 'required', requiredMessage(t));
      continue;
    }
    const e = t.encoding;
    const out = v === null || (e.kind === 'plain' && !e.many && !e.as) ? v : encodeValue(contextOf(t, lists, problems, values, (consumed ??= new Set())), e, v);
    if (out === FAIL) continue;
    if (t.in === 'body') {
      if (t.at === '') wholeBody = out;
      else if (!setAt(body, t.at, out))
        problem(contextOf(t, lists, problems, values, (consumed ??= new Set())), 'bad-value', `the binding puts it at ${t.at}, where another value already is; ask the admin to correct the binding`);
    } else if (t.in === 'path') {
      if (!scalar(out)) problem(contextOf(t, lists, problems, values, (consumed ??= new Set())), 'bad-value', `the path parameter ${t.at} takes one value`);
      else params.set(t.at, String(out));
    } else {
      for (const x of Array.isArray(out) ? out : [out]) {
        if (!scalar(x)) problem(contextOf(t, lists, problems, values, (consumed ??= new Set())), 'bad-value', `the query parameter ${t.at} takes plain values`);
        else query.push([t.at, String(x)]);
      }
    }
  }
  for (const k of Object.keys(values)) {
    const v = values[k];
    if (plan.consumes.has(k) || consumed?.has(k) || isEmpty(v)) continue;
    problems.push({ field: k, code: 'not-placed', message: notPlacedMessage(op) });
  }
  const path = !plan.hasPathParams ? op.path : op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params.get(name);
    if (v === undefined) {
      if (!problems.some((p) => p.code === 'required'))
        problems.push({
          field: PATH_GUID_FIELD,
          code: 'required',
          message: `the path parameter ${name} of ${op.method} ${op.path} has no value: ask the admin to place it (docs/binding.md)`,
        });
      return '';
    }
    return encodeURIComponent(v);
  });
  if (problems.length) return { ok: false, problems };
  const { hasBody } = plan;
  const request: EncodedRequest = { method: op.method, path, query };
  if (hasBody) request.body = wholeBody !== undefined ? wholeBody : body;
  if (hasBody && op.form) request.form = op.form;
  return { ok: true, request };
}

const requiredMessage = (t: Target): string =>
  `the API file requires ${t.in === 'body' ? 'it' : `the ${t.in} parameter ${t.at}`}; fill in ${t.label}`;
const notPlacedMessage = (op: BoundOperation): string =>
  `this environment's API file has no place for it in ${op.method} ${op.path}; clear it, or ask the admin to place it (docs/binding.md)`;

/**
 * The problems `encodeRequest(op, { ...body }, lists)` would find, without making the request, for an
 * operation whose file takes every value as it is (validation checks every row's call, 10,000 per sheet);
 * undefined for any other operation, whose values must be encoded to be checked. `body`: a plain object.
 */
export function bodyProblems(op: BoundOperation, body: Values): EncodeProblem[] | undefined {
  const plan = planOf(op);
  if (!plan.asItIs) return undefined;
  const problems: EncodeProblem[] = [];
  for (let i = 0; i < plan.required.length; i++) {
    const { t, key, def } = plan.required[i]!;
    const given = Object.hasOwn(body, key) ? body[key] : undefined;
    const v = given === undefined || given === '' ? def : given;
    if (v === undefined || v === '') problems.push({ field: t.field, code: 'required', message: requiredMessage(t) });
  }
  // In Object.keys' order (for...in gives a plain object's own keys first), without making the array.
  for (const k in body)
    if (!isEmpty(body[k]) && !plan.consumes.has(k) && Object.hasOwn(body, k)) problems.push({ field: k, code: 'not-placed', message: notPlacedMessage(op) });
  return problems;
}

/** What goes after the base URL: the path and the query string. */
export function requestTarget(r: EncodedRequest): string {
  if (!r.query.length) return r.path;
  return `${r.path}?${r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The catalogue fields that land in the request (a template column exists only for these) and the extras. */
export function columnsOf(op: BoundOperation): { fields: string[]; extras: ExtraColumn[] } {
  const fields: string[] = [];
  const add = (f: string) => {
    if (!fields.includes(f)) fields.push(f);
  };
  for (const p of op.placements) {
    add(p.field);
    if (p.encoding.kind === 'number-unit') add(p.encoding.unitField);
    if (p.encoding.kind === 'file') add(p.encoding.nameField);
  }
  return { fields, extras: [...op.extras] };
}

function listsIn(e: Encoding, out: Set<string>): void {
  if ((e.kind === 'guid' || e.kind === 'ref') && e.list) out.add(e.list);
  if (e.kind === 'custom-fields' && e.options === 'name' && e.optionsList) out.add(e.optionsList);
  if (e.kind === 'objects') for (const f of e.fields) listsIn(f.encoding, out);
}

/** The standing-data lists encodeRequest may look names up in for this operation. */
export function listsOf(op: BoundOperation): string[] {
  const out = new Set<string>();
  for (const p of op.placements) listsIn(p.encoding, out);
  for (const x of op.extras) {
    listsIn(x.encoding, out);
    if (x.list) out.add(x.list);
  }
  return [...out];
}
