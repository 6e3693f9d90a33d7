import { fixedPath, readApiDocument } from '../../binding/document';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FormMedia } from '../../catalog';
import { convertDocument, convertSchema, type Spec } from './dialect';

/**
 * The customer's own API file, read by the sandbox itself (not through the binding), so the bound sandbox can
 * hold a client to what that file says: request bodies checked against the file's schemas with ajv, answers
 * in the file's documented shape, dataset records with the file's properties.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface FileAnswer {
  status: number;
  /** The answer body's schema (answer direction), when the file documents a JSON body. */
  schema?: unknown;
  /** The file documents a Location header on this answer. */
  location: boolean;
  /** The body is text/plain only (a bare GUID as text): sent as text, not JSON. */
  text?: true;
}

export interface QueryParameter {
  name: string;
  required: boolean;
  /** The value's JSON type: a query string is text, so it is read as this before it is checked. */
  type: string;
  check: () => ValidateFunction;
}

export interface FileOperation {
  method: string;
  /** As the file writes it (without the base path). */
  path: string;
  operationId?: string;
  deprecated: boolean;
  /**
   * The checker of a request body against the file's schema, compiled when first asked for (a file of 2,000
   * operations is not compiled for the few a binding uses); absent when the operation takes no JSON body.
   */
  checkBody?: () => ValidateFunction;
  /** Whether the file marks the body required. */
  bodyRequired: boolean;
  /**
   * The body is a form: which one, and each field's type, so its text values are read as the file's types
   * (a number, a yes/no, a list) before `checkBody` checks them.
   */
  form?: { media: FormMedia; types: Record<string, FormFieldType> };
  /** The query parameters the file documents, each with a checker of its (typed) value. */
  query: QueryParameter[];
  answer: FileAnswer;
  /** For a GET answering a JSON array, bare or inside an envelope: the schema of one record (answer direction). */
  record?: unknown;
  /** Where that array is in the answer: [] bare, ['data'] for `{"data": [...]}`. */
  recordsAt?: string[];
}

export interface ApiFile {
  /** Where it was read from, when it was a file. */
  source?: string;
  spec: Spec;
  /** The document with its schemas in the answer direction: what `sampleOf` resolves `$ref`s against. */
  answerDoc: Obj;
  operations: FileOperation[];
  /** The operation at a bound path (relative to the base URL, as in a binding) and method. */
  find(method: string, boundPath: string): FileOperation | undefined;
  /** Checks a value against a schema of the answer document (tests check what the sandbox sends). */
  checkAnswer(schema: unknown): ValidateFunction;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function specOf(doc: Obj): Spec {
  if (doc.swagger === '2.0') return 'swagger-2.0';
  return typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0';
}

function basePathOf(doc: Obj): string {
  if (typeof doc.basePath === 'string') return doc.basePath;
  const servers = doc.servers;
  const server = Array.isArray(servers) && isObj(servers[0]) ? servers[0] : undefined;
  const variables = isObj(server?.variables) ? server.variables : {};
  // A server URL with variables ({scheme}://{host}/api/{version}) means their defaults.
  const url = (typeof server?.url === 'string' ? server.url : '/').replace(
    /\{([^}]+)\}/g,
    (_, name: string) => {
      const v = variables[name];
      return isObj(v) && typeof v.default === 'string' ? v.default : 'x';
    },
  );
  try {
    return new URL(url, 'http://server.invalid').pathname;
  } catch {
    return '/';
  }
}

/**
 * The key a path is found by: base path and path joined, everything up to and including the first `/api`
 * segment dropped (the environment base URL ends in the API root), parameter names erased.
 */
export function pathKey(path: string): string {
  const full = path.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  const api = /^(?:\/[^/]+)*?\/api(?=\/|$)/.exec(full);
  const rel = api ? full.slice(api[0].length) || '/' : full;
  return rel.replace(/\{[^}/]+\}/g, '{}');
}

const unescape = (s: string) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');

/** Follows local `$ref`s (`#/...`) until a non-reference; external ones were bundled in. */
export function deref(doc: Obj, node: unknown): unknown {
  let at = node;
  for (let hops = 0; isObj(at) && typeof at.$ref === 'string' && hops < 32; hops++) {
    const ref = at.$ref;
    if (!ref.startsWith('#/')) return at;
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) target = isObj(target) ? target[unescape(part)] : undefined;
    at = target;
  }
  return at;
}

