import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  BINDING_FORMAT,
  BINDING_VERSION,
  DATASETS_AND_OPERATIONS,
  binding as bindingSchema,
  encoding as encodingSchema,
  createCatalog,
  isValidTemplate,
  NONE_REASON,
  lastName,
  pointerParts,
  type Binding,
  type BoundDataset,
  type BoundOperation,
  type Consequence,
  type ExtraDataset,
} from '../catalog';
import { findRecords } from './answers';
import { customFieldsRefusal, fitCustomFields } from './custom-answers';
import { declinedIds, withDocumented } from './documented';
import { chooseEncoding } from './encoding';
import { enumsUnread } from './enum-check';
import { mapEnumValue } from './enum-map';
import {
  bindTo,
  candidateRef,
  catalogueSide,
  fileSide,
  matchAll,
  refOf,
  type CatalogueSide,
  type Decision,
  type FileSide,
  type Scored,
} from './match';
import { FLOW_DESCRIPTIONS as FLOWS } from '../contracts/flows';
import { parseOverrides, type Line } from './overrides';
import { BindingInputError, parseApiFile, type ParsedFile } from './parse';
import { kindOf, type Schema } from './schema';

export interface ImportOptions {
  /** The admin's overrides file (docs/binding.md); applied when given. */
  overrides?: string;
  /** Take the best candidate where the admin would otherwise decide. */
  accept?: boolean;
  /** The file name recorded in the binding (default: as given). */
  recordAs?: string;
  /** The same file, already read by parseApiFile: spares reading it again (a test importing it twice). */
  parsed?: ParsedFile;
  now?: Date;
}

/** One catalogue endpoint's outcome, for the report. */
export interface Entry {
  side: CatalogueSide;
  chosen?: Scored;
  decision?: Decision;
  missing?: string;
  others: Scored[];
  accepted?: boolean;
}

export interface Dropped {
  line: number;
  text: string;
  reason: string;
}

export interface ImportResult {
  binding: Binding;
  parsed: ParsedFile;
  entries: Entry[];
  /** Overrides lines the file no longer supports (kept in the overrides file, not applied). */
  dropped: Dropped[];
  applied: number;
  /** Decisions still open: what keeps the exit status non-zero. */
  unresolved: string[];
}

const templateOf = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

function slug(path: string): string {
  const words = path
    .split('/')
    .filter((s) => s && !/^v\d+$/.test(s) && !s.startsWith('{') && !/^directdata$/i.test(s))
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `x-${words || 'dataset'}`;
}

/** A GET the catalogue lacks that answers with a list of records: loadable as an untyped dataset. */
function extraDatasetOf(f: FileSide): Omit<ExtraDataset, 'id'> | undefined {
  const op = f.op;
  if (op.method !== 'GET' || f.params > 0) return undefined;
  const recs = findRecords(op);
  if (!recs?.item?.properties) return undefined;
  return {
    path: op.path,
    title: op.summary ?? op.operationId ?? op.path,
    ...(op.operationId ? { operationId: op.operationId } : {}),
    records: recs.records,
    properties: Object.keys(recs.item.properties),
  };
}

/** The schema at a body pointer, or undefined when the body has no such property. */
function schemaAt(body: Schema | undefined, pointer: string): Schema | undefined {
  let at = body;
  for (const p of pointerParts(pointer)) {
    if (!at) return undefined;
    at = kindOf(at) === 'array' ? at.items?.properties?.[p] : at.properties?.[p];
  }
  return at;
}

function findOperation(files: readonly FileSide[], ref: string): FileSide | undefined {
  const m = /^(GET|POST|PUT|PATCH) (\S+)$/.exec(ref);
  if (!m) return files.find((f) => f.op.operationId === ref);
  const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}');
  return (
    files.find((f) => f.op.method === m[1] && (f.op.path === m[2] || f.op.filePath === m[2])) ??
    files.find((f) => f.op.method === m[1] && shape(f.op.path) === shape(m[2]!))
  );
}

