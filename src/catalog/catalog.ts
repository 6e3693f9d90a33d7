import { z } from 'zod';
import { keepsDocumented, type Binding, type ExtraDataset } from './binding';
import { widenBody } from './widen';
import { DATASETS } from './datasets';
import type { Dataset, Endpoint, Operation } from './endpoint';
import { OPERATIONS } from './operations';
import { text } from './fields';
import { isValidTemplate, matchTemplate, safeSegments, type PathParams } from './paths';

export type Match =
  | { ok: true; endpoint: Endpoint; params: PathParams }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'method-not-allowed'; allow: string[] };

export interface Catalog {
  readonly endpoints: readonly Endpoint[];
  readonly datasets: readonly Dataset[];
  readonly operations: readonly Operation[];
  get(id: string): Endpoint;
  dataset(id: string): Dataset;
  operation(id: string): Operation;
  /** Finds the endpoint for a method and a raw (still encoded) path relative to the API root. */
  match(method: string, rawPath: string): Match;
}

/** Every catalogue endpoint as the spec and our assumptions have it (what a binding binds). */
export const DATASETS_AND_OPERATIONS: readonly Endpoint[] = [...DATASETS, ...OPERATIONS];

export class CatalogConfigError extends Error {
  override name = 'CatalogConfigError';
}

const BINDING_HELP = "import the service's API file (grc-sheets binding import, docs/binding.md)";

