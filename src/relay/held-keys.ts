import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { RelayConfig } from './config';
import { keyTag } from './log';
import { readTextFile } from '../files/text';

/**
 * The keys the relay holds for signed-in people, one per environment, read from where the configuration
 * points (a file, an environment variable, a systemd credential). A key is kept only as the Basic header
 * sent upstream and its tag (a hash of the identifier); no message, log line or answer carries the secret
 * or the text it was read from. Files are watched and every key is re-read on SIGHUP (reload()), so a
 * yearly rotation is a file write, not a restart.
 */

type KeyRef = NonNullable<RelayConfig['environments'][string]['key']>;

export interface HeldKey {
  /** `Basic base64(identifier:password)`, sent upstream. */
  readonly basic: string;
  /** 12 hex of SHA-256 of the identifier: what the access log's `key` and the audit row's fingerprint show. */
  readonly tag: string;
  /** Where it was read from, for messages (never its content). */
  readonly source: string;
  /** The expiry recorded with the key (its file's second line); it wins over the configuration's. */
  readonly expires?: string;
}

/** One held key as /healthz shows it (and `grc-sheets check`): where it was read from stays in the log. */
export interface KeyHealth {
  fingerprint: string;
  expires?: string;
  daysLeft?: number;
  /** stale: the last re-read failed (`problem` says why) and the key read before is still in use. */
  status: 'ok' | 'expiring' | 'expired' | 'unreadable' | 'stale';
  problem?: string;
}

const DAY_MS = 86_400_000;

export class HeldKeyError extends Error {
  override name = 'HeldKeyError';
}

/** Where a secret is read from, by reference: a file, an environment variable or a systemd credential. */
export interface SecretRef {
  file?: string | undefined;
  env?: string | undefined;
  credential?: string | undefined;
}

export function describeSource(ref: SecretRef, env: NodeJS.ProcessEnv): string {
  if (ref.file !== undefined) return `file ${ref.file}`;
  if (ref.env !== undefined) return `environment variable ${ref.env}`;
  return `systemd credential ${ref.credential} (${join(env.CREDENTIALS_DIRECTORY ?? '$CREDENTIALS_DIRECTORY', ref.credential ?? '')})`;
}

/**
 * Why a key file's permissions pass unchecked on Windows: Node reports every file there as readable by all
 * (mode 0o666: it maps only the read-only attribute), so the mode check would refuse every file; the NTFS
 * ACLs that really say who may read it are not read. Said in the relay's log at start and in docs/relay.md.
 */
export const WINDOWS_ACLS_UNCHECKED =
  "on Windows a key file's permissions are not checked (NTFS ACLs are not read): give only the account that runs it read access to the file";

/** Whether a key file's mode can tell who may read it (not on Windows: WINDOWS_ACLS_UNCHECKED). */
export const fileModesChecked = (): boolean => process.platform !== 'win32';

/** Whether a reference is read from a file (a key file or a systemd credential), whose mode is checked. */
export const readsFile = (ref: SecretRef): boolean => ref.env === undefined;

/**
 * A key file must be the relay user's alone, as ssh insists for private keys. `whose` says whose in the
 * refusal (the CLI reads a service client's secret file with the same check). Not on Windows, where the
 * mode says nothing (WINDOWS_ACLS_UNCHECKED).
 */
export function readSecretFile(path: string, what: string, whose = "the relay user's"): string {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new HeldKeyError(code === 'ENOENT' ? `${what} does not exist` : `${what} cannot be used (${code})`);
  }
  if (fileModesChecked() && (mode & 0o077) !== 0)
    throw new HeldKeyError(
      `${what} can be read by group or others (mode ${(mode & 0o777).toString(8)}); a key file must be ${whose} alone: chmod 600 ${path}`,
    );
  try {
    return readTextFile(path);
  } catch (e) {
    throw new HeldKeyError(
      `${what} cannot be read by this user (${(e as NodeJS.ErrnoException).code}); chown it to ${whose.replace(/'s$/, '')}`,
    );
  }
}

/**
 * The secret a reference names (the held API keys, the relay's signing key). `label` goes before the source
 * in a refusal; `example` is the file in the LoadCredential line a refusal suggests.
 */
