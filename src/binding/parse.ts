import SwaggerParser from '@apidevtools/swagger-parser';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FormMedia } from '../catalog';
import { DocumentError, fixedPath, readApiDocument } from './document';
import { normalize, type Schema } from './schema';

/**
 * Reads a customer's Swagger 2.0 or OpenAPI 3.x file (JSON or YAML) into the operations the importer matches.
 * Bad input is one `BindingInputError` naming the place (file, line or JSON pointer); nothing is written.
 */
export class BindingInputError extends Error {
  override name = 'BindingInputError';
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

export interface FileParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
  description?: string;
}

export interface FileAnswer {
  status: number;
  schema?: Schema;
  /** The answer documents a Location header. */
  location: boolean;
}

export interface FileOperation {
  method: Method;
  /** Relative to the environment base URL (see `relativePath`), with the file's own parameter names. */
  path: string;
  /** As the file writes it, base path included: for the report. */
  filePath: string;
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  params: FileParameter[];
  body?: Schema;
  /** The body is a form (its properties the form's fields), not JSON. */
  form?: FormMedia;
  /** The 2xx answers, 201 and 200 first. */
  answers: FileAnswer[];
  /** Where the operation sits in the file, as a JSON pointer. */
  pointer: string;
}

export interface ParsedFile {
  file: string;
  sha256: string;
  spec: 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1' | 'openapi-3.2';
  title?: string;
  apiVersion?: string;
  /** The file's base path (Swagger basePath, or the path of the first OpenAPI server URL). */
  basePath: string;
  operations: FileOperation[];
  /** Operations the importer cannot bind (a body that is not JSON, a method it does not send): for the report. */
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
 * URL must then be the server root). Path parameters keep the file's names.
 */
