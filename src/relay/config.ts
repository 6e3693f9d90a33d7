import { z } from 'zod';
import { readTextFile } from '../files/text';

/** Loopback upstreams (the sandbox, tests) may be plain HTTP; anything else must be HTTPS. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const baseUrl = z
  .string()
  .url()
  .refine((s) => {
    const u = new URL(s);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
  }, 'must be https:// (plain http:// only for a loopback host such as the sandbox)')
  .refine((s) => {
    const u = new URL(s);
    return !u.username && !u.password && !u.search && !u.hash;
  }, 'must not carry credentials, a query or a fragment');

/**
 * Where the relay reads an environment's key: exactly one of a file (readable by the relay's user only),
 * an environment variable, or a systemd credential (`LoadCredential=NAME:...`, read from
 * $CREDENTIALS_DIRECTORY/NAME). The secret is `IDENTIFIER:PASSWORD` on one line, or the password alone when
 * `identifier` is given here. There is no field for the key itself.
 */
const heldKey = z
  .strictObject({
    file: z.string().min(1).optional(),
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name: letters, digits and _')
      .optional(),
    credential: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'a systemd credential name (LoadCredential=NAME:...): letters, digits, ".", "-", "_"')
      .optional(),
    /** The key's Identifier (the Basic user name), when the secret holds the password alone. */
    identifier: z.string().min(1).optional(),
    /** The expiry date the service showed when the key was made (YYYY-MM-DD): the relay warns before it. */
    expires: z.iso.date().optional(),
  })
  .refine((k) => [k.file, k.env, k.credential].filter((x) => x !== undefined).length === 1, {
    message: 'name exactly one of "file", "env" or "credential" (the key itself is never written in this file)',
  });

const environment = z.strictObject({
  baseUrl,
  production: z.boolean().default(false),
  /** PEM file of an extra certificate authority to trust for this upstream (a private CA); the system CAs stay trusted. */
  ca: z.string().min(1).optional(),
  /** Keep-alive connections to this upstream. */
  connections: z.number().int().min(1).max(1024).default(64),
  /**
   * The binding file `grc-sheets binding import` wrote from this environment's Swagger file: where each
   * call lives and how its properties are named. Without one, the catalogue's own (assumed) paths.
   */
  binding: z.string().min(1).optional(),
  /** The key the relay holds for signed-in people (docs/relay.md, "Keys on the relay"): a reference, never the key. */
  key: heldKey.optional(),
});

/** An environment name is one URL segment; `environments` is taken by the picker's route. */
function environmentNameProblem(name: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(name))
    return 'an environment name is 1 to 32 letters, digits, "-" or "_"';
  if (name === 'environments') return '"environments" is reserved for GET /api/environments';
  if (name === 'auth') return '"auth" is reserved for the sign-in routes (/api/auth/...)';
  if (name === 'evidence') return '"evidence" is reserved for the signed statements (/api/evidence/...)';
  return null;
}

// Names are checked here rather than with a key schema, whose failures zod reports without our message.
const environments = z.record(z.string(), environment).superRefine((envs, ctx) => {
  const names = Object.keys(envs);
  if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one environment' });
  for (const name of names) {
    const problem = environmentNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
  }
});

const origin = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === s;
  } catch {
    return false;
  }
}, 'an origin is scheme://host[:port] with no path or trailing slash, e.g. https://addin.example.com');

/**
 * 100 a second per client address, with a burst of a whole minute: a bulk write-back of 1,000 rows at
 * concurrency 8 plus its reads must not be throttled, and an office behind one NAT shares one address.
 */
const DEFAULT_RATE = { requests: 6000, windowMs: 60_000 };