/** Applies the admin's lines to the matcher's outcome; returns the lines the file no longer supports. */
function applyOverrides(lines: readonly Line[], entries: Map<string, Entry>, files: readonly FileSide[], file: string): { dropped: Dropped[]; applied: number } {
  const dropped: Dropped[] = [];
  let applied = 0;
  const drop = (l: Line, reason: string) => dropped.push({ line: l.line, text: l.text, reason });
  for (const l of lines) {
    if (!entries.has(l.id))
      throw new BindingInputError(`${file}:${l.line}: "${l.id}" is not a catalogue endpoint id (see the report's ids): "${l.text}"`);
  }
  const order = ['none', 'use', 'place', 'unplace', 'encode', 'form', 'answer', 'default', 'map', 'omit'];
  for (const l of [...lines].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))) {
    const entry = entries.get(l.id)!;
    if (l.kind === 'none') {
      delete entry.chosen;
      delete entry.decision;
      entry.missing = NONE_REASON;
      applied++;
      continue;
    }
    if (l.kind === 'use') {
      const f = findOperation(files, l.op);
      if (!f) {
        drop(l, `the file has no operation ${l.op}`);
        continue;
      }
      // Whichever endpoint had this operation loses it: the admin's choice wins.
      for (const other of entries.values()) {
        if (other === entry || other.chosen?.f !== f) continue;
        delete other.chosen;
        other.missing = `its operation ${refOf(f.op)} is used for ${l.id} by the admin`;
      }
      entry.chosen = bindTo(entry.side, f, 'admin');
      delete entry.decision;
      delete entry.missing;
      applied++;
      continue;
    }
    const chosen = entry.chosen;
    if (!chosen) {
      drop(l, `${l.id} is not bound`);
      continue;
    }
    const bound = chosen.bound;
    if (l.kind === 'place') {
      const op = chosen.f.op;
      let target: Schema | undefined;
      if (l.in === 'body') target = bound.kind === 'dataset' ? schemaAt(findRecords(op)?.item, l.at) : op.body ? schemaAt(op.body, l.at) : undefined;
      else if (l.in === 'path') target = op.path.includes(`{${l.at}}`) ? (op.params.find((p) => p.name === l.at)?.schema ?? { type: 'string' }) : undefined;
      else target = op.params.find((p) => p.in === 'query' && p.name === l.at)?.schema;
      if (!target) {
        drop(l, `${refOf(op)} has no ${l.in === 'body' ? `property ${l.at}` : `${l.in} parameter ${l.at}`}`);
        continue;
      }
      const field = entry.side.fields.find((x) => x.name === l.field);
      const encoding =
        l.encoding ??
        (field && chooseEncoding(field, target, (lastName(l.at) || l.at), undefined, () => undefined)) ?? { kind: 'plain' as const };
      const placement = { field: l.field, in: l.in, at: l.at, fileName: (lastName(l.at) || l.at), encoding, how: 'admin' as const, ...(l.in === 'path' ? { required: true } : {}), ...(target.nullable ? { nullable: true } : {}) };
      if (!l.encoding) fitCustomFields(l.id, [placement]);
      const refused = customFieldsRefusal(placement);
      if (refused) {
        drop(l, refused);
        continue;
      }
      bound.placements = bound.placements.filter((p) => p.field !== l.field);
      bound.placements.push(placement);
      if (bound.kind === 'operation') bound.extras = bound.extras.filter((x) => !(x.in === l.in && (x.at === l.at || x.at.startsWith(`${l.at}/`))));
      chosen.unplaced = chosen.unplaced.filter((f) => f !== l.field);
      applied++;
    } else if (l.kind === 'unplace') {
      if (!bound.placements.some((p) => p.field === l.field)) {
        drop(l, `${l.field} is not placed in ${l.id}`);
        continue;
      }
      bound.placements = bound.placements.filter((p) => p.field !== l.field);
      chosen.unplaced = [...chosen.unplaced, l.field];
      applied++;
    } else if (l.kind === 'omit') {
      // Only a field the operation sends can be left out of it; a dataset sends nothing.
      if (bound.kind !== 'operation' || !bound.placements.some((p) => p.field === l.field && p.in === 'body')) {
        drop(l, `${l.field} is not placed in the body of ${l.id}`);
        continue;
      }
      bound.omit = [...new Set([...(bound.omit ?? []), l.field])];
      applied++;
    } else if (l.kind === 'encode') {
      const placed = bound.placements.find((p) => p.field === l.field);
      const extra = bound.kind === 'operation' ? bound.extras.find((x) => x.key === l.field) : undefined;
      const target = placed ?? extra;
      if (!target) {
        drop(l, `${l.field} is neither placed in ${l.id} nor one of its extra columns`);
        continue;
      }
      const merged = encodingSchema.safeParse({ ...target.encoding, ...l.keys });
      if (!merged.success) {
        drop(l, `not an encoding for ${l.field} (${target.encoding.kind}): ${merged.error.issues[0]!.message}`);
        continue;
      }
      const refused = customFieldsRefusal({ encoding: merged.data });
      if (refused) {
        drop(l, refused);
        continue;
      }
      target.encoding = merged.data;
      if (placed) placed.how = 'admin';
      applied++;
    } else if (l.kind === 'form') {
      if (bound.kind !== 'operation') {
        drop(l, `${l.id} is a dataset`);
        continue;
      }
      const deep = [...bound.placements, ...bound.extras].find((p) => p.in === 'body' && pointerParts(p.at).length !== 1);
      if (l.form !== 'json' && deep) {
        drop(l, `a form has fields, not nested properties: ${deep.at} cannot be a form field`);
        continue;
      }
      if (l.form === 'json') delete bound.form;
      else bound.form = l.form;
      applied++;
    } else if (l.kind === 'answer') {
      if (bound.kind !== 'operation') {
        drop(l, `${l.id} is a dataset`);
        continue;
      }
      bound.answer = l.answer;
      applied++;
    } else if (l.kind === 'map') {
      const why = mapEnumValue(bound, l.field, l.value, l.to);
      if (why) {
        drop(l, why);
        continue;
      }
      applied++;
    } else {
      const x = bound.kind === 'operation' ? bound.extras.find((e) => e.key === l.key) : undefined;
      if (!x) {
        drop(l, `${l.id} has no extra column ${l.key}`);
        continue;
      }
      x.default = l.value;
      applied++;
    }
  }
  return { dropped, applied };
}

