import { setTimeout as delay } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  catalog as defaultCatalog,
  createCatalog,
  isJsonMediaType,
  type Catalog,
  type Dataset,
  type Operation,
} from '../catalog';
import type { Binding } from '../catalog/binding';
import { fromWire, missingRequired, toWire, type WireShape } from '../catalog/wire';
import { isGuid } from '../catalog/fields';
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
  const plan = new FaultPlan(options.faults);
  const admin = createAdmin(keys, plan);

  const app = Fastify({
    logger: false,
    bodyLimit: 10 * 1024 * 1024,
    requestTimeout: 120_000,
    forceCloseConnections: true,
  });
  // An empty body is fine (the workflow advance has none); invalid JSON is a 400 in the service's format.
  // The service's rule for JSON bodies, shared with the relay (catalog/json-body): anything else is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const type = req.headers['content-type'];
    if (!isJsonMediaType(type))
      return done(
        Object.assign(new Error(`Unsupported Media Type: ${type ?? '(none)'}`), { statusCode: 415 }),
        undefined,
      );
    if (!body) return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
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
    reply.code(404).type(JSON_TYPE).send({ message: ERRORS.notFound.message }),
  );
  registerAdminRoutes(app, admin, store);

  const send = (reply: FastifyReply, outcome: Outcome) => {
    const a = answerOf(outcome);
    return reply.code(a.status).type(JSON_TYPE).send(a.body);
  };
  const sendError = (reply: FastifyReply, name: ErrorName, message?: string) => {
    if (name === 'invalidCredentials')
      reply.header('www-authenticate', 'Basic realm="Risk and Controls Management Service"');
    return send(reply, failure(name, message));
  };

  app.all(`${API_ROOT}/*`, async (req, reply) => {
    const rawPath = (req.raw.url ?? '').split('?')[0]!.slice(API_ROOT.length);
    const m = cat.match(req.method, rawPath);
    if (!m.ok) {
      if (m.reason === 'method-not-allowed') reply.header('allow', m.allow.join(', '));
      return sendError(reply, m.reason === 'not-found' ? 'notFound' : 'methodNotAllowed');
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
    if (ep.kind === 'dataset') return serveDataset(ep, m.params.guid, reply, fault === 'drop');
    return runOperation(ep, req, auth.key, m.params.guid, reply, fault === 'drop');
  });

  function serveDataset(ep: Dataset, guid: string | undefined, reply: FastifyReply, drop: boolean) {
    if (!store.has(ep.id)) return sendError(reply, 'notFound');
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
    // The store keeps catalogue-shaped records; a bound sandbox shows them with the file's property names.
    const shape = ep.binding?.record;
    const stream = jsonArrayStream(
      shape ? mapIterator(shown, (r) => toWire(shape, r as Record<string, unknown>)) : shown,
    );
    if (drop) return dropStream(reply, stream);
    return reply.code(200).type(JSON_TYPE).send(stream);
  }

  function runOperation(
    ep: Operation,
    req: FastifyRequest,
    key: ApiKey,
    guid: string | undefined,
    reply: FastifyReply,
    drop: boolean,
  ) {
    let body: unknown;
    if (ep.body) {
      let incoming = req.body;
      const shape = ep.binding?.body;
      if (shape) {
        const isObject = typeof incoming === 'object' && incoming !== null && !Array.isArray(incoming);
        const missing = isObject ? missingRequired(shape, incoming as Record<string, unknown>) : ['(body)'];
        if (missing.length)
          return send(
            reply,
            rejected(
              missing.map((field) => ({ field, message: 'The field is required.' })),
              'The request body is not valid.',
            ),
          );
        incoming = fromWire(shape, incoming as Record<string, unknown>);
        const notGuids = notGuidFields(shape, incoming as Record<string, unknown>);
        if (notGuids.length)
          return send(
            reply,
            rejected(
              notGuids.map((field) => ({ field, message: 'The value is not a valid GUID.' })),
              'The request body is not valid.',
            ),
          );
      }
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
    let outcome: Outcome = handler ? handler({ store, key, guid, body, now: now() }) : failure('notFound');
    const answerShape = ep.binding?.answer;
    if (answerShape && outcome.kind === 'ok' && isPlainObject(outcome.body))
      outcome = { ...outcome, body: toWire(answerShape, outcome.body) };
    if (!drop) return send(reply, outcome);
    const a = answerOf(outcome);
    return dropText(reply, a.status, JSON.stringify(a.body));
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
    demoKey: demo && { identifier: demo.identifier, password: demo.password },
  };
}

/** Wire paths whose bound format is uuid and whose value (or an element of it) is not a GUID: the file's service refuses them. */
function notGuidFields(shape: WireShape, value: Record<string, unknown>): string[] {
  const bad: string[] = [];
  for (const [field, format] of Object.entries(shape.formats)) {
    const to = shape.properties[field];
    if (format !== 'uuid' || typeof to !== 'string') continue;
    const v = value[field];
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => x !== undefined && x !== null && !(typeof x === 'string' && isGuid(x))))
      bad.push(to);
  }
  return bad;
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
