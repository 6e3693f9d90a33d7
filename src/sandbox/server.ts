import { setTimeout as delay } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  catalog as defaultCatalog,
  createCatalog,
  formMediaOf,
  isJsonMediaType,
  readForm,
  type Catalog,
  type Dataset,
  type Operation,
} from '../catalog';
import type { Binding } from '../catalog/binding';
import { SANDBOX_GAP_MEMBER, type SandboxGap } from '../contracts/sandbox-gap';
import { PATH_GUID_FIELD, type BoundDataset, type BoundOperation } from '../catalog/placement';
import {
  answerFor,
  checkedView,
  decodeRequest,
  formValues,
  FormWire,
  envelopeOf,
  listsFor,
  bindingProblems,
  definitionTypes,
  recordEncoder,
  recordTemplate,
  type RecordShape,
  type Reply,
} from './bound';
import { checkBody, checkQuery } from './file/check';
import { loadApiFile, type ApiFile, type FileOperation } from './file/document';
import { bindingFile } from './file/source';
import { createAdmin, registerAdminRoutes, type SandboxAdmin } from './admin';
import { authenticate, mayCall } from './auth';
import { seedOf } from './data/random';
import { MAX_SCALE, MIN_SCALE } from './data/sizes';
import { answerOf, ERRORS, failure, rejected, type ErrorName, type Outcome } from './errors';
import { FaultPlan, type FaultsInput } from './faults';
import { jsonArrayStream } from './json-stream';
import { buildKeys, demoKey, type ApiKey, type Environment, type KeySpec } from './keys';
import type { WriteHandler } from './rules/context';
import { HANDLERS } from './rules';
import { Store } from './store';

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  environment?: Environment;
  /** Number of risks; other datasets are proportional. */
  scale?: number;
  seed?: number | string;
  /** Keys as in a keys file; without them a demo key is made. */
  keys?: KeySpec[];
  faults?: FaultsInput;
  /**
   * A binding (what `grc-sheets binding import` writes from a Swagger file): the sandbox answers at its
   * paths with its property names and refuses a body that lacks a property it requires, as that service would.
   */
  binding?: Binding;
  /**
   * The customer's API file the binding was imported from (a path, or one already read): bodies are checked
   * against its schemas, answers take its documented shape, records have its properties. When not given, the
   * binding's `source.file` is read if it is there unchanged (same sha256).
   */
  apiFile?: string | ApiFile;
  /** The catalogue to serve; made from `binding` when not given, the default catalogue otherwise. */
  catalog?: Catalog;
  /** The clock (key expiry, today's date); tests pass a fixed one. */
  now?: () => Date;
}

export interface Sandbox {
  /** The environment's base URL, `http://host:port/api`. */
  url: string;
  port: number;
  environment: Environment;
  close(): Promise<void>;
  admin: SandboxAdmin;
  store: Store;
  /** The customer's API file bodies are checked against (its path), when there is one. */
  apiFile?: string;
  /** Identifier and password of the demo key, when no keys were given. */
  demoKey?: { identifier: string; password: string };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const API_ROOT = '/api';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const environment = options.environment ?? 'ACC';
  const scale = options.scale ?? 1000;
  if (!Number.isInteger(scale) || scale < MIN_SCALE || scale > MAX_SCALE)
    throw new RangeError(`scale must be a whole number from ${MIN_SCALE} to ${MAX_SCALE}, got ${scale}`);
  const now = options.now ?? (() => new Date());
  const cat = options.catalog ?? (options.binding ? createCatalog(options.binding) : defaultCatalog);
  const demo = options.keys ? undefined : demoKey(environment, now());
  const keys = new Map<string, ApiKey>(buildKeys(options.keys ?? [demo]).map((k) => [k.identifier, k]));
  const store = new Store(seedOf(options.seed ?? 1), scale);
  const apiSource = options.apiFile ?? (options.binding ? bindingFile(options.binding) : undefined);
  const apiFile = typeof apiSource === 'string' ? await loadApiFile(apiSource) : apiSource;
  const fileOps = new Map<string, FileOperation | undefined>();
  /** The file's operation behind a bound endpoint (its method and path), looked up once. */
  const fileOpOf = (ep: Dataset | Operation) => {
    if (!apiFile || !ep.binding) return undefined;
    if (!fileOps.has(ep.id)) fileOps.set(ep.id, apiFile.find(ep.method, ep.path));
    return fileOps.get(ep.id);
  };
  const templates = new Map<string, RecordShape | undefined>();
  // The bound operations' checkers are made now, so a schema ajv cannot use stops the start, not a request.
  for (const ep of cat.operations) {
    const op = fileOpOf(ep);
    op?.checkBody?.();
    for (const q of op?.query ?? []) q.check();
  }
  const plan = new FaultPlan(options.faults);
  const admin = createAdmin(keys, plan, environment);

