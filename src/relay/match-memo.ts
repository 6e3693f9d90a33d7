import type { Catalog } from '../catalog';

/** Longest raw path remembered: catalogued paths with their GUIDs are far shorter. */
const MAX_KEY_LENGTH = 512;
const MAX_ENTRIES = 10_000;

export type MemoisedMatch = Catalog['match'] & { readonly size: number };

/**
 * catalog.match, remembered per method and raw path: the taskpane asks for the same few paths over and
 * over, and matching walks every endpoint. Only paths that matched the catalogue are kept, and only short
 * ones, so a scan of made-up paths (of any length) adds nothing: at most 10,000 keys of 512 characters.
 */
export function memoisedMatch(catalog: Catalog): MemoisedMatch {
  const seen = new Map<string, ReturnType<Catalog['match']>>();
  const match = (method: string, rawPath: string) => {
    if (rawPath.length > MAX_KEY_LENGTH) return catalog.match(method, rawPath);
    const key = `${method} ${rawPath}`;
    let m = seen.get(key);
    if (!m) {
      m = catalog.match(method, rawPath);
      if (!m.ok) return m;
      if (seen.size >= MAX_ENTRIES) seen.clear();
      seen.set(key, m);
    }
    return m;
  };
  return Object.defineProperty(match, 'size', { get: () => seen.size }) as MemoisedMatch;
}
