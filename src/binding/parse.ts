import SwaggerParser from '@apidevtools/swagger-parser';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../catalog';

/**
 * Reads a customer's Swagger 2.0 or OpenAPI 3.x file (JSON or YAML) into the operations the importer matches.
 * Bad input is one `BindingInputError` naming the place (file, line or JSON pointer); nothing is written.
 */
export class BindingInputError extends Error {
  override name = 'BindingInputError';
}

export interface FileOperation {
  method: 'GET' | 'POST';
  /** Relative to the environment base URL, `{guid}` for the one path parameter (see `relativePath`). */
  path: string;
  /** As the file writes it, base path included: for the report. */
  filePath: string;
  operationId?: string;
  summary?: string;
  description?: string;
  tags: string[];
  body?: JsonSchema;
  /** The first 2xx answer's schema. */
  answer?: JsonSchema;
  /** Where the operation sits in the file, as a JSON pointer. */
  pointer: string;
}

export interface ParsedFile {
  file: string;
  sha256: string;
  spec: 'swagger-2.0' | 'openapi-3.x';
  title?: string;
  apiVersion?: string;
  /** The file's base path (Swagger basePath, or the path of the first OpenAPI server URL). */
  basePath: string;
  operations: FileOperation[];
  /** Operations the importer cannot bind (more than one path parameter): for the report. */
  skipped: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Paths in a binding are relative to the environment base URL the relay is configured with, and that URL
 * includes the API root (`https://host/api`; the spec writes some paths with a leading /api, some without).
 * So an operation's path is the file's base path joined with its path, with everything up to and including
 * the first `/api` segment removed: basePath /api + /directdata/v3/risk and basePath / + /api/directdata/v3/risk
 * both bind /directdata/v3/risk. A file without an /api segment keeps its full path (the report says the base
 * URL must then be the server root). Path parameters become `{guid}`.
 */
export function relativePath(basePath: string, path: string): string {
  const full = `/${basePath}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  const api = full.match(/^(?:\/[^/]+)*?\/api(?=\/|$)/);
  const rel = api ? full.slice(api[0].length) || '/' : full;
  return rel.replace(/\{[^}/]+\}/g, '{guid}');
}

const NOT_API = 'not a Swagger or OpenAPI file (no "swagger" or "openapi" field at the top level)';

function located(file: string, e: unknown): BindingInputError {
  const msg = ((e as Error).message ?? String(e)).replace(/^Error parsing [^:]+: /, '');
  if (/is not a valid (Openapi|Swagger) API definition/i.test(msg))
    return new BindingInputError(`${file}: ${NOT_API}`);
  return new BindingInputError(msg.includes(file) ? msg : `${file}: ${msg}`);
}

/** Finds where a $ref to `target` is written, as a JSON pointer. */
function findRef(doc: unknown, target: string, at = ''): string | undefined {
  if (Array.isArray(doc)) {
    for (let i = 0; i < doc.length; i++) {
      const hit = findRef(doc[i], target, `${at}/${i}`);
      if (hit) return hit;
    }
  } else if (isObj(doc)) {
    if (doc.$ref === target) return `${at}/$ref`;
    for (const [k, v] of Object.entries(doc)) {
      const hit = findRef(v, target, `${at}/${esc(k)}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

function checkDuplicateIds(file: string, raw: Obj): void {
  const seen = new Map<string, string>();
  for (const [p, methods] of Object.entries(isObj(raw.paths) ? raw.paths : {})) {
    if (!isObj(methods)) continue;
    for (const [m, op] of Object.entries(methods)) {
      if (!isObj(op) || typeof op.operationId !== 'string') continue;
      const here = `#/paths/${esc(p)}/${m}`;
      const before = seen.get(op.operationId);
      if (before)
        throw new BindingInputError(
          `${file}: duplicate operationId "${op.operationId}" at ${before} and ${here}`,
        );
      seen.set(op.operationId, here);
    }
  }
}

const JSON_TYPES = new Set(['application/json', 'text/json', '*/*']);
function contentSchema(content: unknown): JsonSchema | undefined {
  if (!isObj(content)) return undefined;
  for (const [type, c] of Object.entries(content)) {
    if ((JSON_TYPES.has(type) || type.endsWith('+json')) && isObj(c) && isObj(c.schema))
      return c.schema as JsonSchema;
  }
  return undefined;
}

/** The first 2xx answer with a schema. */
function answerOf(op: Obj, oas3: boolean): JsonSchema | undefined {
  const responses = isObj(op.responses) ? op.responses : {};
  for (const code of Object.keys(responses).sort()) {
    const r = responses[code];
    if (!/^2/.test(code) || !isObj(r)) continue;
    const s = oas3 ? contentSchema(r.content) : (r.schema as JsonSchema | undefined);
    if (s) return s;
  }
  return undefined;
}

export async function parseApiFile(file: string): Promise<ParsedFile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new BindingInputError(
      `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  let raw: Obj;
  try {
    raw = (await SwaggerParser.parse(file)) as unknown as Obj;
  } catch (e) {
    throw located(file, e);
  }
  if (!isObj(raw) || (typeof raw.swagger !== 'string' && typeof raw.openapi !== 'string')) {
    throw new BindingInputError(`${file}: ${NOT_API}`);
  }
  const oas3 = typeof raw.openapi === 'string';
  if (!oas3 && raw.swagger !== '2.0')
    throw new BindingInputError(`${file}: swagger "${String(raw.swagger)}" is not supported (2.0 is)`);
  if (oas3 && !String(raw.openapi).startsWith('3.'))
    throw new BindingInputError(`${file}: openapi "${String(raw.openapi)}" is not supported (3.x is)`);
  checkDuplicateIds(file, raw);
  let api: Obj;
  try {
    api = (await SwaggerParser.validate(file)) as unknown as Obj;
  } catch (e) {
    const msg = (e as Error).message;
    const missing =
      /Missing \$ref pointer "([^"]+)"/.exec(msg) ?? /Error resolving \$ref pointer "([^"]+)"/.exec(msg);
    if (missing) {
      const target = missing[1]!.replace(/^.*#/, '#');
      const where = findRef(raw, target) ?? findRef(raw, missing[1]!);
      throw new BindingInputError(
        `${file}: broken $ref "${target}"${where ? ` at #${where}` : ''}: it points at nothing in the file`,
      );
    }
    throw located(file, e);
  }

  let basePath = '/';
  if (!oas3) basePath = typeof api.basePath === 'string' ? api.basePath : '/';
  else {
    const url = Array.isArray(api.servers) && isObj(api.servers[0]) ? String(api.servers[0].url ?? '/') : '/';
    basePath = url.replace(/^[a-z]+:\/\/[^/]*/i, '') || '/';
  }
  const operations: FileOperation[] = [];
  const skipped: string[] = [];
  for (const [p, methods] of Object.entries(isObj(api.paths) ? api.paths : {})) {
    if (!isObj(methods)) continue;
    for (const m of ['get', 'post'] as const) {
      const op = methods[m];
      if (!isObj(op)) continue;
      if ((p.match(/\{/g) ?? []).length > 1) {
        skipped.push(`${m.toUpperCase()} ${p}: more than one path parameter`);
        continue;
      }
      let body: JsonSchema | undefined;
      if (oas3) body = isObj(op.requestBody) ? contentSchema(op.requestBody.content) : undefined;
      else {
        const params = [
          ...(Array.isArray(methods.parameters) ? methods.parameters : []),
          ...(Array.isArray(op.parameters) ? op.parameters : []),
        ];
        const b = params.find((x) => isObj(x) && x.in === 'body') as Obj | undefined;
        body = b && isObj(b.schema) ? (b.schema as JsonSchema) : undefined;
      }
      operations.push({
        method: m === 'get' ? 'GET' : 'POST',
        path: relativePath(basePath, p),
        filePath: `${basePath === '/' ? '' : basePath}${p}`,
        ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
        ...(typeof op.summary === 'string' ? { summary: op.summary } : {}),
        ...(typeof op.description === 'string' ? { description: op.description } : {}),
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        ...(body ? { body } : {}),
        ...(answerOf(op, oas3) ? { answer: answerOf(op, oas3) } : {}),
        pointer: `#/paths/${esc(p)}/${m}`,
      });
    }
  }
  const info = isObj(api.info) ? api.info : {};
  return {
    file,
    sha256: createHash('sha256').update(text).digest('hex'),
    spec: oas3 ? 'openapi-3.x' : 'swagger-2.0',
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { apiVersion: info.version } : {}),
    basePath,
    operations,
    skipped,
  };
}