/**
 * An extra column's header is the file's property name; a flow's template has one column per header, so an
 * extra column named like one of the flow's own columns (a step's `Name` and the incident's Name) would take
 * that column's value. Such a header is made distinct by the operation's step: "Name (hyperlink)". (Two
 * operations' extras of one name, `api-version` on each write, stay one column: one value for both.)
 */
function distinctHeaders(entries: ReadonlyMap<string, Entry>): void {
  for (const flow of FLOWS) {
    const taken = new Set([...Object.keys(flow.places), ...(flow.controls ?? [])].map((h) => h.toLowerCase()));
    for (const id of [...flow.operations, ...Object.keys(flow.steps ?? {})]) {
      const b = entries.get(id)?.chosen?.bound;
      if (b?.kind !== 'operation') continue;
      const what = flow.steps?.[id]?.what ?? entries.get(id)!.side.e.title.toLowerCase();
      for (const x of b.extras) {
        if (taken.has(x.header.toLowerCase())) x.header = `${x.header} (${what})`;
      }
    }
  }
}

function consequencesOf(entries: readonly Entry[], dropped: readonly Dropped[]): Consequence[] {
  const out: Consequence[] = [];
  for (const e of entries) {
    const id = e.side.e.id;
    if (!e.chosen) {
      out.push({ kind: 'unavailable', endpoint: id, columns: [], message: e.decision ? `the admin decides: ${e.decision.reason}` : (e.missing ?? 'not in the file') });
      continue;
    }
    const b = e.chosen.bound;
    if (e.chosen.unplaced.length)
      out.push({
        kind: 'field-not-in-file',
        endpoint: id,
        columns: e.chosen.unplaced,
        message: b.kind === 'dataset' ? 'the file\'s records lack them: these columns stay empty' : 'the file has no place for them: these columns are not offered',
      });
    out.push(...enumsUnread(id, b, e.side.fields));
    if (b.kind === 'operation') {
      const required = b.extras.filter((x) => x.required && x.default === undefined).map((x) => x.header);
      if (required.length)
        out.push({ kind: 'required-extra', endpoint: id, columns: required, message: 'the file requires them and no catalogue field fills them: each row must fill these columns (or the admin gives a default)' });
      if (e.chosen.unfillable.length)
        out.push({ kind: 'required-extra', endpoint: id, columns: e.chosen.unfillable, message: 'the file requires them and they cannot be typed in a cell: the service will refuse these rows until the admin places them' });
    }
  }
  for (const d of dropped) out.push({ kind: 'dropped-override', endpoint: '', columns: [], message: `line ${d.line} "${d.text}": ${d.reason}` });
  return out;
}

/** The catalogue's side of the matching does not change within a process: computed once. */
let catalogueSides: CatalogueSide[] | undefined;

