import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { DestinationStream } from 'pino';
import type { Catalog } from '../catalog';
import { ENVIRONMENTS_PATH, RELAY_ERROR_HEADER, type EnvironmentView } from '../contracts/environments';
import { environmentFrom, type Environment } from '../environment/environment';
import { BindingFileError, loadBinding } from '../binding/load';
import { createBodyBudget } from './body-budget';
import { parseRelayConfig, RelayConfigError, type RelayConfig, type RelayConfigInput } from './config';
import { configFileProblems } from './config-files';
import { fixedJson } from './compress';
import { corsMethods, createCors } from './cors';
import { JWKS_PATH, STATEMENTS_PATH } from '../contracts/evidence';
import { createEvidence, type Evidence } from './evidence';
import { errorBody, RELAY_ERRORS, sendError, type RelayErrorCode } from './errors';
import { createRelayLogger } from './log';
import { Forwarding } from './forward';
import type { CallLog } from './log';
import { proxy, type ProxyDeps } from './proxy';
import { memoisedMatch } from './match-memo';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import { createStaticFiles, type StaticFiles } from './static-files';
import { unavailableMatcher } from './unavailable';
import { createUpstream, type Upstream } from './upstream';
import { AUTH_CONFIG_PATH, ME_PATH, SIGN_OUT_PATH, type AuthConfig } from '../contracts/identity';
import type { TokenStats } from '../identity/token-check';
import { HeldKeyError, HeldKeys } from './held-keys';
import { PolicyFile, policyVocabulary } from './policy-file';
import { createSignIn, type SignIn } from './signed-in';
import { environmentRoutes } from './environment-routes';

export interface Relay {
  /** Where the relay listens, e.g. `http://127.0.0.1:8443`. */
  url: string;
  port: number;
  /** Stops accepting, lets calls in flight finish (up to `graceMs`, default limits.shutdownGraceMs), then closes everything. */
  close(graceMs?: number): Promise<void>;
  /** Re-reads the held keys and the policy, as SIGHUP does. */
  reload(): void;
  /** Token checks so far (discovery and JWKS fetches, verifications, cache hits), with sign-in configured. */
  signInStats?: TokenStats;
}

export interface RelayOptions {
  /** Where log lines go (one JSON object a line); stdout when not given. */
  logDestination?: DestinationStream;
  /** The relay's clock (ms), for token expiry and key expiry; Date.now when not given. */
  now?: () => number;
  /** Where held keys named by `env` or `credential` are read; process.env when not given. */
  processEnv?: NodeJS.ProcessEnv;
}

/**
 * Loaded only by a relay that shares its limit: ioredis adds about 5 MB to every relay that loads it. A
 * require() rather than import(): bin/grc-sheets.js registers tsx for require() only (see cli/main.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sharedRateLimiter = (): typeof import('./shared-rate-limit') => require('./shared-rate-limit');

/** API answers are private data: never cached, never sniffed, never framed. */
const API_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const HEALTHY = JSON.stringify({ status: 'ok' });

/**
 * /healthz of a relay holding keys: still 200 (the relay serves), `warn` while a key expires soon or cannot
 * be read. The keys themselves (fingerprint, expiry) only where the configuration says so: anyone may ask.
 */
function keysHealth(keys: HeldKeys, showKeys: boolean): string {
  const health = keys.health();
  const warn = Object.values(health).some((h) => h.status !== 'ok');
  return JSON.stringify({ status: warn ? 'warn' : 'ok', ...(showKeys ? { keys: health } : {}) });
}

/**
 * Answers a refusal the HTTP server raises before there is a request object (bad framing, CONNECT), in the
 * relay's error format; `extraHeaders` are whole header lines (CORS, when the Origin could be read).
 */