export function readSecret(ref: SecretRef, env: NodeJS.ProcessEnv, label = '', example = '/path/to/key'): string {
  const what = `${label}${describeSource(ref, env)}`;
  if (ref.file !== undefined) return readSecretFile(ref.file, what);
  if (ref.env !== undefined) {
    const value = env[ref.env];
    if (!value) throw new HeldKeyError(`${what} is not set`);
    return value;
  }
  const dir = env.CREDENTIALS_DIRECTORY;
  if (!dir)
    throw new HeldKeyError(
      `${what}: CREDENTIALS_DIRECTORY is not set; run the relay under systemd with LoadCredential=${ref.credential}:${example}`,
    );
  return readSecretFile(join(dir, ref.credential ?? ''), what);
}

const EXPIRES_LINE = /^expires[=:]\s*(\d{4}-\d{2}-\d{2})\s*$/;

/**
 * `IDENTIFIER:PASSWORD` (or the password alone with `identifier` configured) on the first line; an
 * optional second line `expires=YYYY-MM-DD` records the key's expiry with it, so a rotation that writes
 * the file updates the date the relay warns before, without a restart. Messages never quote the secret.
 */
function toKey(ref: KeyRef, text: string, source: string): HeldKey {
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const secret = lines[0] ?? '';
  let expires: string | undefined;
  if (lines.length === 2) {
    const m = EXPIRES_LINE.exec(lines[1]!);
    if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`)))
      throw new HeldKeyError(
        `${source}: its second line must be expires=YYYY-MM-DD (the key's expiry date), or nothing`,
      );
    expires = m[1];
  }
  if (!secret || lines.length > 2)
    throw new HeldKeyError(
      `${source} must hold the key on one line (and optionally expires=YYYY-MM-DD on a second)`,
    );
  let identifier: string;
  let password: string;
  if (ref.identifier !== undefined) {
    identifier = ref.identifier;
    password = secret;
  } else {
    const colon = secret.indexOf(':');
    if (colon <= 0 || colon === secret.length - 1)
      throw new HeldKeyError(
        `${source} must hold IDENTIFIER:PASSWORD (or set "identifier" next to it and hold the password alone)`,
      );
    identifier = secret.slice(0, colon);
    password = secret.slice(colon + 1);
  }
  const basic = `Basic ${Buffer.from(`${identifier}:${password}`, 'utf8').toString('base64')}`;
  return { basic, tag: keyTag(basic) ?? '', source, ...(expires ? { expires } : {}) };
}