const isJson = (media: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(media) || media === '*/*';

function jsonSchemaOf(doc: Obj, content: unknown): unknown {
  if (!isObj(content)) return undefined;
  const media = Object.keys(content).find(isJson);
  const entry = media ? deref(doc, content[media]) : undefined;
  return isObj(entry) ? entry.schema : undefined;
}

/** A text/plain answer's schema where it is text (a create answering its new GUID as plain text). */
function textSchemaOf(doc: Obj, content: unknown): unknown {
  if (!isObj(content)) return undefined;
  const entry = deref(doc, content['text/plain']);
  const schema = isObj(entry) ? entry.schema : undefined;
  const s = deref(doc, schema);
  return isObj(s) && s.type === 'string' ? schema : undefined;
}

function successOf(doc: Obj, spec: Spec, op: Obj): FileAnswer {
  const responses = isObj(op.responses) ? op.responses : {};
  const codes = Object.keys(responses)
    .filter((c) => /^2\d\d$/.test(c))
    .sort();
  const code = codes[0] ?? (responses['2XX'] ? '2XX' : 'default');
  const r = deref(doc, responses[code]);
  const status = /^2\d\d$/.test(code) ? Number(code) : 200;
  if (!isObj(r)) return { status, location: false };
  const headers = isObj(r.headers) ? Object.keys(r.headers).map((h) => h.toLowerCase()) : [];
  const schema = spec === 'swagger-2.0' ? r.schema : jsonSchemaOf(doc, r.content);
  const location = headers.includes('location');
  if (schema === undefined && spec !== 'swagger-2.0') {
    const text = textSchemaOf(doc, r.content);
    if (text !== undefined) return { status, schema: text, location, text: true };
  }
  return { status, schema, location };
}

/** A form field's type: what its text is read as. */
export type FormFieldType =
  | { type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'file' }
  | { type: 'array'; items: FormFieldType };

function fieldType(doc: Obj, schema: unknown): FormFieldType {
  const s = deref(doc, schema);
  if (!isObj(s)) return { type: 'string' };
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (t === 'file' || (t === 'string' && s.format === 'binary')) return { type: 'file' };
  if (t === 'array') return { type: 'array', items: fieldType(doc, s.items) };
  if (t === 'number' || t === 'integer' || t === 'boolean' || t === 'object') return { type: t };
  if (!t && isObj(s.properties)) return { type: 'object' };
  return { type: 'string' };
}

const FORM_TYPES: Record<string, FormMedia> = {
  'application/x-www-form-urlencoded': 'urlencoded',
  'multipart/form-data': 'multipart',
};
const formOf = (t: string) => FORM_TYPES[t.split(';')[0]!.trim().toLowerCase()];

interface Body {
  schema?: unknown;
  required: boolean;
  form?: { media: FormMedia; types: Record<string, FormFieldType> };
}

/**
 * The operation's body: JSON, or a form (Swagger 2.0 `in: formData` parameters, an OpenAPI 3 form request
 * body): its fields as one object schema, a file part a binary string (what the sandbox checks is the
 * part's file name). Urlencoded unless the file offers only multipart or a field is a file: the binding's
 * rule (binding/parse.ts), so both read a file alike.
 */
function bodyOf(doc: Obj, spec: Spec, op: Obj, pathItem: Obj, consumes: unknown): Body {
  if (spec === 'swagger-2.0') {
    const params = [
      ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
      ...(Array.isArray(op.parameters) ? op.parameters : []),
    ].map((p) => deref(doc, p));
    const body = params.find((p) => isObj(p) && p.in === 'body') as Obj | undefined;
    if (body) return { schema: body.schema, required: body.required === true };
    const fields = params.filter((p): p is Obj => isObj(p) && p.in === 'formData' && typeof p.name === 'string');
    if (!fields.length) return { required: false };
    const properties: Obj = {};
    const types: Record<string, FormFieldType> = {};
    for (const p of fields) {
      const own = convertSchema(
        Object.fromEntries(PARAMETER_SCHEMA_KEYS.filter((k) => k in p).map((k) => [k, p[k]])),
        spec,
        'request',
      ) as Obj;
      const isFile = p.type === 'file';
      properties[p.name as string] = isFile ? { type: 'string', format: 'binary' } : own;
      types[p.name as string] = isFile ? { type: 'file' } : fieldType(doc, own);
    }
    const required = fields.filter((p) => p.required === true).map((p) => p.name as string);
    const offered = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(consumes) ? consumes : []).map(String);
    const media = offered.map(formOf).filter(Boolean);
    const hasFile = Object.values(types).some((t) => t.type === 'file');
    const multipart = media.length ? (hasFile ? media.includes('multipart') : !media.includes('urlencoded')) : hasFile;
    return {
      schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
      required: required.length > 0,
      form: { media: multipart ? 'multipart' : 'urlencoded', types },
    };
  }
  const rb = deref(doc, op.requestBody);
  if (!isObj(rb)) return { required: false };
  const json = jsonSchemaOf(doc, rb.content);
  if (json !== undefined || !isObj(rb.content)) return { schema: json, required: rb.required === true };
  const content = rb.content;
  const offered = Object.keys(content).filter(formOf);
  const at = (m: FormMedia) => offered.find((t) => formOf(t) === m);
  const chosen = at('urlencoded') ?? at('multipart');
  const entry = chosen ? deref(doc, content[chosen]) : undefined;
  const schema = isObj(entry) ? deref(doc, entry.schema) : undefined;
  if (!isObj(schema)) return { required: rb.required === true };
  const types: Record<string, FormFieldType> = {};
  for (const [name, p] of Object.entries(isObj(schema.properties) ? schema.properties : {})) types[name] = fieldType(doc, p);
  const hasFile = Object.values(types).some((t) => t.type === 'file');
  const media: FormMedia = hasFile ? (at('multipart') ? 'multipart' : 'urlencoded') : at('urlencoded') ? 'urlencoded' : 'multipart';
  return { schema, required: rb.required === true, form: { media, types } };
}

