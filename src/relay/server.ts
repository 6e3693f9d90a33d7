import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { parseRelayConfig, RelayConfigError, type RelayConfig, type RelayConfigInput } from './config';
import { configFileProblems } from './config-files';
import { createBodyBudget } from './body-budget';
import { fixedJson } from './compress';
import { corsMethods, createCors } from './cors';
import { sendError } from './errors';
import { createRelayLogger } from './log';
import { Forwarding } from './forward';
import type { CallLog } from './log';
import type { ProxyDeps } from './proxy';
import { createStaticFiles, type StaticFiles } from './static-files';
import { createUpstream, type Upstream } from './upstream';
import type { AuthConfig } from '../contracts/identity';
import type { TokenStats } from '../identity/token-check';
import { environmentRoutes } from './environment-routes';
import { loadEnvironments } from './server-environments';
import { startServices } from './server-services';
import { createRoutes } from './server-routes';
import { createRelayServer, listen } from './server-http';

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
 * Starts the relay, part by part: its environments (server-environments.ts), its standing services
 * (server-services.ts: evidence, limits, keys, policy, sign-in), the routes (server-routes.ts) and the
 * HTTP server (server-http.ts). What is here ties them together: one line logged per request, and a close
 * that lets calls in flight finish.
 */
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
  const { views, matchers, catalogs, lacking } = loadEnvironments(config);
  const upstreams = new Map<string, Upstream>(
    Object.entries(config.environments).map(([name, env]) => [
      name,
      createUpstream(name, env, config.limits.upstreamTimeoutMs),
    ]),
  );
  const scheme = config.tls ? 'https' : 'http';
  const cors = createCors(config.allowedOrigins, scheme, corsMethods(catalogs));
  const services = await startServices(config, logger, catalogs, options);
  const { evidence, limiter, signIn } = services;
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
  services.start();

  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  let sequence = 0;
  const boot = Date.now().toString(36);
  const handle = createRoutes({ config, cors, services, environments, authConfig, files, deps, closing: () => closing });

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
  const server = createRelayServer(config, cors, onRequest);

  try {
    await listen(server, config);
  } catch (e) {
    // Nothing may outlive a relay that did not start (a port in use): the CLI says why and exits.
    limiter.stop();
    services.stop();
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
    reload: () => services.reload('reload requested'),
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
        services.stop();
        // Every call has finished or been cut by now, so nothing is left to wait for on the upstream side.
        await Promise.all([...upstreams.values()].map((u) => u.pool.destroy()));
        logger.info('relay stopped');
        relayLogger.close();
      })();
      return closed;
    },
  };
}