/** The organization's OpenID provider whose access tokens the relay takes (docs/relay.md, "Sign-in"). */
const identity = z.strictObject({
  /** Exactly as the provider's discovery document says it (`iss` of its tokens). */
  issuer: z
    .string()
    .url()
    .refine((s) => {
      const u = new URL(s);
      return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
    }, 'must be https:// (plain http:// only for a loopback provider such as the demo)'),
  /** The `aud` the relay accepts: its API's identifier at the provider (Entra ID: the App ID URI and/or the app's id). */
  audience: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  /** The taskpane's (public) client id at the provider, told to the taskpane by GET /api/auth/config. */
  clientId: z.string().min(1),
  /** What the taskpane asks for; must give an access token for `audience`. */
  scopes: z.string().min(1).default('openid profile offline_access'),
  /** An RFC 8707 resource the taskpane sends in its authorization request, for providers that need one. */
  resource: z.string().min(1).optional(),
  /** The claim holding the person's groups or roles (Entra ID: `groups` or `roles`). */
  groupsClaim: z.string().min(1).default('groups'),
  nameClaim: z.string().min(1).default('name'),
  clockSkewSeconds: z.number().int().min(0).max(300).default(60),
  /**
   * After fetching the provider's keys, how long a token with an unknown `kid` is refused without fetching
   * them again: bounds what forged tokens can make the relay fetch. Providers publish a new key well before
   * signing with it, so a rotation is seen at the next fetch (every 10 minutes at the latest).
   */
  jwksCooldownSeconds: z.number().int().min(0).max(3600).default(30),
  /** Signature algorithms accepted; asymmetric only (an HMAC token could be signed with the public key). */
  algorithms: z
    .array(z.enum(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']))
    .min(1)
    .default(['RS256']),
});

/**
 * What the relay signs (docs/relay.md, "What the relay signs"): the key it signs statements with, read by
 * reference like a held key (a PEM private key, Ed25519 or P-256); earlier keys' public parts to keep
 * listing; how long statements wait on the relay for their client.
 */
const evidence = z.strictObject({
  /** false: the relay signs nothing (no statement header, no hashing): what signing costs is then measurable. */
  enabled: z.boolean().default(true),
  /** Without it the relay makes a key at start (demo): its statements verify only while it runs. */
  key: z
    .strictObject({
      file: z.string().min(1).optional(),
      env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name: letters, digits and _').optional(),
      credential: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a systemd credential name: letters, digits, ".", "-", "_"').optional(),
    })
    .refine((k) => [k.file, k.env, k.credential].filter((x) => x !== undefined).length === 1, {
      message: 'name exactly one of "file", "env" or "credential" (the key itself is never written in this file)',
    })
    .optional(),
  /** Files of earlier signing keys' public parts (PEM or JWK): listed at /.well-known/jwks.json for good. */
  previousKeys: z.array(z.string().min(1)).default([]),
  /** How long a key rotated out while the relay runs stays listed (its statements live on in workbooks). */
  retiredKeysListedDays: z.number().int().min(1).default(400),
  /** How long a statement can be fetched from the relay after the answer ended. */
  statementTtlSeconds: z.number().int().min(10).max(86_400).default(900),
  /**
   * Hash answers over 64 KiB on a thread of their own (answer-hasher.ts): 'auto' does where the relay may
   * run on more than one core (on one, the thread's copies and messages cost more than they free).
   */
  hashingThread: z.union([z.literal('auto'), z.boolean()]).default('auto'),
});

export const relayConfig = z.strictObject({
  listen: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(8443),
    })
    .default({ host: '127.0.0.1', port: 8443 }),
  /** HTTPS, which Office requires for the add-in; without it the relay speaks plain HTTP (loopback, tests, or behind a TLS terminator). */
  tls: z.strictObject({ cert: z.string().min(1), key: z.string().min(1) }).optional(),
  environments,
  allowedOrigins: z.array(origin).default([]),
  staticDir: z.string().min(1).optional(),
  /**
   * The fixed address the service sees this host's calls come from (what API keys allow). The relay
   * cannot learn it (a NAT may stand between); given here, `GET /api/environments` tells the taskpane and
   * `grc-sheets check`, which name it when a key refuses the relay (the address to approve).
   */
  egressIp: z.ipv4().or(z.ipv6()).optional(),
  limits: z
    .strictObject({
      bodyBytes: z
        .number()
        .int()
        .min(1)
        .default(10 * 1024 * 1024),
      /** POST bytes held in memory at once, across all connections and per client address. */
      bufferedBodyBytes: z
        .number()
        .int()
        .min(1)
        .default(64 * 1024 * 1024),
      bufferedBodyBytesPerAddress: z
        .number()
        .int()
        .min(1)
        .default(20 * 1024 * 1024),
      requestTimeoutMs: z.number().int().min(1).default(120_000),
      /** Longest pause within a request body: a sender that stops is cut well before requestTimeoutMs. */
      bodyTimeoutMs: z.number().int().min(1).default(10_000),
      /** Longest time a client may accept no bytes of an answer before it is cut (and its upstream freed). */
      clientWriteTimeoutMs: z.number().int().min(1).default(30_000),
      /**
       * Shorter deadline for the same thing while other callers wait for one of the environment's
       * connections: a client that has taken no bytes for this long is cut then, so stuck readers from many
       * addresses cannot hold the whole pool for clientWriteTimeoutMs.
       */
      clientStallUnderLoadMs: z.number().int().min(1).default(5_000),
      upstreamTimeoutMs: z.number().int().min(1).default(120_000),
      /**
       * Upstream calls one client address may have in flight at once: below an environment's connections,
       * so clients of one address that stop reading cannot take all of them from everyone else.
       */
      callsInFlightPerAddress: z.number().int().min(1).default(32),
      /** The same for one signed-in person, whatever address they call from. */
      callsInFlightPerPerson: z.number().int().min(1).default(16),
      /** How long a graceful stop (SIGTERM) lets calls in flight, downloads included, finish. */
      shutdownGraceMs: z.number().int().min(0).default(30_000),
      rateLimit: z
        .strictObject({
          requests: z.number().int().min(1).default(DEFAULT_RATE.requests),
          windowMs: z.number().int().min(1).default(DEFAULT_RATE.windowMs),
          /** `redis://host:port[/db]`: one limit shared by every relay using the same Redis. */
          store: z
            .string()
            .refine((s) => /^rediss?:\/\/[^\s]+$/.test(s), 'must be redis://host:port or rediss://host:port')
            .optional(),
        })
        .prefault({}),
      /** A token bucket per signed-in person (by subject), besides the one per address. Shared too when rateLimit.store is set. */
      rateLimitPerPerson: z
        .strictObject({
          requests: z.number().int().min(1).default(1200),
          windowMs: z.number().int().min(1).default(60_000),
        })
        .prefault({}),
    })
    .prefault({}),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Sign-in: without it the relay takes typed keys only (personal-key mode). */
  identity: identity.optional(),
  /** The policy file (docs/relay.md, "Policy"): who may use which environment, dataset and write flow. Needed with identity. */
  policy: z.string().min(1).optional(),
  /** false: a typed key (Authorization: Basic) is refused; everyone signs in. */
  personalKeys: z.boolean().default(true),
  evidence: evidence.prefault({}),
  /** Days before a held key's recorded expiry from which the relay warns (log and /healthz). */
  keyExpiryWarningDays: z.number().int().min(1).max(365).default(30),
  /**
   * true: /healthz also shows each held key's fingerprint and recorded expiry (what `grc-sheets check
   * --relay` reports). Off by default: /healthz needs no credentials, so it says only ok or warn.
   */
  healthShowsKeys: z.boolean().default(false),
})
  .superRefine((c, ctx) => {
    if (c.identity && !c.policy)
      ctx.addIssue({ code: 'custom', path: ['policy'], message: 'sign-in (identity) needs a policy file: who may do what' });
    if (c.policy && !c.identity)
      ctx.addIssue({ code: 'custom', path: ['identity'], message: 'a policy applies to signed-in people: configure identity too' });
    if (!c.personalKeys && !c.identity)
      ctx.addIssue({ code: 'custom', path: ['personalKeys'], message: 'with personal keys off, people must sign in: configure identity and policy' });
    if (c.identity && !Object.values(c.environments).some((e) => e.key))
      ctx.addIssue({ code: 'custom', path: ['environments'], message: 'sign-in needs at least one environment with a held key (environments.<name>.key)' });
  });

