import {
  toJsonSchema,
  type BoundDataset,
  type BoundOperation,
  type CandidateRef,
  type Endpoint,
  type Placement,
  type PlacementHow,
} from '../catalog';
import { findCreatedId, findRecords } from './answers';
import { catFields, type CatField } from './fields';
import type { FileOperation } from './parse';
import { fitCustomFields } from './custom-answers';
import { placeOperation, placeRecord } from './place';
import { words } from './words';

/**
 * Which operation of the file each catalogue endpoint is. The same method and path is exact. Otherwise a
 * score: the name (operationId, summary, path words and tags against the catalogue's id, title and path,
 * with synonyms: words.ts), how well the fields fit (place.ts), and how well the method suits (an update by
 * PATCH or PUT, a create by POST). Deprecated operations are never chosen while a current one fits; two
 * current candidates within TIE are a decision for the admin, listed with their reasons.
 */
export const THRESHOLD = 0.3;
export const TIE = 0.05;

/** Verbs operation names use for the catalogue's actions. */
const VERB: Record<string, string> = {
  add: 'create', new: 'create', insert: 'create', register: 'create', post: 'create', save: 'create', submit: 'create', make: 'create',
  edit: 'update', modify: 'update', patch: 'update', put: 'update', change: 'update', set: 'update', replace: 'update',
  list: 'get', read: 'get', fetch: 'get', all: 'get', search: 'get', find: 'get', query: 'get',
};
/** Words generated operation names carry that say nothing about the operation (IncidentController_create). */
const NOISE = new Set(['api', 'directdata', 'data', 'v1', 'v2', 'v3', 'by', 'id', 'guid', 'with', 'and', 'one', 'operation', 'controller', 'service', 'resource', 'endpoint', 'handler', 'rest']);

export function opTokens(...texts: (string | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) {
    if (!t) continue;
    const ws = words(t.replace(/\{[^}]*\}/g, ' ').replace(/\bdata\b|data(?=\/)/gi, ' '))
      .map((w) => VERB[w] ?? w)
      .map((w) => (w.length > 4 && w.endsWith('data') ? w.slice(0, -4) : w))
      .filter((w) => w && !NOISE.has(w));
    for (let i = 0; i < ws.length; i++) {
      out.add(ws[i]!);
      if (i + 1 < ws.length) out.add(ws[i]! + ws[i + 1]!);
    }
  }
  return out;
}

const VERBS = new Set(['create', 'update', 'get']);

/** Dice overlap of the two token sets; 0 when they share only verbs (create a task is not create an incident). */
function dice(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let common = 0;
  let nouns = 0;
  for (const t of a)
    if (b.has(t)) {
      common++;
      if (!VERBS.has(t)) nouns++;
    }
  return nouns ? (2 * common) / (a.size + b.size) : 0;
}

/** What the matcher knows of one catalogue endpoint, computed once. */
export interface CatalogueSide {
  e: Endpoint;
  fields: CatField[];
  tokens: Set<string>;
  resource: string[];
  creates: boolean;
  update?: 'partial' | 'full';
}

export function catalogueSide(e: Endpoint): CatalogueSide {
  const schema = e.kind === 'dataset' ? toJsonSchema(e.record) : e.body ? toJsonSchema(e.body) : undefined;
  const literal = e.path.split('/').filter((s) => s && !s.startsWith('{') && !/^v\d$/.test(s) && !/^(directdata|api)$/.test(s));
  // What the endpoint is about, from its path and its title (thirdpartycontract is one path word; "Third party contracts" two).
  const resource = [
    ...new Set([...literal.flatMap((s) => words(s.replace(/data$/, ''))), ...words(e.title), ...words(e.title, true, false)]),
  ];
  const answer = e.kind === 'operation' ? toJsonSchema(e.answer) : undefined;
  const side: CatalogueSide = {
    e,
    fields: catFields(schema, e.kind === 'dataset' ? 'record' : 'body'),
    tokens: opTokens(e.id.replace(/-/g, ' '), e.title, e.path),
    resource,
    creates: !!answer?.properties && 'Id' in answer.properties,
  };
  if (e.id === 'task-update') side.update = 'partial';
  if (e.id === 'task-update-v2') side.update = 'full';
  return side;
}

export interface FileSide {
  op: FileOperation;
  tokens: Set<string>;
  params: number;
}