/** Swagger 2.0 writes a non-body parameter's schema on the parameter itself. */
const PARAMETER_SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'x-nullable',
];

const paramsOf = (o: unknown): unknown[] => (isObj(o) && Array.isArray(o.parameters) ? o.parameters : []);

function queryOf(
  doc: Obj,
  spec: Spec,
  op: Obj,
  pathItem: Obj,
): { name: string; required: boolean; schema: unknown }[] {
  const byKey = new Map<string, Obj>();
  for (const raw of [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ]) {
    const p = deref(doc, raw);
    if (isObj(p) && p.in === 'query' && typeof p.name === 'string') byKey.set(p.name, p);
  }
  return [...byKey.values()].map((p) => ({
    name: p.name as string,
    required: p.required === true,
    schema:
      spec === 'swagger-2.0'
        ? convertSchema(
            Object.fromEntries(PARAMETER_SCHEMA_KEYS.filter((k) => k in p).map((k) => [k, p[k]])),
            spec,
            'request',
          )
        : (p.schema ?? {}),
  }));
}

function makeAjv(spec: Spec): Ajv {
  // A format the sandbox does not know (a vendor's own "date-time-offset") is not checked, silently: files
  // carry many, and a stand-in that logged each would bury its own output.
  const options = {
    strict: false,
    allErrors: true,
    validateSchema: false,
    validateFormats: true,
    logger: false,
  } as const;
  const ajv = spec === 'openapi-3.1' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  // OpenAPI's own formats: the numeric ones say how big the number may be; the others are opaque text.
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  for (const f of ['float', 'double', 'decimal']) ajv.addFormat(f, { type: 'number', validate: () => true });
  for (const [f, bits] of [
    ['int8', 7],
    ['int16', 15],
  ] as const)
    ajv.addFormat(f, {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** bits,
    });
  // .NET files write a GUID's format as "guid".
  ajv.addFormat('guid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  for (const f of ['byte', 'binary', 'password']) ajv.addFormat(f, true);
  return ajv;
}

/** A schema of a converted document, compiled with the document's definitions reachable by its `$ref`s. */
function compiler(ajv: Ajv, doc: Obj) {
  const roots: Obj = {};
  if (doc.definitions) roots.definitions = doc.definitions;
  if (doc.components) roots.components = doc.components;
  return (schema: unknown, where = 'a schema') => {
    try {
      return ajv.compile({ allOf: [schema], ...roots });
    } catch (e) {
      throw new ApiFileError(
        `${where} of the API file cannot be used to check bodies: ${(e as Error).message}`,
      );
    }
  };
}

/** The customer's file cannot be read as Swagger 2.0 or OpenAPI 3.x: one message naming the file and the place. */
export class ApiFileError extends Error {
  override name = 'ApiFileError';
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The array of records in a list answer: the answer itself, or the nearest array member of its envelope. */
function listIn(doc: Obj, schema: unknown): { items: unknown; at: string[] } | undefined {
  let level: { s: unknown; at: string[] }[] = [{ s: schema, at: [] }];
  for (let depth = 0; depth < 3 && level.length; depth++) {
    const next: typeof level = [];
    for (const { s, at } of level) {
      const d = deref(doc, s);
      if (!isObj(d)) continue;
      const types = Array.isArray(d.type) ? d.type : [d.type];
      if (types.includes('array') && d.items !== undefined) return { items: d.items, at };
      if (isObj(d.properties))
        for (const [k, p] of Object.entries(d.properties)) next.push({ s: p, at: [...at, k] });
    }
    level = next;
  }
  return undefined;
}

/** Reads and checks the file (swagger-parser), then prepares every operation. */
export async function loadApiFile(source: string | Obj): Promise<ApiFile> {
  let raw: Obj;
  try {
    // YAML merge keys resolved and OpenAPI 3.2 read as 3.1 (its dialect), as the importer reads the file.
    raw = (
      typeof source === 'string'
        ? await SwaggerParser.bundle(source, (await readApiDocument(source)).doc as never, {})
        : await SwaggerParser.bundle(structuredClone(source) as never)
    ) as unknown as Obj;
  } catch (e) {
    const name = typeof source === 'string' ? source : 'the API file';
    // The parser's first line names the place (line:column); the snippet under it is for a terminal.
    const first = (e as Error).message.split('\n')[0]!.trim();
    throw new ApiFileError(`${name} is not a readable Swagger 2.0 or OpenAPI 3 file: ${first}`);
  }
  const spec = specOf(raw);
  const base = basePathOf(raw);
  const requestDoc = convertDocument(raw, spec, 'request');
  const answerDoc = convertDocument(raw, spec, 'answer');
  const requestCompile = compiler(makeAjv(spec), requestDoc);
  const answerCompile = compiler(makeAjv(spec), answerDoc);
  const operations: (FileOperation & { key: string })[] = [];
  for (const [path, item] of Object.entries(isObj(answerDoc.paths) ? answerDoc.paths : {})) {
    if (!isObj(item)) continue;
    const requestItem = (requestDoc.paths as Obj)[path] as Obj;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const body = bodyOf(requestDoc, spec, requestItem[method] as Obj, requestItem, requestDoc.consumes);
      const query = queryOf(requestDoc, spec, requestItem[method] as Obj, requestItem).map((q) => {
        const s = deref(requestDoc, q.schema);
        const t = isObj(s) ? (Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type) : undefined;
        const where = `the query parameter ${q.name} of ${method.toUpperCase()} ${path}`;
        return {
          name: q.name,
          required: q.required,
          type: typeof t === 'string' ? t : 'string',
          check: once(() => requestCompile(q.schema, where)),
        };
      });
      const answer = successOf(answerDoc, spec, op);
      const list = method === 'get' && answer.schema ? listIn(answerDoc, answer.schema) : undefined;
      operations.push({
        // The path as the importer binds it: a version inside a segment filled with its fixed value.
        key: `${method.toUpperCase()} ${pathKey(`/${base}/${fixedPath(path, [...paramsOf(requestItem), ...paramsOf(requestItem[method])], (p) => deref(requestDoc, p)).path}`)}`,
        method: method.toUpperCase(),
        path,
        operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
        deprecated: op.deprecated === true,
        checkBody:
          body.schema === undefined
            ? undefined
            : once(() => requestCompile(body.schema, `the request body of ${method.toUpperCase()} ${path}`)),
        bodyRequired: body.required,
        ...(body.form ? { form: body.form } : {}),
        query,
        answer,
        record: list?.items,
        recordsAt: list?.at,
      });
    }
  }
  return {
    source: typeof source === 'string' ? source : undefined,
    spec,
    answerDoc,
    operations,
    find: (method, boundPath) => {
      const key = `${method.toUpperCase()} ${pathKey(boundPath)}`;
      return operations.find((o) => o.key === key);
    },
    checkAnswer: (schema) => answerCompile(schema),
  };
}
