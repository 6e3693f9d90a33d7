import { fromWire, type WireShape } from '../catalog/wire';

type Json = Record<string, unknown>;

/**
 * A dataset record reader for one bound record shape, made once per download: `fromWire(shape, r, true)`,
 * with the common case (every property a plain top-level name, no enum mapping: a file that only renames)
 * compiled into a loop over precomputed pairs. fromWire parses each path for each record, which costs more
 * than parsing the JSON itself on a 200,000-record dataset. Any other shape goes through fromWire.
 */
export function recordReader(shape: WireShape): (record: Json) => Json {
  const fields: string[] = [];
  const paths: string[] = [];
  for (const [field, to] of Object.entries(shape.properties)) {
    if (typeof to !== 'string' || /[.[]/.test(to) || shape.enums[field]?.map)
      return (r) => fromWire(shape, r, true);
    fields.push(field);
    paths.push(to);
  }
  const mapped = new Set(paths);
  const n = fields.length;
  return (r) => {
    const out: Json = {};
    // Properties the map does not name are kept under their own names, as fromWire's keepOthers does;
    // a mapped field of the same name wins.
    for (const k in r) if (!mapped.has(k) && Object.hasOwn(r, k)) out[k] = r[k];
    for (let i = 0; i < n; i++) {
      const v = r[paths[i]!];
      if (v !== undefined) out[fields[i]!] = v;
    }
    return out;
  };
}