function extraDatasetEndpoint(x: ExtraDataset): Dataset {
  // Untyped: every property a text column, since the catalogue does not know what the service sends.
  const record = z.looseObject(Object.fromEntries(x.properties.map((p) => [p, text()])));
  return {
    kind: 'dataset',
    method: 'GET',
    id: x.id,
    path: x.path,
    version: (/\/(v[123])\//.exec(x.path)?.[1] as Dataset['version']) ?? null,
    area: 'Other',
    title: x.title,
    description: `In the service's Swagger file${x.operationId ? ` (${x.operationId})` : ''}, not in the catalogue: untyped.`,
    record,
    documented: false,
    access: { kind: 'directdata' },
    // Its path comes from the file, so it counts as bound (pathSource), not assumed.
    binding: {
      kind: 'dataset',
      method: 'GET',
      path: x.path,
      how: 'name',
      file: { ...(x.operationId ? { operationId: x.operationId } : {}), path: x.path, pointer: '' },
      placements: [],
      records: x.records,
    },
  };
}

function place(e: Endpoint, b: Binding): Endpoint {
  const bound = b.endpoints[e.id];
  if (bound) {
    if (bound.kind !== e.kind)
      throw new CatalogConfigError(
        `binding: "${e.id}" is ${e.kind === 'operation' ? 'an operation' : 'a dataset'}, the binding has ${bound.kind === 'operation' ? 'an operation' : 'a dataset'} for it`,
      );
    if (e.kind === 'dataset' && bound.kind === 'dataset') return { ...e, path: bound.path, binding: bound };
    if (e.kind === 'operation' && bound.kind === 'operation') {
      // The file's extra enum values are valid bodies on this environment (widen.ts). A binding that cannot
      // be applied names the endpoint and the field, so the admin knows which line of the import to look at.
      let body = e.body;
      try {
        if (e.body) body = widenBody(e.body, bound);
      } catch (err) {
        throw new CatalogConfigError(`binding: "${e.id}" (${bound.method} ${bound.path}): ${(err as Error).message}`);
      }
      return { ...e, method: bound.method, path: bound.path, binding: bound, body };
    }
  }
  if (keepsDocumented(b, e) && e.kind === 'dataset') return { ...e, notInFile: true };
  const decision = b.decisions[e.id];
  if (decision) {
    const c = decision.candidates.map((x) => x.ref).join(', ');
    return {
      ...e,
      unavailable: {
        reason: 'ambiguous',
        message: `${e.title}: the API file has more than one candidate (${c}); the admin picks one in the binding's overrides file and imports again (docs/binding.md)`,
      },
    };
  }
  const why = b.missing[e.id]
    ? `the service's API file has no such operation (${b.missing[e.id]})`
    : 'the binding does not list it (imported by an older grc-sheets)';
  return {
    ...e,
    unavailable: {
      reason: 'missing',
      message: `${e.title}: ${why}; the admin asks the service desk, then re-imports: ${BINDING_HELP}`,
    },
  };
}

/**
 * A dataset kept at its documented path gives way where the file uses that path for another endpoint: the
 * file's own operation there is what the service answers.
 */
function withoutClashes(endpoints: Endpoint[]): Endpoint[] {
  const taken = new Map(
    endpoints.filter((e) => !e.unavailable && !(e.kind === 'dataset' && e.notInFile)).map((e) => [`${e.method} ${e.path}`, e]),
  );
  return endpoints.map((e) => {
    const other = e.kind === 'dataset' && e.notInFile ? taken.get(`${e.method} ${e.path}`) : undefined;
    if (!other) return e;
    const { notInFile: _kept, ...rest } = e as Dataset;
    return {
      ...rest,
      unavailable: {
        reason: 'missing',
        message: `${e.title}: the service's API file does not list it, and it has ${e.method} ${e.path} (the spec's path for it) as ${other.title}; the admin binds it with a "use" line: ${BINDING_HELP}`,
      },
    };
  });
}

/**
 * The catalogue. With a binding, endpoints move to their bound paths and carry `binding`; a documented
 * dataset the file does not list stays at the spec's path, marked `notInFile` (binding.ts keepsDocumented);
 * other ids the binding lists as missing, or ambiguous without a pick, carry `unavailable` and are never
 * matched; the binding's extra datasets are appended as untyped datasets (area 'Other').
 */
export function createCatalog(b?: Binding): Catalog {
  const base = DATASETS_AND_OPERATIONS;
  const known = new Set(base.map((e) => e.id));
  if (b) {
    for (const id of [...Object.keys(b.endpoints), ...Object.keys(b.decisions), ...Object.keys(b.missing)]) {
      if (!known.has(id))
        throw new CatalogConfigError(
          `binding names "${id}", which this catalogue does not have: re-import the Swagger file`,
        );
    }
  }
  const endpoints: Endpoint[] = b
    ? withoutClashes([...base.map((e) => place(e, b)), ...b.extraDatasets.map(extraDatasetEndpoint)])
    : [...base];
  for (const e of endpoints) {
    if (!isValidTemplate(e.path))
      throw new CatalogConfigError(`"${e.id}": not a valid path template: ${e.path}`);
  }
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const seen = new Set<string>();
  for (const e of endpoints) {
    if (e.unavailable) continue;
    const key = `${e.method} ${e.path}`;
    if (seen.has(key)) throw new CatalogConfigError(`two endpoints share ${key}`);
    seen.add(key);
  }

  function get(id: string): Endpoint {
    const e = byId.get(id);
    if (!e) throw new Error(`no endpoint "${id}" in the catalogue`);
    return e;
  }

  return {
    endpoints,
    datasets: endpoints.filter((e): e is Dataset => e.kind === 'dataset'),
    operations: endpoints.filter((e): e is Operation => e.kind === 'operation'),
    get,
    dataset(id) {
      const e = get(id);
      if (e.kind !== 'dataset') throw new Error(`"${id}" is not a dataset`);
      return e;
    },
    operation(id) {
      const e = get(id);
      if (e.kind !== 'operation') throw new Error(`"${id}" is not an operation`);
      return e;
    },
    match(method, rawPath) {
      const segments = safeSegments(rawPath);
      if (!segments) return { ok: false, reason: 'not-found' };
      const allow: string[] = [];
      for (const e of endpoints) {
        if (e.unavailable) continue;
        const params = matchTemplate(e.path, segments);
        if (!params) continue;
        if (e.method === method.toUpperCase()) return { ok: true, endpoint: e, params };
        allow.push(e.method);
      }
      return allow.length
        ? { ok: false, reason: 'method-not-allowed', allow }
        : { ok: false, reason: 'not-found' };
    },
  };
}

/** Where an endpoint's path comes from: the spec, a binding, or our assumption. */
export function pathSource(e: Endpoint): 'documented' | 'bound' | 'assumed' {
  if (e.documented && (!e.binding || e.binding.how === 'exact')) return 'documented';
  return e.binding ? 'bound' : 'assumed';
}

export type WriteAvailability =
  { kind: 'ok' } | { kind: 'confirm'; message: string } | { kind: 'unavailable'; message: string };

/**
 * No blind posts: a write whose path is neither documented nor bound is unavailable on production and needs
 * the user's confirmation elsewhere; one the binding lacks is unavailable everywhere.
 */
export function writeAvailability(operation: Operation, env: { production: boolean }): WriteAvailability {
  if (operation.unavailable) return { kind: 'unavailable', message: operation.unavailable.message };
  if (pathSource(operation) !== 'assumed') return { kind: 'ok' };
  const what = `${operation.title}: the path ${operation.path} is assumed (the spec does not show it)`;
  if (env.production) {
    return {
      kind: 'unavailable',
      message: `${what}, so it is not called on a production environment; the admin can ${BINDING_HELP}`,
    };
  }
  return {
    kind: 'confirm',
    message: `${what}; confirm to try it on this environment, or ask the admin to ${BINDING_HELP}`,
  };
}

/** The catalogue as the spec and our documented assumptions have it, with no binding. */
export const catalog: Catalog = createCatalog();
