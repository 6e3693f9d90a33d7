import { matchTemplate, safeSegments, type Catalog, type Endpoint } from '../catalog';

/**
 * The endpoints an environment's binding lacks or leaves ambiguous, found by method and raw path: the
 * catalogue never matches them, and a call to one is refused with the reason rather than as "not catalogued".
 * Only consulted for a path the catalogue refused, so it costs nothing on the forwarding path.
 */
export function unavailableMatcher(
  catalog: Catalog,
): (method: string, rawPath: string) => Endpoint | undefined {
  const unavailable = catalog.endpoints.filter((e) => e.unavailable);
  if (unavailable.length === 0) return () => undefined;
  return (method, rawPath) => {
    const segments = safeSegments(rawPath);
    if (!segments) return undefined;
    return unavailable.find((e) => e.method === method.toUpperCase() && matchTemplate(e.path, segments));
  };
}