export type RelayConfig = z.infer<typeof relayConfig>;
export type RelayConfigInput = z.input<typeof relayConfig>;
export type EnvironmentConfig = RelayConfig['environments'][string];

export class RelayConfigError extends Error {
  override name = 'RelayConfigError';
}

/** Turns zod's issues into one line per field, named by its path in the config file. */
function describe(error: z.ZodError, source: string): string {
  const lines = error.issues.map(
    (i) => `  ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`,
  );
  return `invalid relay configuration in ${source}:\n${lines.join('\n')}`;
}

export function parseRelayConfig(input: unknown, source = 'the configuration'): RelayConfig {
  const result = relayConfig.safeParse(input);
  if (!result.success) throw new RelayConfigError(describe(result.error, source));
  return result.data;
}

type Env = Record<string, string | undefined>;

/**
 * Environment variables for the same settings; each one replaces the file's value.
 * Numbers and JSON are parsed here so a bad value is reported under the variable's name.
 */
export const ENV_VARS = {
  GRC_RELAY_HOST: 'listen.host',
  GRC_RELAY_PORT: 'listen.port',
  GRC_RELAY_TLS_CERT: 'tls.cert',
  GRC_RELAY_TLS_KEY: 'tls.key',
  GRC_RELAY_ENVIRONMENTS: 'environments',
  GRC_RELAY_ALLOWED_ORIGINS: 'allowedOrigins',
  GRC_RELAY_STATIC_DIR: 'staticDir',
  GRC_RELAY_EGRESS_IP: 'egressIp',
  GRC_RELAY_BODY_BYTES: 'limits.bodyBytes',
  GRC_RELAY_REQUEST_TIMEOUT_MS: 'limits.requestTimeoutMs',
  GRC_RELAY_UPSTREAM_TIMEOUT_MS: 'limits.upstreamTimeoutMs',
  GRC_RELAY_RATE_LIMIT_REQUESTS: 'limits.rateLimit.requests',
  GRC_RELAY_RATE_LIMIT_WINDOW_MS: 'limits.rateLimit.windowMs',
  GRC_RELAY_RATE_LIMIT_STORE: 'limits.rateLimit.store',
  GRC_RELAY_BODY_TIMEOUT_MS: 'limits.bodyTimeoutMs',
  GRC_RELAY_CLIENT_WRITE_TIMEOUT_MS: 'limits.clientWriteTimeoutMs',
  GRC_RELAY_CLIENT_STALL_UNDER_LOAD_MS: 'limits.clientStallUnderLoadMs',
  GRC_RELAY_SHUTDOWN_GRACE_MS: 'limits.shutdownGraceMs',
  GRC_RELAY_LOG_LEVEL: 'logLevel',
  GRC_RELAY_IDENTITY: 'identity',
  GRC_RELAY_POLICY: 'policy',
  GRC_RELAY_PERSONAL_KEYS: 'personalKeys',
} as const;

