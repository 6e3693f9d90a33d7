import type { Logger } from 'pino';
import type { Catalog } from '../catalog';
import { RelayConfigError, type RelayConfig } from './config';
import { createEvidence, type Evidence } from './evidence';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import { HeldKeyError, HeldKeys } from './held-keys';
import { PolicyFile, policyVocabulary } from './policy-file';
import { createSignIn, type SignIn } from './signed-in';

/**
 * Loaded only by a relay that shares its limit: ioredis adds about 5 MB to every relay that loads it. A
 * require() rather than import(): bin/grc-sheets.js registers tsx for require() only (see cli/main.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sharedRateLimiter = (): typeof import('./shared-rate-limit') => require('./shared-rate-limit');

/** The relay's standing parts besides its routes: evidence, rate limits, held keys, policy and sign-in. */
export interface RelayServices {
  evidence: Evidence;
  limiter: RateLimiter;
  keys: HeldKeys | null;
  policy: PolicyFile | null;
  signIn: SignIn | null;
  /** Re-reads the held keys, the policy and the signing key. */
  reload(reason: string): void;
  /** Starts the re-reading (file watches, SIGHUP where there is something to re-read). */
  start(): void;
  /** Stops all of it but the limiter (stopped last, after the server). */
  stop(): void;
}

export interface ServiceOptions {
  now?: () => number;
  processEnv?: NodeJS.ProcessEnv;
}

export async function startServices(config: RelayConfig, logger: Logger, catalogs: readonly Catalog[], options: ServiceOptions): Promise<RelayServices> {
  const processEnv = options.processEnv ?? process.env;
  // First of what the relay starts: a signing key it cannot use stops it before anything else is open.
  let evidence: Evidence;
  try {
    evidence = createEvidence(config, logger, () => policy, processEnv, options.now);
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
  const keys = anyKey ? new HeldKeys(config, logger, config.keyExpiryWarningDays, processEnv, options.now) : null;
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

  const reload = (reason: string) => {
    keys?.reload(reason);
    policy?.reload(reason);
    evidence.reload(reason);
  };
  const onHangUp = () => reload('SIGHUP');
  return {
    evidence,
    limiter,
    keys,
    policy,
    signIn,
    reload,
    start() {
      evidence.start();
      // Only a relay with something to re-read takes SIGHUP over from Node (whose default is to stop).
      if (keys || policy || config.evidence.key) {
        process.on('SIGHUP', onHangUp);
        keys?.start();
        policy?.start();
      }
    },
    stop() {
      process.off('SIGHUP', onHangUp);
      keys?.stop();
      policy?.stop();
      signIn?.stop();
      personLimiter?.stop();
      evidence.stop();
    },
  };
}