export class HeldKeys {
  private readonly keys = new Map<string, HeldKey>();
  private readonly problems = new Map<string, string>();
  private readonly refs: [string, KeyRef][];
  private watchers: FSWatcher[] = [];
  private expiryTimer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    config: RelayConfig,
    private readonly logger: Logger,
    private readonly warningDays: number,
    private readonly processEnv: NodeJS.ProcessEnv = process.env,
    private readonly now: () => number = Date.now,
  ) {
    this.refs = Object.entries(config.environments).flatMap(([name, e]) =>
      e.key ? [[name, e.key] as [string, KeyRef]] : [],
    );
  }

  get size(): number {
    return this.refs.length;
  }

  /** Reads every key; at start a problem stops the relay (the returned lines say what to fix). */
  loadAll(): string[] {
    const lines: string[] = [];
    const files = this.refs.filter(([, ref]) => readsFile(ref)).map(([env]) => env);
    if (files.length && !fileModesChecked()) this.logger.warn({ environments: files }, `held keys: ${WINDOWS_ACLS_UNCHECKED}`);
    for (const [env, ref] of this.refs) {
      try {
        this.keys.set(
          env,
          toKey(ref, readSecret(ref, this.processEnv), describeSource(ref, this.processEnv)),
        );
        this.problems.delete(env);
      } catch (e) {
        if (!(e instanceof HeldKeyError)) throw e;
        lines.push(`  environments.${env}.key: ${e.message}`);
      }
    }
    return lines;
  }

  /** Re-reads every key (SIGHUP, a watched file changed). A key that cannot be read keeps the one held before. */
  reload(reason: string): void {
    for (const [env, ref] of this.refs) {
      const source = describeSource(ref, this.processEnv);
      try {
        const key = toKey(ref, readSecret(ref, this.processEnv), source);
        const before = this.keys.get(env);
        this.keys.set(env, key);
        this.problems.delete(env);
        if (before?.basic !== key.basic || before?.expires !== key.expires)
          this.logger.info(
            { env, key: key.tag, previousKey: before?.tag, reason },
            'held key re-read: the new key is used from now on',
          );
      } catch (e) {
        if (!(e instanceof HeldKeyError)) throw e;
        this.problems.set(env, e.message);
        this.logger.error(
          { env, key: this.keys.get(env)?.tag, reason },
          `held key not re-read, the previous one stays in use: ${e.message}`,
        );
      }
    }
    this.warnExpiry();
  }

  get(env: string): HeldKey | undefined {
    return this.keys.get(env);
  }

  fingerprints(): Record<string, string> {
    return Object.fromEntries([...this.keys].map(([env, k]) => [env, `key:${k.tag}`]));
  }

  health(): Record<string, KeyHealth> {
    const out: Record<string, KeyHealth> = {};
    for (const [env, ref] of this.refs) {
      const key = this.keys.get(env);
      const entry: KeyHealth = {
        fingerprint: key ? `key:${key.tag}` : '',
        status: key ? 'ok' : 'unreadable',
      };
      const expires = key?.expires ?? ref.expires;
      if (expires) {
        // Whole days from today (UTC) to the expiry date: 0 on the day itself.
        const today = Math.floor(this.now() / DAY_MS) * DAY_MS;
        const daysLeft = Math.round((Date.parse(`${expires}T00:00:00Z`) - today) / DAY_MS);
        entry.expires = expires;
        entry.daysLeft = daysLeft;
        if (key) entry.status = daysLeft < 0 ? 'expired' : daysLeft <= this.warningDays ? 'expiring' : 'ok';
      }
      const problem = this.problems.get(env);
      if (problem) {
        entry.problem = problem;
        if (entry.status === 'ok') entry.status = 'stale';
      }
      out[env] = entry;
    }
    return out;
  }

  /** Logs a warning for each key within warningDays of its recorded expiry (at start, on reload, twice a day). */
  warnExpiry(): void {
    const health = this.health();
    for (const [env, ref] of this.refs) {
      const h = health[env]!;
      const source = describeSource(ref, this.processEnv);
      if (h.status === 'expiring')
        this.logger.warn(
          { env, key: h.fingerprint.slice(4), expires: h.expires, daysLeft: h.daysLeft },
          `the key held for ${env} expires on ${h.expires} (${h.daysLeft} days): make a new key, write it to ${source} (docs/relay.md, "Yearly rotation")`,
        );
      else if (h.status === 'expired')
        this.logger.error(
          { env, key: h.fingerprint.slice(4), expires: h.expires },
          `the key held for ${env} expired on ${h.expires}: the service refuses it; make a new key and write it to ${source}`,
        );
    }
  }

  /** Watches each key file's folder (a rotation by rename replaces the file) and checks expiry twice a day. */
  start(): void {
    const folders = new Map<string, Set<string>>();
    for (const [, ref] of this.refs) {
      const path =
        ref.file ??
        (ref.credential && this.processEnv.CREDENTIALS_DIRECTORY
          ? join(this.processEnv.CREDENTIALS_DIRECTORY, ref.credential)
          : undefined);
      if (!path) continue;
      const names = folders.get(dirname(path)) ?? new Set<string>();
      names.add(basename(path));
      folders.set(dirname(path), names);
    }
    for (const [folder, names] of folders) {
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (name && !names.has(name.toString())) return;
          // Editors and `install` write in steps: read once the writes have settled.
          clearTimeout(this.pending);
          this.pending = setTimeout(() => this.reload('key file changed'), 200);
          this.pending.unref();
        });
        watcher.on('error', () => undefined);
        this.watchers.push(watcher);
      } catch (e) {
        this.logger.warn(
          { folder },
          `key files in ${folder} are not watched (${(e as Error).message}); send SIGHUP after a rotation`,
        );
      }
    }
    this.warnExpiry();
    this.expiryTimer = setInterval(() => this.warnExpiry(), DAY_MS / 2);
    this.expiryTimer.unref();
  }

  stop(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    clearInterval(this.expiryTimer);
    clearTimeout(this.pending);
  }
}