const JSON_VARS = new Set(['environments', 'identity']);
const NUMBER_VARS = new Set([
  'listen.port',
  'limits.bodyBytes',
  'limits.requestTimeoutMs',
  'limits.upstreamTimeoutMs',
  'limits.rateLimit.requests',
  'limits.rateLimit.windowMs',
  'limits.bodyTimeoutMs',
  'limits.clientWriteTimeoutMs',
  'limits.clientStallUnderLoadMs',
  'limits.shutdownGraceMs',
]);

function envValue(name: string, field: string, raw: string): unknown {
  if (JSON_VARS.has(field)) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new RelayConfigError(`${name} (${field}) is not valid JSON`);
    }
  }
  if (NUMBER_VARS.has(field)) {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n))
      throw new RelayConfigError(`${name} (${field}) must be a number, got "${raw}"`);
    return n;
  }
  if (field === 'personalKeys') {
    if (raw !== 'true' && raw !== 'false') throw new RelayConfigError(`${name} (${field}) must be true or false, got "${raw}"`);
    return raw === 'true';
  }
  if (field === 'allowedOrigins')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node = (next && typeof next === 'object' ? next : (node[key] = {})) as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** Applies the GRC_RELAY_* variables on top of a raw (not yet validated) configuration object. */
export function applyEnv(raw: unknown, env: Env): unknown {
  const out = structuredClone(raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  for (const [name, field] of Object.entries(ENV_VARS)) {
    const value = env[name];
    if (value !== undefined) setPath(out, field, envValue(name, field, value));
  }
  return out;
}

/** Reads the config file (if any), applies the environment variables and validates the result. */
export function loadRelayConfig(file: string | undefined, env: Env = process.env): RelayConfig {
  let raw: unknown = {};
  if (file) {
    let text: string;
    try {
      text = readTextFile(file);
    } catch (e) {
      throw new RelayConfigError(`cannot read the relay configuration ${file}: ${(e as Error).message}`);
    }
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new RelayConfigError(
        `the relay configuration ${file} is not valid JSON: ${(e as Error).message}`,
      );
    }
  }
  return parseRelayConfig(applyEnv(raw, env), file ?? 'the environment variables');
}
