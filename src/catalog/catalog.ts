import { DATASETS } from './datasets';
import type { Dataset, Endpoint, Operation } from './endpoint';
import { OPERATIONS } from './operations';
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

/** Path overrides for assumed endpoints, by id: `{"incident-create": "/incidentdata/v1/incidents"}`. */
export type PathOverrides = Record<string, string>;

export class CatalogConfigError extends Error {
  override name = 'CatalogConfigError';
}

export function createCatalog(overrides: PathOverrides = {}): Catalog {
  const base: Endpoint[] = [...DATASETS, ...OPERATIONS];
  const known = new Map(base.map((e) => [e.id, e]));
  for (const [id, path] of Object.entries(overrides)) {
    const e = known.get(id);
    if (!e) throw new CatalogConfigError(`path override for unknown endpoint "${id}"`);
    if (e.documented) throw new CatalogConfigError(`"${id}" has a documented path (${e.path}); only assumed paths can be overridden`);
    if (!isValidTemplate(path)) throw new CatalogConfigError(`path override for "${id}" is not a valid path template: ${path}`);
  }
  const endpoints = base.map((e) => (overrides[e.id] ? { ...e, path: overrides[e.id]! } : e)) as Endpoint[];
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const seen = new Set<string>();
  for (const e of endpoints) {
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
        const params = matchTemplate(e.path, segments);
        if (!params) continue;
        if (e.method === method.toUpperCase()) return { ok: true, endpoint: e, params };
        allow.push(e.method);
      }
      return allow.length ? { ok: false, reason: 'method-not-allowed', allow } : { ok: false, reason: 'not-found' };
    },
  };
}

/** The catalogue as the spec and our documented assumptions have it, with no overrides. */
export const catalog: Catalog = createCatalog();
