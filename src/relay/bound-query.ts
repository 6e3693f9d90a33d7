import type { Endpoint } from '../catalog';

/**
 * The query string forwarded for an endpoint: none, unless the environment's binding places a catalogue
 * field or an extra column in a query parameter of the customer's file; then only those parameters, rebuilt
 * from their decoded values (never the request's raw text). null: the request names a parameter the binding
 * does not place (refused, nothing is sent).
 */
export function boundQuery(endpoint: Endpoint, query: string): string | null {
  if (query === '') return '';
  const bound = endpoint.binding;
  const allowed = new Set(
    bound?.kind === 'operation'
      ? [...bound.placements, ...bound.extras].filter((p) => p.in === 'query').map((p) => p.at)
      : (bound?.placements.filter((p) => p.in === 'query').map((p) => p.at) ?? []),
  );
  if (!allowed.size) return null;
  const pairs: string[] = [];
  for (const [k, v] of new URLSearchParams(query.slice(1))) {
    if (!allowed.has(k)) return null;
    pairs.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}