  const app = Fastify({
    logger: false,
    bodyLimit: 10 * 1024 * 1024,
    requestTimeout: 120_000,
    forceCloseConnections: true,
  });
  // An empty body is fine (the workflow advance has none); invalid JSON is a 400 in the service's format.
  // The service's rule for JSON bodies, shared with the relay (catalog/json-body); a form is read here and
  // taken only where the customer's file takes one (runOperation); anything else is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, raw, done) => {
    const type = req.headers['content-type'];
    const bytes = raw as Buffer;
    const form = formMediaOf(type);
    if (form) {
      const read = readForm(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), type);
      if (!read.ok)
        return done(Object.assign(new Error(`The form body is not valid: ${read.message}.`), { statusCode: 400 }), undefined);
      return done(null, new FormWire(form, read.fields));
    }
    if (!isJsonMediaType(type))
      return done(
        Object.assign(new Error(`Unsupported Media Type: ${type ?? '(none)'}`), { statusCode: 415 }),
        undefined,
      );
    if (!bytes.length) return done(null, undefined);
    try {
      done(null, JSON.parse(bytes.toString('utf8')));
    } catch (e) {
      done(
        Object.assign(new Error(`The request body is not valid JSON: ${(e as Error).message}`), {
          statusCode: 400,
        }),
        undefined,
      );
    }
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    const message =
      status === 413
        ? ERRORS.tooLarge.message
        : status === 500
          ? 'Internal error in the sandbox.'
          : err.message;
    return reply.code(status).type(JSON_TYPE).send({ message });
  });
  app.setNotFoundHandler((_req, reply) =>
    reply.code(404).type(JSON_TYPE).send({ message: ERRORS.notFound.message, [SANDBOX_GAP_MEMBER]: 'no-route' }),
  );
  registerAdminRoutes(app, admin, store);

  const send = (reply: FastifyReply, outcome: Outcome) => {
    const a = answerOf(outcome);
    return reply.code(a.status).type(JSON_TYPE).send(a.body);
  };
  /** A 404 about the sandbox itself (contracts/sandbox.ts), not about the service it stands in for. */
  const sendGap = (reply: FastifyReply, gap: SandboxGap, message: string) =>
    reply.code(404).type(JSON_TYPE).send({ message, [SANDBOX_GAP_MEMBER]: gap });
  const sendError = (reply: FastifyReply, name: ErrorName, message?: string) => {
    if (name === 'invalidCredentials')
      reply.header('www-authenticate', 'Basic realm="Risk and Controls Management Service"');
    return send(reply, failure(name, message));
  };

  app.all(`${API_ROOT}/*`, async (req, reply) => {
    const rawPath = (req.raw.url ?? '').split('?')[0]!.slice(API_ROOT.length);
    const m = cat.match(req.method, rawPath);
    if (!m.ok) {
      if (m.reason === 'not-found') return sendGap(reply, 'no-route', ERRORS.notFound.message);
      reply.header('allow', m.allow.join(', '));
      return sendError(reply, 'methodNotAllowed');
    }
    const f = plan.current;
    if (f.latencyMs) await delay(f.latencyMs);
    // A 503 or 429 comes before anything is done; a drop comes after the work is committed.
    const fault = plan.next();
    if (fault === 'unavailable' || fault === 'rate-limited') {
      reply.header('retry-after', String(f.retryAfterSeconds));
      return sendError(reply, fault === 'unavailable' ? 'unavailable' : 'rateLimited');
    }
    const auth = authenticate(
      req.headers.authorization,
      req.socket.remoteAddress ?? '',
      keys,
      environment,
      now(),
    );
    if (!auth.ok) return sendError(reply, auth.error);
    if (!mayCall(auth.key, m.endpoint.access)) return sendError(reply, 'forbidden');
    const ep = m.endpoint;
    const params = m.params as Readonly<Record<string, string | undefined>>;
    if (ep.kind === 'dataset')
      return serveDataset(ep, catalogueGuid(ep.binding, params), reply, fault === 'drop');
    return runOperation(ep, req, auth.key, params, rawPath, reply, fault === 'drop');
  });

  function serveDataset(ep: Dataset, guid: string | undefined, reply: FastifyReply, drop: boolean) {
    if (!store.has(ep.id))
      return sendGap(
        reply,
        'no-data',
        `Not found. This practice sandbox has no data for "${ep.title}": only your own service has it.`,
      );
    let filter: ((r: Record<string, unknown>) => boolean) | undefined;
    if (guid) {
      const g = guid.toLowerCase();
      // Parameterised datasets: results of one form, samples of one test plan.
      const owner =
        ep.id === 'formresults'
          ? store.ctx.st.forms.find((x) => x.Id === g)
          : store.find('controltestplan', g);
      if (!owner)
        return sendError(
          reply,
          'notFound',
          `No ${ep.id === 'formresults' ? 'form' : 'control test plan'} with GUID ${guid}.`,
        );
      const key = ep.id === 'formresults' ? 'FormId' : 'TestPlanId';
      filter = (r) => r[key] === g;
    }
    const records = store.records(ep.id);
    const shown = filter ? filterIterator(records, filter) : records;
    // The store keeps catalogue-shaped records; a bound sandbox shows them as the customer's file has them:
    // its properties (every one it documents), its names and encodings, inside its envelope.
    const bound = ep.binding as BoundDataset | undefined;
    if (bound && !templates.has(ep.id)) templates.set(ep.id, recordTemplate(apiFile, fileOpOf(ep), ep.id));
    const shape = templates.get(ep.id);
    const encode = bound
      ? recordEncoder(
          bound,
          store,
          shape?.template,
          shape?.idAt,
          shape?.texts,
          shape?.notNull,
          shape?.variants,
          // Without the file, a binding that places nothing in the record knows no more than a bare object.
          shape ? shape.open : !bound.placements.some((p) => p.in === 'body'),
        )
      : undefined;
    const stream = jsonArrayStream(
      encode ? mapIterator(shown, (r) => encode(r as Record<string, unknown>)) : shown,
      bound ? envelopeOf(recordsPointer(fileOpOf(ep)?.recordsAt) ?? bound.records) : undefined,
    );
    if (drop) return dropStream(reply, stream);
    return reply.code(200).type(JSON_TYPE).send(stream);
  }

  function runOperation(
    ep: Operation,
    req: FastifyRequest,
    key: ApiKey,
    params: Readonly<Record<string, string | undefined>>,
    rawPath: string,
    reply: FastifyReply,
    drop: boolean,
  ) {
    const bound = ep.binding as BoundOperation | undefined;
    const fileOp = fileOpOf(ep);
    // A form where the file takes one (as its types), JSON where it takes JSON: anything else is a 415.
    const form = fileOp?.form?.media ?? bound?.form;
    const sent = req.body instanceof FormWire ? req.body.media : req.body === undefined ? undefined : 'json';
    if (sent !== undefined && sent !== (form ?? 'json'))
      return reply
        .code(415)
        .type(JSON_TYPE)
        .send({ message: `Unsupported Media Type: this operation takes ${form ? `a ${form} form` : 'JSON'}.` });
    const wire = req.body instanceof FormWire ? formValues(req.body, fileOp?.form?.types ?? {}) : req.body;
    // First what the customer's file says about the body (its own schemas), then the spec's rules on the
    // catalogue's values read back from it.
    const query = new URLSearchParams((req.raw.url ?? '').split('?')[1] ?? '');
    const shapeProblems = fileOp
      ? [...checkQuery(fileOp, query), ...checkBody(fileOp, req.body instanceof FormWire ? checkedView(wire as Record<string, unknown>) : wire)]
      : bound
        ? bindingProblems(bound, wire)
        : [];
    if (shapeProblems.length) return send(reply, rejected(shapeProblems, 'The request body is not valid.'));
    let guid = params.guid;
    let incoming = wire;
    if (bound) {
      const decoded = decodeRequest(
        bound,
        wire,
        params,
        query,
        listsFor(store, bound),
        definitionTypes(store),
      );
      guid = decoded.guid;
      incoming = ep.body ? withoutNulls(ep.body, decoded.body) : undefined;
    }
    let body: unknown;
    if (ep.body) {
      const parsed = ep.body.safeParse(incoming);
      if (!parsed.success)
        return send(
          reply,
          rejected(
            parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message })),
            'The request body is not valid.',
          ),
        );
      body = parsed.data;
    }
    const handler = HANDLERS[ep.id] as WriteHandler<unknown> | undefined;
    const outcome: Outcome = handler ? handler({ store, key, guid, body, now: now() }) : failure('notFound');
    if (outcome.kind !== 'ok') {
      if (!drop) return send(reply, outcome);
      const a = answerOf(outcome);
      return dropText(reply, a.status, JSON.stringify(a.body));
    }
    const answer: Reply = bound
      ? answerFor(apiFile, fileOp, bound, outcome.body, outcome.status, `${API_ROOT}${rawPath}`, guid)
      : { status: outcome.status, body: outcome.body };
    const made = answer.location ?? JSON.stringify(outcome.body);
    store.received.push({
      endpoint: ep.id,
      method: ep.method,
      path: rawPath,
      query: query.toString(),
      body: wire,
      id: idIn(outcome.body) ?? guid,
    });
    if (answer.location) reply.header('location', answer.location);
    if (drop)
      return dropText(reply, answer.status, answer.body === undefined ? made : JSON.stringify(answer.body));
    if (answer.body === undefined) return reply.code(answer.status).send();
    if (answer.text) return reply.code(answer.status).type('text/plain; charset=utf-8').send(String(answer.body));
    // A bare GUID answer is a JSON string ("..."), as ASP.NET writes it; Fastify would send a string as it is.
    const payload = typeof answer.body === 'string' ? JSON.stringify(answer.body) : answer.body;
    return reply.code(answer.status).type(JSON_TYPE).send(payload);
  }

  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}${API_ROOT}`,
    port,
    environment,
    close: () => app.close(),
    admin,
    store,
    apiFile: apiFile ? (apiFile.source ?? 'the given API file') : undefined,
    demoKey: demo && { identifier: demo.identifier, password: demo.password },
  };
}

/** The catalogue's own path parameter of a bound endpoint, wherever the file names it. */
function catalogueGuid(
  bound: BoundDataset | BoundOperation | undefined,
  params: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const at = bound?.placements.find((p) => p.in === 'path' && p.field === PATH_GUID_FIELD)?.at;
  return (at ? params[at] : undefined) ?? params.guid;
}

/**
 * A file may send null for "no value" where the catalogue's field is optional but not nullable (an OpenAPI
 * 3.1 `[string, null]` description): such a null is read as absent. Fields that take null (a v2 full update
 * clearing a value) keep it.
 */
function withoutNulls(schema: z.ZodType, body: Record<string, unknown>): Record<string, unknown> {
  if (!(schema instanceof z.ZodObject)) return body;
  const shape = schema.shape as Record<string, z.ZodType>;
  const out = { ...body };
  for (const [k, v] of Object.entries(body))
    if (v === null && shape[k] && !shape[k].safeParse(null).success) delete out[k];
  return out;
}

/** A path of member names as a JSON pointer. */
function recordsPointer(at: string[] | undefined): string | undefined {
  return at && at.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function idIn(body: unknown): string | undefined {
  return isPlainObject(body) && typeof body.Id === 'string' ? body.Id : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function* mapIterator<T, U>(items: Iterable<T>, map: (t: T) => U): Generator<U> {
  for (const t of items) yield map(t);
}

function* filterIterator<T>(items: Iterable<T>, keep: (t: T) => boolean): Generator<T> {
  for (const t of items) if (keep(t)) yield t;
}

/** Writes the first half of the text (at least a character), then breaks the connection. */
function writeHalfAndCut(res: FastifyReply['raw'], text: string) {
  res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))), () => res.socket?.destroy());
}

/** Sends the status, headers and half of the body, then breaks the connection: the caller cannot know the outcome. */
function dropText(reply: FastifyReply, status: number, text: string) {
  reply.hijack();
  reply.raw.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
  writeHalfAndCut(reply.raw, text);
}

/** The same for a dataset: half of its first chunk, so the download breaks mid-body. */
function dropStream(reply: FastifyReply, stream: Readable) {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': JSON_TYPE });
  stream.once('data', (chunk: Buffer | string) => {
    stream.destroy();
    writeHalfAndCut(reply.raw, chunk.toString());
  });
}
