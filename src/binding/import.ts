import {
  BINDING_FORMAT,
  BINDING_VERSION,
  DATASETS_AND_OPERATIONS,
  binding as bindingSchema,
  type Binding,
  type BoundEndpoint,
  type Endpoint,
  type ExtraDataset,
} from '../catalog';
import { bind, matchAll, type Candidate } from './match';
import { parseApiFile, type FileOperation, type ParsedFile } from './parse';
import { objectSchema, type Difference } from './shapes';

export interface ImportOptions {
  /** The binding file this import replaces: admin picks in it are kept. */
  previous?: Binding;
  /** Take the best candidate of every ambiguous endpoint. */
  accept?: boolean;
  /** The file name recorded in the binding (default: as given). */
  recordAs?: string;
  now?: Date;
}

export interface ImportResult {
  binding: Binding;
  parsed: ParsedFile;
  /** Per bound catalogue id: where it was found in the file and the differences that matter. */
  matched: {
    id: string;
    bound: BoundEndpoint;
    filePath: string;
    differences: Difference[];
    accepted?: boolean;
  }[];
  ambiguous: {
    id: string;
    candidates: { ref: string; score: number; op: FileOperation }[];
    pick: string | null;
    stalePick?: string;
  }[];
  missing: string[];
  /** Ambiguous ids with no pick: what keeps the exit status non-zero. */
  unresolved: string[];
}

const refOf = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

function slug(path: string): string {
  const words = path
    .split('/')
    .filter((s) => s && !/^v\d+$/.test(s) && s !== '{guid}' && !/^directdata$/i.test(s))
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `x-${words || 'dataset'}`;
}

/** A GET the catalogue lacks that answers with a list of records: loadable as an untyped dataset. */
function extraDatasetOf(op: FileOperation): Omit<ExtraDataset, 'id'> | undefined {
  if (op.method !== 'GET' || op.path.includes('{guid}') || op.answer?.type !== 'array') return undefined;
  const item = objectSchema(op.answer.items);
  if (!item?.properties) return undefined;
  return {
    path: op.path,
    title: op.summary ?? op.operationId ?? op.path,
    ...(op.operationId ? { operationId: op.operationId } : {}),
    properties: Object.keys(item.properties),
  };
}

/** The picks an admin made in the previous binding: ambiguous picks and earlier 'picked' endpoints. */
function previousPicks(previous: Binding | undefined): Map<string, string> {
  const picks = new Map<string, string>();
  if (!previous) return picks;
  for (const [id, a] of Object.entries(previous.ambiguous)) if (a.pick) picks.set(id, a.pick);
  for (const [id, e] of Object.entries(previous.endpoints)) if (e.how === 'picked') picks.set(id, refOf(e));
  return picks;
}

export async function importBinding(file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const parsed = await parseApiFile(file);
  const endpoints: readonly Endpoint[] = DATASETS_AND_OPERATIONS;
  const outcome = matchAll(endpoints, parsed.operations);
  const picks = previousPicks(options.previous);
  const byId = new Map(endpoints.map((e) => [e.id, e]));

  const matched: ImportResult['matched'] = [];
  const ambiguous: ImportResult['ambiguous'] = [];
  const unresolved: string[] = [];
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
    },
    endpoints: {},
    ambiguous: {},
    missing: [...outcome.missing],
    extraDatasets: [],
  };

  for (const e of endpoints) {
    const b = outcome.bound.get(e.id);
    if (b) {
      out.endpoints[e.id] = b.bound;
      matched.push({ id: e.id, bound: b.bound, filePath: b.op.filePath, differences: b.differences });
    }
    const list: Candidate[] | undefined = outcome.ambiguous.get(e.id);
    if (!list) continue;
    const candidates = list.map((c) => ({ ref: refOf(c.op), score: c.score, op: c.op }));
    const pick = picks.get(e.id);
    const picked = candidates.find((c) => c.ref === pick);
    if (picked) {
      const b2 = bind(e, picked.op, 'picked');
      out.endpoints[e.id] = b2.bound;
      matched.push({ id: e.id, bound: b2.bound, filePath: picked.op.filePath, differences: b2.differences });
      continue;
    }
    if (options.accept) {
      const best = list[0]!;
      const b2 = bind(e, best.op, best.how);
      out.endpoints[e.id] = b2.bound;
      matched.push({
        id: e.id,
        bound: b2.bound,
        filePath: best.op.filePath,
        differences: b2.differences,
        accepted: true,
      });
      continue;
    }
    out.ambiguous[e.id] = {
      candidates: candidates.map((c) => c.ref),
      pick: null,
      bound: Object.fromEntries(candidates.map((c) => [c.ref, bind(e, c.op, 'picked').bound])),
    };
    ambiguous.push({ id: e.id, candidates, pick: null, ...(pick ? { stalePick: pick } : {}) });
    unresolved.push(e.id);
  }

  const taken = new Set<string>();
  for (const op of outcome.unclaimed) {
    const x = extraDatasetOf(op);
    if (!x) continue;
    let id = slug(op.path);
    for (let i = 2; taken.has(id) || byId.has(id); i++) id = `${slug(op.path)}-${i}`;
    taken.add(id);
    out.extraDatasets.push({ id, ...x });
  }
  return {
    binding: bindingSchema.parse(out),
    parsed,
    matched,
    ambiguous,
    missing: outcome.missing,
    unresolved,
  };
}