function refuseRaw(
  socket: Duplex,
  status: number,
  code: RelayErrorCode,
  message?: string,
  extraHeaders = '',
): void {
  if (socket.writable) {
    const body = errorBody(code, message);
    const reason = status === 405 ? 'Method Not Allowed' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n${RELAY_ERROR_HEADER}: ${code}\r\n${extraHeaders}content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export async function startRelay(
  input: RelayConfigInput | RelayConfig,
  options: RelayOptions = {},
): Promise<Relay> {
  const config = parseRelayConfig(input);
  const missing = configFileProblems(config);
  if (missing.length)
    throw new RelayConfigError(`the relay configuration names files it cannot use:\n${missing.join('\n')}`);
  const relayLogger = createRelayLogger(config.logLevel, options.logDestination);
  const logger = relayLogger.logger;
  // Each environment has its own catalogue: ACC may already have a newer Swagger file than PRD.
  const views: EnvironmentView[] = [];
  const matchers = new Map<string, Catalog['match']>();
  const catalogs: Catalog[] = [];
  const lacking = new Map<string, ReturnType<typeof unavailableMatcher>>();
  for (const [name, env] of Object.entries(config.environments)) {
    let environment: Environment;
    try {
      const binding = env.binding ? loadBinding(env.binding) : null;
      environment = environmentFrom({ name, binding, production: env.production, egressIp: config.egressIp ?? null });
    } catch (e) {
      if (e instanceof BindingFileError)
        throw new RelayConfigError(`environments.${name}.binding: ${e.message}`);
      throw new RelayConfigError(`environments.${name}.binding (${env.binding}): ${(e as Error).message}`);
    }
    const { catalog } = environment;
    catalogs.push(catalog);
    matchers.set(name, memoisedMatch(catalog));
    lacking.set(name, unavailableMatcher(catalog));
    views.push(environment.view);
  }
  const upstreams = new Map<string, Upstream>(
    Object.entries(config.environments).map(([name, env]) => [
      name,
      createUpstream(name, env, config.limits.upstreamTimeoutMs),
    ]),
  );
  const scheme = config.tls ? 'https' : 'http';
  const cors = createCors(config.allowedOrigins, scheme, corsMethods(catalogs));
  // First of what the relay starts: a signing key it cannot use stops it before anything else is open.
  let evidence: Evidence;
  try {
    evidence = createEvidence(config, logger, () => policy, options.processEnv ?? process.env, options.now);
  } catch (e) {
    if (e instanceof HeldKeyError) throw new RelayConfigError(e.message);
    throw e;
  }
  await evidence.ready;
  const { store, ...rate } = config.limits.rateLimit;
  const limiter: RateLimiter = store
    ? sharedRateLimiter().createSharedRateLimiter(rate, store, logger)
    : createRateLimiter(rate);
  await limiter.ready;
  const anyKey = Object.values(config.environments).some((e) => e.key);
  const keys = anyKey
    ? new HeldKeys(config, logger, config.keyExpiryWarningDays, options.processEnv ?? process.env, options.now)
    : null;
  const keyProblems = keys?.loadAll() ?? [];
  if (keyProblems.length)
    throw new RelayConfigError(`the relay cannot use the keys it is told to hold:\n${keyProblems.join('\n')}`);
  const policy = config.policy
    ? PolicyFile.load(
        config.policy,
        policyVocabulary(new Map(Object.entries(config.environments).map(([n, e]) => [n, e.production])), catalogs),
        logger,
      )
    : null;
  const personLimiter: RateLimiter | null = config.identity
    ? store
      ? sharedRateLimiter().createSharedRateLimiter(config.limits.rateLimitPerPerson, store, logger)
      : createRateLimiter(config.limits.rateLimitPerPerson)
    : null;
  await personLimiter?.ready;
  const signIn: SignIn | null =
    config.identity && keys && policy && personLimiter
      ? await createSignIn({ config, keys, policy, personLimiter, logger, now: options.now })
      : null;
  const authConfig = fixedJson(
    JSON.stringify(signIn?.authConfig ?? ({ personalKeys: config.personalKeys, signIn: null } satisfies AuthConfig)),
  );
  const environments = environmentRoutes(views, signIn, config.personalKeys);
  const files: StaticFiles | null = config.staticDir
    ? await createStaticFiles(config.staticDir, signIn?.providerOrigins ?? [])
    : null;
  const deps: ProxyDeps = {
    match: (env, method, rawPath) => matchers.get(env)!(method, rawPath),
    unavailable: (env, method, rawPath) => lacking.get(env)!(method, rawPath),
    upstreams,
    bodyLimit: config.limits.bodyBytes,
    bodyBudget: createBodyBudget(config.limits.bufferedBodyBytes, config.limits.bufferedBodyBytesPerAddress),
    bodyIdleMs: config.limits.bodyTimeoutMs,
    timeoutMs: config.limits.upstreamTimeoutMs,
    clientWriteTimeoutMs: config.limits.clientWriteTimeoutMs,
    clientStallUnderLoadMs: config.limits.clientStallUnderLoadMs,
    inFlight: new Map(),
    inFlightLimit: config.limits.callsInFlightPerAddress,
    ...(signIn ? { signIn } : {}),
    personalKeys: config.personalKeys,
    ...(config.evidence.enabled ? { evidence } : {}),
  };
  const reload = (reason: string) => {
    keys?.reload(reason);
    policy?.reload(reason);
    evidence.reload(reason);
  };
  const onHangUp = () => reload('SIGHUP');
  evidence.start();
  // Only a relay with something to re-read takes SIGHUP over from Node (whose default is to stop).
  if (keys || policy || config.evidence.key) {
    process.on('SIGHUP', onHangUp);
    keys?.start();
    policy?.start();
  }
  const stopIdentity = () => {
    process.off('SIGHUP', onHangUp);
    keys?.stop();
    policy?.stop();
    signIn?.stop();
    personLimiter?.stop();
    evidence.stop();
  };

  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  let sequence = 0;
  const boot = Date.now().toString(36);

  /** The headers every API answer carries, as [name, value] pairs set in one loop. */
  const apiHeaders = Object.entries(API_HEADERS);
  if (config.tls) apiHeaders.push(['strict-transport-security', 'max-age=31536000']);

  /** The API after the rate limit: CORS is settled by then, so every refusal below is readable. */
  function limited(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    query: string,
    log: CallLog,
  ): Forwarding | Promise<Forwarding | void> | void {
    if (rawPath === ENVIRONMENTS_PATH || rawPath.startsWith(`${ENVIRONMENTS_PATH}/`))
      return environments(req, res, rawPath, query, log);
    // /api/me/ and below are no environment's paths: the identity routes answer them (404).
    if (rawPath.startsWith('/api/auth/') || rawPath === ME_PATH || rawPath.startsWith(`${ME_PATH}/`))
      return identityRoute(req, res, rawPath, log);
    if (rawPath.startsWith(STATEMENTS_PATH))
      return rawPath[STATEMENTS_PATH.length] === '/'
        ? evidence.statement(req, res, rawPath, signIn?.checker ?? null)
        : sendError(res, 'not-found');
    // The environment segment is compared raw: an encoded name is no name.
    const slash = rawPath.indexOf('/', 5);
    if (slash < 0) return sendError(res, 'not-found');
    return proxy(req, res, rawPath.slice(5, slash), rawPath.slice(slash), query, deps, log);
  }

  /** /api/auth/config (no authentication), /api/me and /api/auth/sign-out (a signed-in caller). */
  function identityRoute(req: IncomingMessage, res: ServerResponse, rawPath: string, log: CallLog): void | Promise<void> {
    if (rawPath === AUTH_CONFIG_PATH) {
      if (req.method !== 'GET') return sendError(res, 'method-not-allowed', { headers: { allow: 'GET' } });
      return authConfig(req, res);
    }
    if (rawPath !== ME_PATH && rawPath !== SIGN_OUT_PATH) return sendError(res, 'not-found');
    if (!signIn) return sendError(res, 'sign-in-required', { message: 'This relay has no sign-in; it takes typed API keys.' });
    return rawPath === ME_PATH ? signIn.me(req, res, log) : signIn.signOut(req, res, log);
  }

  function api(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    query: string,
    log: CallLog,
  ): Forwarding | Promise<Forwarding | void> | void {
    for (let i = 0; i < apiHeaders.length; i++) res.setHeader(apiHeaders[i]![0], apiHeaders[i]![1]);
    // Preflights use no rate-limit tokens: the browser sends one before calls it then makes anyway.
    if (req.method === 'OPTIONS') return cors.preflight(req, res);
    if (cors.refused(req)) return sendError(res, 'origin-not-allowed');
    const wait = limiter.take(req.socket.remoteAddress ?? 'unknown');
    if (wait === 0) return limited(req, res, rawPath, query, log);
    if (typeof wait === 'number') return rateLimited(res, wait);
    return wait.then((w) => (w === 0 ? limited(req, res, rawPath, query, log) : rateLimited(res, w)));
  }

  function rateLimited(res: ServerResponse, waitMs: number): void {
    sendError(res, 'rate-limited', { headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) } });
  }

  /** Answers one request; synchronous up to the upstream dispatch for a GET (no promise per request). */
  function handle(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
    url: string,
    q: number,
    log: CallLog,
  ): Forwarding | Promise<Forwarding | boolean | void> | void {
    // CORS first: every answer to an allowed origin (refusals included) must be readable by its page.
    cors.decorate(req, res);
    if (closing) return sendError(res, 'shutting-down', { headers: { connection: 'close' } });
    // HTTP/1.1 requires Host; HTTP/1.0 did not (some load balancers' health checks still send none).
    if (!req.headers.host && req.httpVersionMinor >= 1)
      return sendError(res, 'no-host', { headers: { connection: 'close' } });
    // Only origin-form targets: absolute-form (`GET http://other/`) and asterisk-form ask a proxy to pick a host.
    if (!url.startsWith('/') || url.startsWith('//')) return sendError(res, 'bad-request-target');
    const query = q < 0 ? '' : url.slice(q);
    if (rawPath === '/healthz') {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end(keys ? keysHealth(keys, config.healthShowsKeys) : HEALTHY);
      return;
    }
    if (rawPath === '/api' || rawPath.startsWith('/api/')) return api(req, res, rawPath, query, log);
    if (rawPath === JWKS_PATH) return evidence.jwks(req, res);
    if (files && (req.method === 'GET' || req.method === 'HEAD'))
      return files.serve(req, res, rawPath).then((served) => served || sendError(res, 'not-found'));
    sendError(res, 'not-found');
  }

  const bug = (res: ServerResponse, e: unknown) => {
    logger.error(
      {
        reqId: res.getHeader('x-request-id'),
        err: { message: (e as Error)?.message, name: (e as Error)?.name },
      },
      'relay bug',
    );
    sendError(res, 'relay-error');
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const id = `${boot}-${(++sequence).toString(36)}`;
    const log: CallLog = { bytes: 0 };
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    let forwarding: Forwarding | undefined;
    inFlight++;
    res.setHeader('x-request-id', id);
    // One listener per request does both: abort the upstream call of a client that went away, and log.
    res.on('close', () => {
      forwarding?.clientClosed();
      relayLogger.request(
        {
          reqId: id,
          method: req.method ?? '',
          path: rawPath.startsWith('/') ? rawPath.slice(0, 200) : '(refused target)',
          status: res.writableFinished ? res.statusCode : 'aborted',
          durationMs: Math.round(performance.now() - started),
        },
        log,
      );
      if (--inFlight === 0 && drained) drained();
    });
    try {
      const answer = handle(req, res, rawPath, url, q, log);
      if (answer instanceof Forwarding) forwarding = answer;
      else if (answer instanceof Promise)
        answer.then(
          (f) => {
            if (f instanceof Forwarding) forwarding = f;
          },
          (e: unknown) => bug(res, e),
        );
    } catch (e) {
      bug(res, e);
    }
  };
  const serverOptions = {
    requestTimeout: config.limits.requestTimeoutMs,
    headersTimeout: Math.min(config.limits.requestTimeoutMs, 60_000),
    keepAliveTimeout: 5_000,
    // Checked by the relay, so the refusal comes in its own format rather than as Node's bare 400.
    requireHostHeader: false,
    // Node's default, stated: an answer goes out as soon as it is written, not after the client's ACK.
    noDelay: true,
  };
  const server: Server = config.tls
    ? createHttpsServer(
        {
          ...serverOptions,
          cert: readFileSync(config.tls.cert),
          key: readFileSync(config.tls.key),
          minVersion: 'TLSv1.2',
        },
        onRequest,
      )
    : createHttpServer(serverOptions, onRequest);

  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    refuseRaw(socket, 405, 'bad-request-target', 'CONNECT is refused: the relay is not a forward proxy.'),
  );
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) =>
    refuseRaw(socket, 400, 'bad-request', 'Protocol upgrades are refused.'),
  );
  // A page on an allowed origin can read these refusals too when its Origin line is in the bytes Node
  // could not parse (`rawPacket`, the chunk being parsed: usually the whole head). A timeout has no packet:
  // Node keeps the header bytes it has read inside its parser, out of reach, so that 408 carries only Vary.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const corsLines = cors.rawHeaderLines(err.rawPacket);
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      return refuseRaw(socket, 408, 'bad-request', 'The request took too long to arrive.', corsLines);
    refuseRaw(
      socket,
      400,
      'bad-request',
      `${RELAY_ERRORS['bad-request'][1]} (${err.code ?? 'parse error'})`,
      corsLines,
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.listen.port, config.listen.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    // Nothing may outlive a relay that did not start (a port in use): the CLI says why and exits.
    limiter.stop();
    stopIdentity();
    await Promise.all([...upstreams.values()].map((u) => u.pool.destroy()));
    relayLogger.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const shownHost =
    config.listen.host === '0.0.0.0' || config.listen.host === '::'
      ? '127.0.0.1'
      : config.listen.host.includes(':')
        ? `[${config.listen.host}]`
        : config.listen.host;
  logger.info({ port, environments: [...upstreams.keys()], staticDir: config.staticDir }, 'relay listening');

  let closed: Promise<void> | null = null;
  return {
    url: `${scheme}://${shownHost}:${port}`,
    port,
    reload: () => reload('reload requested'),
    ...(signIn ? { signInStats: signIn.checker.stats } : {}),
    close(graceMs = config.limits.shutdownGraceMs) {
      closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (inFlight > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            new Promise<void>((resolve) => (drained = resolve)),
            new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
          ]);
          clearTimeout(timer);
        }
        server.closeAllConnections();
        await stopped;
        limiter.stop();
        stopIdentity();
        // Every call has finished or been cut by now, so nothing is left to wait for on the upstream side.
        await Promise.all([...upstreams.values()].map((u) => u.pool.destroy()));
        logger.info('relay stopped');
        relayLogger.close();
      })();
      return closed;
    },
  };
}