export async function importBinding(file: string, options: ImportOptions = {}): Promise<ImportResult> {
  let overrideLines: Line[] = [];
  let overridesHash: string | undefined;
  if (options.overrides) {
    let text: string;
    try {
      text = readFileSync(options.overrides, 'utf8');
    } catch (e) {
      throw new BindingInputError(`${options.overrides}: cannot read the overrides file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    overrideLines = parseOverrides(options.overrides, text);
    overridesHash = createHash('sha256').update(text).digest('hex');
  }
  const parsed = options.parsed ? { ...options.parsed, skipped: [...options.parsed.skipped] } : await parseApiFile(file);
  const files = parsed.operations.filter((op) => isValidTemplate(op.path)).map(fileSide);
  for (const op of parsed.operations)
    if (!isValidTemplate(op.path)) parsed.skipped.push(`${op.method} ${op.filePath}: a path grc-sheets cannot address (only letters, digits, - _ . ~, one {parameter} per segment and a custom method's :verb)`);
  const sides = (catalogueSides ??= DATASETS_AND_OPERATIONS.map(catalogueSide));
  const outcome = matchAll(sides, files);

  const entries = new Map<string, Entry>();
  // --accept takes a near-tie's best candidate that no other endpoint holds; never a candidate by shape alone.
  const held = new Set([...outcome.bound.values()].map((s) => s.f));
  for (const side of sides) {
    const id = side.e.id;
    const entry: Entry = { side, others: outcome.others.get(id) ?? [] };
    const chosen = outcome.bound.get(id);
    const decision = outcome.decisions.get(id);
    const free = decision?.shapeOnly ? undefined : decision?.candidates.find((c) => !held.has(c.f) && !c.f.op.deprecated);
    if (chosen) entry.chosen = chosen;
    else if (decision && options.accept && free) {
      held.add(free.f);
      entry.chosen = free;
      entry.accepted = true;
      entry.others = decision.candidates.filter((c) => c !== free);
    } else if (decision) entry.decision = decision;
    else entry.missing = outcome.missing.get(id) ?? 'no operation of the file fits';
    entries.set(id, entry);
  }
  const { dropped, applied } = applyOverrides(overrideLines, entries, files, options.overrides ?? 'overrides');
  distinctHeaders(entries);

  const list = [...entries.values()];
  const none = declinedIds(overrideLines, entries);
  const claimed = new Set(list.flatMap((e) => [e.chosen?.f, ...(e.decision?.candidates.map((c) => c.f) ?? [])]).filter(Boolean));
  const extraDatasets: ExtraDataset[] = [];
  const taken = new Set<string>();
  // A catalogue dataset's own path is that dataset, bound or not (the admin may have said `none`): never an extra one.
  const own = new Set(sides.filter((c) => c.e.kind === 'dataset').map((c) => templateOf(c.e.path)));
  for (const f of files) {
    if (claimed.has(f) || own.has(templateOf(f.op.path))) continue;
    const x = extraDatasetOf(f);
    if (!x) continue;
    let id = slug(f.op.path);
    for (let i = 2; taken.has(id) || entries.has(id); i++) id = `${slug(f.op.path)}-${i}`;
    taken.add(id);
    extraDatasets.push({ id, ...x });
  }
  const out: Binding = {
    format: BINDING_FORMAT,
    version: BINDING_VERSION,
    source: {
      file: options.recordAs ?? file,
      sha256: parsed.sha256,
      spec: parsed.spec,
      ...(parsed.title ? { title: parsed.title } : {}),
      ...(parsed.apiVersion ? { apiVersion: parsed.apiVersion } : {}),
      basePath: parsed.basePath,
      importedAt: (options.now ?? new Date()).toISOString(),
      ...(options.overrides && overridesHash ? { overrides: { file: options.overrides, sha256: overridesHash } } : {}),
    },
    endpoints: Object.fromEntries(
      list.filter((e) => e.chosen).map((e) => [e.side.e.id, e.chosen!.bound as BoundOperation | BoundDataset]),
    ),
    decisions: Object.fromEntries(
      list.filter((e) => e.decision).map((e) => [e.side.e.id, { reason: e.decision!.reason, candidates: e.decision!.candidates.map(candidateRef) }]),
    ),
    missing: Object.fromEntries(list.filter((e) => !e.chosen && !e.decision).map((e) => [e.side.e.id, e.missing ?? 'not in the file'])),
    ...(none.length ? { none } : {}),
    extraDatasets,
    consequences: withDocumented(consequencesOf(list, dropped), list, none),
  };
  const checked = bindingSchema.safeParse(out);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new BindingInputError(`${file}: the binding made from it does not check out at ${issue.path.join('.')}: ${issue.message}`);
  }
  // What the relay, the sandbox and the taskpane will build from it: a binding they cannot use is never written.
  try {
    createCatalog(checked.data);
  } catch (e) {
    throw new BindingInputError(`${file}: the binding made from it cannot be used: ${(e as Error).message}`);
  }
  return {
    binding: checked.data,
    parsed,
    entries: list,
    dropped,
    applied,
    unresolved: list.filter((e) => e.decision).map((e) => e.side.e.id),
  };
}
