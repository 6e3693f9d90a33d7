import { identityBinding, type Binding } from '../../src/catalog';

/**
 * A full binding where every catalogue endpoint is bound exactly at its own path, except the moved ones
 * (bound by name at the given path): what tests used path overrides for.
 */
export function bindPaths(moved: Record<string, string> = {}): Binding {
  const b = identityBinding('bind-paths');
  for (const [id, path] of Object.entries(moved)) {
    const e = b.endpoints[id];
    if (!e) throw new Error(`bindPaths: no catalogue endpoint "${id}"`);
    b.endpoints[id] = { ...e, path, how: 'name' };
  }
  return b;
}