export function relativePath(basePath: string, path: string): string {
  const full = `/${basePath}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  const api = full.match(/^(?:\/[^/]+)*?\/api(?=\/|$)/);
  const rel = api ? full.slice(api[0].length) || '/' : full;
  return rel;
}

const NOT_API = 'not a Swagger or OpenAPI file (no "swagger" or "openapi" field at the top level)';

function located(file: string, e: unknown): BindingInputError {
  const msg = ((e as Error).message ?? String(e)).replace(/^Error parsing [^:]+: /, '');
  if (/is not a valid (Openapi|Swagger) API definition/i.test(msg))
    return new BindingInputError(`${file}: ${NOT_API}`);
  // A schema validation lists every consequence of one mistake; the first few lines name it.
  const lines = msg.split('\n').filter((l) => l.trim());
  const shown = lines.length > 4 ? [...lines.slice(0, 4), `  (and ${lines.length - 4} more lines like these)`] : lines;
  const text = shown.join('\n');
  return new BindingInputError(text.includes(file) ? text : `${file}: ${text}`);
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
function contentSchema(content: unknown): unknown {
  if (!isObj(content)) return undefined;
  for (const [type, c] of Object.entries(content)) {
    const bare = type.split(';')[0]!.trim().toLowerCase();
    if ((JSON_TYPES.has(bare) || bare.endsWith('+json')) && isObj(c) && isObj(c.schema)) return c.schema;
  }
  return undefined;
}

const FORM_TYPES: Record<string, FormMedia> = {
  'application/x-www-form-urlencoded': 'urlencoded',
  'multipart/form-data': 'multipart',
};

/** Whether a form schema has a file part (a binary string): such a form goes as multipart. */
const hasFilePart = (schema: unknown): boolean =>
  isObj(schema) &&
  isObj(schema.properties) &&
  Object.values(schema.properties).some(
    (p) => isObj(p) && ((p.type === 'string' && (p.format === 'binary' || p.format === 'base64')) || p.type === 'file' || (isObj(p.items) && p.items.format === 'binary')),
  );

/**
 * The form an operation takes and its fields' schema: urlencoded unless the file offers only multipart or
 * a field is a file (which only multipart carries).
 */
function formOf(offered: readonly string[], schema: Obj): { media: FormMedia; schema: Obj } | undefined {
  const media = offered.map((t) => FORM_TYPES[t.split(';')[0]!.trim().toLowerCase()]).filter((m): m is FormMedia => !!m);
  if (!media.length) return undefined;
  const multipart = hasFilePart(schema) ? media.includes('multipart') : !media.includes('urlencoded');
  return { media: multipart ? 'multipart' : 'urlencoded', schema };
}

/** OpenAPI 3: a form request body (when the operation offers no JSON one). */
function oas3Form(content: unknown): { media: FormMedia; schema: Obj } | undefined {
  if (!isObj(content)) return undefined;
  const types = Object.keys(content).filter((t) => FORM_TYPES[t.split(';')[0]!.trim().toLowerCase()]);
  const pick = (media: FormMedia) => types.find((t) => FORM_TYPES[t.split(';')[0]!.trim().toLowerCase()] === media);
  const schemaOf = (t: string | undefined) => {
    const c = t === undefined ? undefined : content[t];
    return isObj(c) && isObj(c.schema) ? c.schema : undefined;
  };
  const schema = schemaOf(pick('urlencoded')) ?? schemaOf(pick('multipart'));
  return schema ? formOf(types, schema) : undefined;
}

/**
 * Swagger 2.0: `in: formData` parameters as one object schema (a `type: file` parameter a binary string),
 * sent as the operation's (or the file's) `consumes` says: urlencoded unless only multipart is offered or a
 * parameter is a file. A file that names neither form type still takes form data: urlencoded then.
 */
function swaggerForm(params: readonly unknown[], consumes: unknown): { media: FormMedia; schema: Obj } | undefined {
  const form = params.filter((x): x is Obj => isObj(x) && x.in === 'formData' && typeof x.name === 'string');
  if (!form.length) return undefined;
  const properties: Obj = {};
  const required: string[] = [];
  for (const p of form) {
    const { name, in: _in, required: req, ...rest } = p;
    properties[name as string] = rest.type === 'file' ? { ...rest, type: 'string', format: 'binary' } : rest;
    if (req === true) required.push(name as string);
  }
  const schema: Obj = { type: 'object', properties, ...(required.length ? { required } : {}) };
  const offered = Array.isArray(consumes) ? consumes.map(String) : [];
  return formOf(offered.length && offered.some((t) => FORM_TYPES[t.split(';')[0]!.trim().toLowerCase()]) ? offered : [hasFilePart(schema) ? 'multipart/form-data' : 'application/x-www-form-urlencoded'], schema);
}

const hasLocation = (r: Obj) =>
  isObj(r.headers) && Object.keys(r.headers).some((h) => h.toLowerCase() === 'location');

/** The 2xx answers: 201 first (a create), then the others in order; "2XX" counts as 200. */
function answersOf(op: Obj, oas3: boolean): FileAnswer[] {
  const responses = isObj(op.responses) ? op.responses : {};
  const out: FileAnswer[] = [];
  for (const code of Object.keys(responses)) {
    const r = responses[code];
    if (!/^2/.test(code) || !isObj(r)) continue;
    const raw = oas3 ? contentSchema(r.content) : r.schema;
    out.push({
      status: /^\d+$/.test(code) ? Number(code) : 200,
      ...(raw !== undefined ? { schema: normalize(raw) } : {}),
      location: hasLocation(r),
    });
  }
  return out.sort((a, b) => (a.status === 201 ? -1 : b.status === 201 ? 1 : a.status - b.status));
}

function parameterOf(p: unknown, oas3: boolean): FileParameter | undefined {
  if (!isObj(p) || (p.in !== 'path' && p.in !== 'query') || typeof p.name !== 'string') return undefined;
  // Swagger 2.0 puts type and format on the parameter; OpenAPI 3 in its schema.
  const schema = normalize(oas3 ? (isObj(p.schema) ? p.schema : {}) : p);
  return {
    name: p.name,
    in: p.in,
    required: p.in === 'path' || p.required === true,
    schema,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
  };
}

/**
 * An HTTP security scheme's name is case-insensitive (RFC 7235), and ASP.NET generators write "Bearer", but the
 * OpenAPI 3.0 schema swagger-parser checks against takes only "bearer" beside a bearerFormat: without this a
 * valid file is refused over a scheme the binding never reads.
 */
function lowerHttpSchemes(raw: Obj): void {
  const schemes = isObj(raw.components) && isObj(raw.components.securitySchemes) ? raw.components.securitySchemes : {};
  for (const s of Object.values(schemes))
    if (isObj(s) && s.type === 'http' && typeof s.scheme === 'string') s.scheme = s.scheme.toLowerCase();
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
  let version: string | undefined;
  try {
    // YAML merge keys resolved, OpenAPI 3.2 read as 3.1 (document.ts).
    ({ doc: raw, version } = await readApiDocument(file));
  } catch (e) {
    if (e instanceof DocumentError) throw new BindingInputError(`${file}: ${e.message}`);
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
  if (oas3) lowerHttpSchemes(raw);
  let api: Obj;
  try {
    // A 3.2 file is checked by the rules swagger-parser has for every version, not by 3.1's schema, which
    // refuses what 3.2 adds (a tag's summary, parent and kind; a media type's itemSchema; the query method).
    const options = version ? { validate: { schema: false, spec: true } } : {};
    // The document itself (validate dereferences it in place: raw is read again where an error needs it).
    api = (await SwaggerParser.validate(file, raw as never, options)) as unknown as Obj;
  } catch (e) {
    const msg = (e as Error).message;
    raw = (await readApiDocument(file)).doc;
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
    const server = Array.isArray(api.servers) && isObj(api.servers[0]) ? api.servers[0] : {};
    // Server variables ({basePath}, {version}) take their defaults, as a client would.
    const variables = isObj(server.variables) ? server.variables : {};
    const url = String(server.url ?? '/').replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const v = variables[name];
      return isObj(v) && v.default !== undefined ? String(v.default) : whole;
    });
    basePath = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/\{[^}]*\}/g, '') || '/';
  }
  const operations: FileOperation[] = [];
  const skipped: string[] = [];
  for (const [p, methods] of Object.entries(isObj(api.paths) ? api.paths : {})) {
    if (!isObj(methods)) continue;
    for (const m of ['get', 'post', 'put', 'patch'] as const) {
      const op = methods[m];
      if (!isObj(op)) continue;
      const shared = Array.isArray(methods.parameters) ? methods.parameters : [];
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      // An operation's own parameter replaces a path-level one of the same name and place.
      const all = [...shared.filter((x) => !own.some((o) => isObj(o) && isObj(x) && o.name === x.name && o.in === x.in)), ...own];
      let rawBody: unknown;
      let form: FormMedia | undefined;
      if (oas3) {
        rawBody = isObj(op.requestBody) ? contentSchema(op.requestBody.content) : undefined;
        const f = rawBody === undefined && isObj(op.requestBody) ? oas3Form(op.requestBody.content) : undefined;
        if (f) [rawBody, form] = [f.schema, f.media];
      } else {
        const b = all.find((x) => isObj(x) && x.in === 'body') as Obj | undefined;
        rawBody = b?.schema;
        const f = b ? undefined : swaggerForm(all, op.consumes ?? api.consumes);
        if (f) [rawBody, form] = [f.schema, f.media];
      }
      if (oas3 && isObj(op.requestBody) && rawBody === undefined && isObj(op.requestBody.content)) {
        skipped.push(`${m.toUpperCase()} ${p}: its body is neither JSON nor a form (${Object.keys(op.requestBody.content).join(', ')})`);
        continue;
      }
      // A version inside a segment (/api/v{version}/...) is the value the file fixes for it.
      const fixed = fixedPath(p, all);
      const params = all
        .map((x) => parameterOf(x, oas3))
        .filter((x): x is FileParameter => !!x && !(x.in === 'path' && fixed.filled.includes(x.name)));
      operations.push({
        method: m.toUpperCase() as Method,
        path: relativePath(basePath, fixed.path),
        filePath: `${basePath === '/' ? '' : basePath}${p}`,
        ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
        ...(typeof op.summary === 'string' ? { summary: op.summary } : {}),
        ...(typeof op.description === 'string' ? { description: op.description } : {}),
        deprecated: op.deprecated === true,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        params,
        ...(rawBody !== undefined ? { body: normalize(rawBody) } : {}),
        ...(form ? { form } : {}),
        answers: answersOf(op, oas3),
        pointer: `#/paths/${esc(p)}/${m}`,
      });
    }
  }
  const info = isObj(api.info) ? api.info : {};
  return {
    file,
    sha256: createHash('sha256').update(text).digest('hex'),
    spec: !oas3 ? 'swagger-2.0' : version ? 'openapi-3.2' : String(raw.openapi).startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0',
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { apiVersion: info.version } : {}),
    basePath,
    operations,
    skipped,
  };
}
