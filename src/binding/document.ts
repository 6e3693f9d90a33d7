import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';

/**
 * A customer's API file read as a document, before it is checked: the two things real files carry that
 * swagger-parser does not take as they are.
 *
 * - YAML merge keys (`<<: *base`, `<<: [*a, *b]`), which hand-kept Swagger 2.0 files use for shared
 *   parameters and schemas: resolved as YAML 1.1 says (keys the mapping has win; among several merged
 *   mappings the earlier wins). swagger-parser reads YAML with the JSON schema, where `<<` is a plain key.
 * - OpenAPI 3.2 (ASP.NET Core 11's default), which swagger-parser does not know: read as 3.1, whose schema
 *   dialect it shares (JSON Schema 2020-12); `version` keeps what the file says.
 *
 * `doc` is then given to swagger-parser with the file's path (validate, bundle), so relative $refs resolve.
 */
export class DocumentError extends Error {
  override name = 'DocumentError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Resolves every `<<` in place; returns how many there were. A `<<` that names no mapping is an error naming where. */
export function mergeKeys(doc: unknown): number {
  let count = 0;
  const done = new Set<unknown>();
  const visit = (node: unknown, at: string): void => {
    if (typeof node !== 'object' || node === null || done.has(node)) return;
    done.add(node);
    if (Array.isArray(node)) {
      node.forEach((x, i) => visit(x, `${at}/${i}`));
      return;
    }
    const o = node as Obj;
    if (Object.hasOwn(o, '<<')) {
      count++;
      const sources = Array.isArray(o['<<']) ? (o['<<'] as unknown[]) : [o['<<']];
      if (!sources.every(isObj))
        throw new DocumentError(`the YAML merge key "<<" at #${at} must name a mapping (an anchor such as *base, or a list of them)`);
      const own = new Set(Object.keys(o).filter((k) => k !== '<<'));
      delete o['<<'];
      for (const s of sources) {
        visit(s, `${at}/<<`);
        for (const [k, v] of Object.entries(s)) if (!own.has(k) && !Object.hasOwn(o, k)) o[k] = v;
      }
    }
    for (const [k, v] of Object.entries(o)) visit(v, `${at}/${esc(k)}`);
  };
  visit(doc, '');
  return count;
}

const UNSUPPORTED = /Unsupported OpenAPI version: (3\.2\.\d+)/;

/**
 * The file as a document (see above). Errors are swagger-parser's (a YAML error names its line), or a
 * DocumentError naming what in the file is refused and where.
 */
export async function readApiDocument(file: string): Promise<{ doc: Obj; version?: string }> {
  const parser = new SwaggerParser();
  let doc: Obj;
  let version: string | undefined;
  try {
    doc = (await parser.parse(file)) as unknown as Obj;
  } catch (e) {
    // swagger-parser reads the whole file before it looks at the version: what it read is kept.
    const m = UNSUPPORTED.exec((e as Error).message ?? '');
    const read = (parser as unknown as { schema?: unknown }).schema;
    if (!m || !isObj(read)) throw e;
    doc = read;
    version = m[1];
  }
  // Only a YAML file can hold merge keys: a walk of a large JSON file would cost time for nothing.
  if (/<</.test(readFileSync(file, 'utf8'))) mergeKeys(doc);
  if (version) doc.openapi = '3.1.1';
  return { doc, ...(version ? { version } : {}) };
}

/**
 * An operation's path with every parameter that sits INSIDE a segment (asp-versioning's `/api/v{version}/...`
 * with SubstituteApiVersionInUrl off) replaced by the value the file fixes for it: its default, or the one
 * value of its enum, as a client generated from the file would send. `parameters` are the operation's raw
 * parameter objects, $refs followed by `deref` (Swagger 2.0 keeps `default`/`enum` on the parameter, OpenAPI
 * 3 in its schema). A parameter that is a whole segment (`/tasks/{id}`), or a custom method's
 * (`{id}:advance`), is left alone; one inside a segment with no fixed value stays a parameter (the report
 * asks the admin for its value: a required extra column, or a `default` line). Returns the path and the names
 * it filled.
 */
export function fixedPath(path: string, parameters: readonly unknown[], deref: (p: unknown) => unknown = (p) => p): { path: string; filled: string[] } {
  const filled: string[] = [];
  const out = path
    .split('/')
    .map((segment) => {
      if (!segment.includes('{') || /^\{[^}]+\}(?::[A-Za-z0-9_.~-]+)?$/.test(segment)) return segment;
      return segment.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const p = parameters.map(deref).find((x) => isObj(x) && x.in === 'path' && x.name === name);
        if (!isObj(p)) return whole;
        const s = isObj(p.schema) ? p.schema : p;
        const value = s.default ?? (Array.isArray(s.enum) && s.enum.length === 1 ? s.enum[0] : undefined);
        if (typeof value !== 'string' && typeof value !== 'number') return whole;
        filled.push(name);
        return encodeURIComponent(String(value));
      });
    })
    .join('/');
  return { path: out, filled };
}