export const fileSide = (op: FileOperation): FileSide => ({
  op,
  tokens: opTokens(op.operationId, op.summary, op.path, ...op.tags),
  params: (op.path.match(/\{/g) ?? []).length,
});

export interface Scored {
  f: FileSide;
  score: number;
  name: number;
  fit: number;
  how: PlacementHow;
  reasons: string[];
  bound: BoundOperation | BoundDataset;
  unplaced: string[];
  unfillable: string[];
}

const template = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

function methodFit(c: CatalogueSide, m: FileOperation['method']): number {
  if (c.e.kind === 'dataset') return m === 'GET' ? 1 : 0;
  if (m === 'GET') return 0;
  if (c.update === 'partial') return m === 'PATCH' ? 1 : m === 'POST' ? 0.9 : 0.8;
  if (c.update === 'full') return m === 'PUT' ? 1 : m === 'POST' ? 0.9 : 0.8;
  if (c.creates) return m === 'POST' ? 1 : m === 'PUT' ? 0.5 : 0.3;
  return m === 'POST' ? 1 : 0.8;
}

/** Whether the operation can be this endpoint at all (method, and a record to address when the catalogue has one). */
export function compatible(c: CatalogueSide, f: FileSide): boolean {
  if (methodFit(c, f.op.method) === 0) return false;
  const needsParam = c.e.path.includes('{guid}');
  if (needsParam && f.params === 0) return false;
  // A dataset is a list: GET /incidents/{id} reads one record.
  if (c.e.kind === 'dataset' && !needsParam && f.params > 0) return false;
  return true;
}

export const exactly = (c: CatalogueSide, f: FileSide): boolean =>
  (c.e.kind === 'dataset' ? f.op.method === 'GET' : f.op.method === 'POST') && template(f.op.path) === template(c.e.path);

/** A quick upper bound of the score, before placing fields: to place only the likely candidates. */
export const nameScore = (c: CatalogueSide, f: FileSide): number => dice(c.tokens, f.tokens);

function fileRef(op: FileOperation): BoundOperation['file'] {
  return {
    ...(op.operationId ? { operationId: op.operationId } : {}),
    ...(op.summary ? { summary: op.summary } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    path: op.filePath,
    pointer: op.pointer,
  };
}

/** Binds a catalogue endpoint to one file operation: placements, extras, answer; and how well it fits. */
export function bindTo(c: CatalogueSide, f: FileSide, how?: PlacementHow): Scored {
  const op = f.op;
  const name = nameScore(c, f);
  const reasons: string[] = [];
  let bound: BoundOperation | BoundDataset;
  let fit: number;
  let unplaced: string[];
  let unfillable: string[] = [];
  if (c.e.kind === 'dataset') {
    const recs = findRecords(op);
    const placed = placeRecord(c.fields, recs?.item, c.resource);
    fit = recs ? placed.fit : 0;
    unplaced = placed.unplaced;
    const params: Placement[] = [];
    if (c.e.path.includes('{guid}')) {
      const out = placeOperation([], c.e.path, { path: op.path, params: op.params }, c.resource);
      params.push(...out.placements);
    }
    bound = { kind: 'dataset', method: 'GET', path: op.path, file: fileRef(op), how: 'name', placements: [...params, ...placed.placements], records: recs?.records ?? '' };
    if (!recs) reasons.push('its answer shows no list of records');
  } else {
    const placed = placeOperation(c.fields, c.e.path, { path: op.path, params: op.params, ...(op.body ? { body: op.body } : {}) }, c.resource);
    fit = c.fields.length === 0 && !op.body ? 1 : placed.fit;
    unplaced = placed.unplaced;
    unfillable = placed.unfillable;
    const answer = c.creates ? (findCreatedId(op, c.resource) ?? { in: 'body' as const, at: '/Id' }) : null;
    fitCustomFields(c.e.id, placed.placements);
    bound = { kind: 'operation', method: op.method, path: op.path, file: fileRef(op), how: 'name', ...(op.form ? { form: op.form } : {}), placements: placed.placements, extras: placed.extras, answer };
    // Without a body schema, the catalogue's names are sent as they are (the file says nothing against it).
    if (c.fields.length && !op.body) {
      bound.placements.push(
        ...c.fields.map((x): Placement => ({ field: x.name, in: 'body', at: `/${x.name}`, fileName: x.name, encoding: { kind: 'plain' }, how: 'exact' })),
      );
      unplaced = [];
      reasons.push('the file shows no properties for its body: the catalogue\'s names are sent');
    }
  }
  const m = methodFit(c, op.method);
  const isExact = exactly(c, f);
  let score = isExact ? 1 : 0.55 * name + 0.35 * fit + 0.1 * m;
  if (op.deprecated) score *= 0.9;
  // A path parameter nothing in the catalogue fills: the operation is about some other record.
  // (A record of its own plus a parent's id, /projects/{projectId}/tasks/{taskId}, is a nested path, not another record.)
  // A parameter inside a segment (v{version}) names no record: it is a version or the like, never stray.
  const wholeSegment = (name: string) => op.path.split('/').some((x) => x === `{${name}}` || x.startsWith(`{${name}}:`));
  const strayParams = bound.kind === 'operation' && !c.e.path.includes('{guid}') ? bound.extras.filter((x) => x.in === 'path' && wholeSegment(x.at)).length : 0;
  if (strayParams) {
    score *= 0.5;
    reasons.push(`${strayParams} path parameter${strayParams > 1 ? 's' : ''} no catalogue field fills`);
  }
  const placedCount = bound.placements.length;
  reasons.splice(0, 0,
    isExact ? 'same method and path' : `name ${name.toFixed(2)}`,
    `${placedCount} of ${c.fields.length + (c.e.path.includes('{guid}') ? 1 : 0)} fields placed`,
    ...(c.e.kind === 'operation' && op.method !== 'POST' ? [`${op.method}${c.update ? ` (${c.update} update)` : ''}`] : []),
    ...(op.deprecated ? ['deprecated'] : []),
  );
  const chosenHow: PlacementHow = how ?? (isExact ? 'exact' : 0.55 * name >= 0.35 * fit ? 'name' : 'shape');
  bound.how = chosenHow;
  return { f, score, name, fit, how: chosenHow, reasons, bound, unplaced, unfillable };
}

export const refOf = (op: { method: string; path: string }): string => `${op.method} ${op.path}`;

export function candidateRef(s: Scored): CandidateRef {
  const op = s.f.op;
  return {
    ref: refOf(op),
    ...(op.operationId ? { operationId: op.operationId } : {}),
    ...(op.summary ? { summary: op.summary } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    score: Math.round(s.score * 100) / 100,
    reasons: s.reasons,
  };
}

export interface Outcome {
  bound: Map<string, Scored>;
  /** Near-ties, or only deprecated operations: the admin decides. */
  decisions: Map<string, { reason: string; candidates: Scored[] }>;
  missing: Map<string, string>;
  /** Candidates not chosen that the report mentions (deprecated twins, runners-up). */
  others: Map<string, Scored[]>;
  unclaimed: FileOperation[];
}

const PER_ENDPOINT = 6;

export function matchAll(sides: readonly CatalogueSide[], files: readonly FileSide[]): Outcome {
  const claimed = new Set<FileSide>();
  const bound = new Map<string, Scored>();
  const decisions = new Map<string, { reason: string; candidates: Scored[] }>();
  const missing = new Map<string, string>();
  const others = new Map<string, Scored[]>();
  // Exact first: the same method and path is the same operation (every documented endpoint).
  for (const c of sides) {
    const f = files.find((x) => !claimed.has(x) && !x.op.deprecated && exactly(c, x));
    if (!f) continue;
    claimed.add(f);
    bound.set(c.e.id, bindTo(c, f, 'exact'));
  }
  let rest = sides.filter((c) => !bound.has(c.e.id));
  // For each endpoint, its likely candidates by name, then placed and scored in full.
  const scored = new Map<CatalogueSide, Scored[]>();
  for (const c of rest) {
    const quick = files
      .filter((f) => !claimed.has(f) && compatible(c, f))
      .map((f) => ({ f, q: nameScore(c, f) }))
      .filter((x) => 0.55 * x.q + 0.35 + 0.1 >= THRESHOLD)
      .sort((a, b) => b.q - a.q)
      .slice(0, PER_ENDPOINT);
    scored.set(
      c,
      quick.map((x) => bindTo(c, x.f)).filter((s) => s.score >= THRESHOLD).sort((a, b) => b.score - a.score),
    );
  }
  // Best-first: the endpoint with the strongest candidate claims it, so two endpoints never share one operation.
  while (rest.length) {
    let best: { c: CatalogueSide; list: Scored[] } | undefined;
    for (const c of rest) {
      const list = scored.get(c)!.filter((s) => !claimed.has(s.f));
      if (!best || (list[0]?.score ?? 0) > (best.list[0]?.score ?? 0)) best = { c, list };
    }
    const { c, list } = best!;
    rest = rest.filter((x) => x !== c);
    if (!list.length) {
      missing.set(c.e.id, 'no operation of the file fits');
      continue;
    }
    const current = list.filter((s) => !s.f.op.deprecated);
    const deprecated = list.filter((s) => s.f.op.deprecated);
    if (!current.length) {
      // Never chosen, not even as a decision: the admin may still take it with a "use" line.
      missing.set(c.e.id, `only deprecated operations fit (${deprecated.slice(0, 2).map((s) => refOf(s.f.op)).join(', ')}); to use one anyway: use ${c.e.id} = ${refOf(deprecated[0]!.f.op)}`);
      continue;
    }
    let close = current.filter((s) => current[0]!.score - s.score < TIE);
    // Between near-equals, the method the action suits settles it (PATCH for a partial update, PUT for a full one).
    const suited = close.filter((s) => methodFit(c, s.f.op.method) === 1);
    if (close.length > 1 && suited.length === 1 && close.some((s) => s.f.op.method !== suited[0]!.f.op.method)) close = suited;
    if (close.length > 1) {
      decisions.set(c.e.id, { reason: `${close.length} operations fit almost equally well`, candidates: close });
      for (const s of close) claimed.add(s.f);
      continue;
    }
    const chosen = close[0]!;
    claimed.add(chosen.f);
    bound.set(c.e.id, chosen);
    const runnersUp = [...deprecated.filter((s) => s.score >= chosen.score - 0.25), ...current.filter((s) => s !== chosen).slice(0, 1)];
    if (runnersUp.length) others.set(c.e.id, runnersUp);
  }
  return { bound, decisions, missing, others, unclaimed: files.filter((f) => !claimed.has(f)).map((f) => f.op) };
}
