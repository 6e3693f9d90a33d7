import {
  isValidTemplate,
  toJsonSchema,
  type BoundEndpoint,
  type Endpoint,
  type JsonSchema,
} from '../catalog';
import type { FileOperation } from './parse';
import { mapShape, objectSchema, type Difference } from './shapes';

/**
 * Matching catalogue endpoints to the file's operations. Exact first: same method and path (every documented
 * endpoint, and assumed ones the customer has where we guessed). The rest by a score: the name (path words,
 * operationId, tags, summary against the catalogue's id, title and path words) and the shape (the body's or
 * record's properties against the catalogue's fields). Below THRESHOLD nothing is bound (missing); two
 * candidates within TIE of each other are ambiguous and never picked silently.
 */
export const THRESHOLD = 0.3;
export const TIE = 0.05;
const NAME_WEIGHT = 0.55;

export interface Candidate {
  op: FileOperation;
  score: number;
  name: number;
  shape: number;
  how: 'exact' | 'name' | 'shape';
}

export interface Bound {
  op: FileOperation;
  bound: BoundEndpoint;
  differences: Difference[];
}

const STOP = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'for',
  'by',
  'and',
  'or',
  'api',
  'get',
  'post',
  'guid',
  'id',
  'byid',
  'all',
  'one',
  'with',
  'directdata',
  'data',
]);

function singular(t: string): string {
  if (t.endsWith('ies') && t.length > 4) return t.slice(0, -3) + 'y';
  if (t.endsWith('s') && !t.endsWith('ss') && t.length > 3) return t.slice(0, -1);
  return t;
}

/** Words of names in any casing, singular, with adjacent pairs joined (third party -> thirdparty). */
export function tokens(...texts: (string | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    const words = text
      .replace(/\{[^}]*\}/g, ' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/([A-Za-z])(\d)/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .map((w) => (w.length > 4 && w.endsWith('data') ? w.slice(0, -4) : w))
      .filter((w) => w && !STOP.has(w))
      .map(singular);
    for (let i = 0; i < words.length; i++) {
      out.add(words[i]!);
      if (i + 1 < words.length) out.add(singular(words[i]! + words[i + 1]!));
    }
  }
  return out;
}

function dice(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return (2 * common) / (a.size + b.size);
}

const catalogueTokens = (e: Endpoint) => tokens(e.id, e.title, e.path);
const fileTokens = (op: FileOperation) => tokens(op.operationId, op.summary, op.path, ...op.tags);

function shapes(e: Endpoint): { cat?: JsonSchema; role: 'body' | 'record' } {
  if (e.kind === 'dataset') return { cat: toJsonSchema(e.record), role: 'record' };
  return { cat: e.body ? toJsonSchema(e.body) : undefined, role: 'body' };
}

export function score(e: Endpoint, op: FileOperation): Candidate {
  const name = dice(catalogueTokens(e), fileTokens(op));
  const { cat, role } = shapes(e);
  const fileSchema = role === 'record' ? op.answer : op.body;
  let total = name;
  let shape = 0;
  if (cat && fileSchema) {
    shape = mapShape(cat, fileSchema, role).score;
    total = NAME_WEIGHT * name + (1 - NAME_WEIGHT) * shape;
  }
  // A parameter where the catalogue has none (or the reverse) is a different operation.
  if (e.path.includes('{guid}') !== op.path.includes('{guid}')) total *= 0.5;
  const how = cat && fileSchema && (1 - NAME_WEIGHT) * shape > NAME_WEIGHT * name ? 'shape' : 'name';
  return { op, score: total, name, shape, how };
}

/** A schema with named properties; a file that shows none (or a free-form object) gets no property map. */
const described = (js: JsonSchema | undefined): boolean =>
  Object.keys(objectSchema(js)?.properties ?? {}).length > 0;

/**
 * The bound endpoint for a chosen operation: path, and property maps for body, record and answer. Where the
 * file shows no schema, no map is made (the catalogue's shape is used as it is) and the report says so.
 */
export function bind(e: Endpoint, op: FileOperation, how: BoundEndpoint['how']): Bound {
  const bound: BoundEndpoint = { method: op.method, path: op.path, how };
  if (op.operationId) bound.operationId = op.operationId;
  if (op.summary) bound.summary = op.summary;
  const differences: Difference[] = [];
  const undescribed = (what: string) =>
    differences.push({
      kind: 'not-in-file',
      message: `the file shows no properties for the ${what}; the catalogue's names are used as they are`,
    });
  if (e.kind === 'dataset') {
    if (described(op.answer)) {
      const m = mapShape(toJsonSchema(e.record), op.answer, 'record');
      bound.record = m.shape;
      differences.push(...m.differences);
    } else undescribed('record');
  } else {
    if (e.body) {
      if (described(op.body)) {
        const m = mapShape(toJsonSchema(e.body), op.body, 'body');
        bound.body = m.shape;
        differences.push(...m.differences);
      } else undescribed('request body');
    }
    const answer = toJsonSchema(e.answer);
    if (answer.type === 'object' && described(op.answer)) {
      const m = mapShape(answer, op.answer, 'answer');
      bound.answer = m.shape;
      differences.push(
        ...m.differences.filter(
          (d) => d.kind !== 'not-in-file' || (answer.required ?? []).includes(d.field ?? ''),
        ),
      );
    }
  }
  return { op, bound, differences };
}

export interface MatchOutcome {
  bound: Map<string, Bound>;
  ambiguous: Map<string, Candidate[]>;
  missing: string[];
  unclaimed: FileOperation[];
}

export function matchAll(endpoints: readonly Endpoint[], operations: readonly FileOperation[]): MatchOutcome {
  const usable = operations.filter((op) => isValidTemplate(op.path));
  const claimed = new Set<FileOperation>();
  const bound = new Map<string, Bound>();
  const ambiguous = new Map<string, Candidate[]>();
  for (const e of endpoints) {
    const op = usable.find((o) => !claimed.has(o) && o.method === e.method && o.path === e.path);
    if (op) {
      claimed.add(op);
      bound.set(e.id, bind(e, op, 'exact'));
    }
  }
  // Best-first: the endpoint with the strongest candidate claims it, so two endpoints never share one operation.
  let rest = endpoints.filter((e) => !bound.has(e.id));
  const scored = new Map(
    rest.map((e) => [
      e,
      usable
        .filter((o) => !claimed.has(o) && o.method === e.method)
        .map((o) => score(e, o))
        .filter((c) => c.score >= THRESHOLD)
        .sort((a, b) => b.score - a.score),
    ]),
  );
  const missing: string[] = [];
  while (rest.length) {
    let best: { e: Endpoint; list: Candidate[] } | undefined;
    for (const e of rest) {
      const list = scored.get(e)!.filter((c) => !claimed.has(c.op));
      if (!best || (list[0]?.score ?? 0) > (best.list[0]?.score ?? 0)) best = { e, list };
    }
    const { e, list } = best!;
    rest = rest.filter((x) => x !== e);
    if (!list.length) {
      missing.push(e.id);
      continue;
    }
    const close = list.filter((c) => list[0]!.score - c.score < TIE);
    if (close.length > 1) {
      ambiguous.set(e.id, close);
      continue;
    }
    claimed.add(list[0]!.op);
    bound.set(e.id, bind(e, list[0]!.op, list[0]!.how));
  }
  const inAmbiguity = new Set([...ambiguous.values()].flatMap((l) => l.map((c) => c.op)));
  return {
    bound,
    ambiguous,
    missing,
    unclaimed: usable.filter((o) => !claimed.has(o) && !inAmbiguity.has(o)),
  };
}
