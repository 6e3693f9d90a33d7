import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { STATEMENT_TYPE } from '../contracts/evidence';
import type { RelayConfig } from './config';
import { describeSource, fileModesChecked, HeldKeyError, readSecret, readsFile, WINDOWS_ACLS_UNCHECKED } from './held-keys';

/**
 * The key the relay signs its statements with (docs/relay.md, "What the relay signs"): an Ed25519 or P-256
 * private key (PEM, PKCS#8) read by reference like the held API keys (a file only the relay's user can
 * read, an environment variable, a systemd credential), re-read when its file changes or on SIGHUP. The
 * key it replaces stays listed at /.well-known/jwks.json for `retiredKeysListedDays`, and the public keys
 * named in `previousKeys` are listed for good, so statements signed before a rotation (or a restart) still
 * verify. Without a configured key the relay makes one at start (demo, `npm start`): its statements verify
 * only against that run's JWKS.
 *
 * Signing is node:crypto's synchronous sign rather than jose's (asynchronous) CompactSign: the statement is
 * signed and stored before the answer's last byte is written, so a client that asks for it at once finds it.
 */

type EvidenceConfig = RelayConfig['evidence'];
type KeyRef = NonNullable<EvidenceConfig['key']>;

export type SigningAlg = 'EdDSA' | 'ES256';

export interface PublicJwk extends JsonWebKey {
  kid: string;
  alg: SigningAlg;
  use: 'sig';
}

interface SigningKey {
  kid: string;
  alg: SigningAlg;
  privateKey: KeyObject;
  jwk: PublicJwk;
}

const DAY_MS = 86_400_000;

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** RFC 7638 thumbprint: SHA-256 of the key's required members in lexicographic order, base64url. */
function thumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'OKP'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
      : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

/** The public JWK of a key (private or public), with its kid and alg; null for a key type we do not sign with. */
function publicJwk(key: KeyObject): PublicJwk | null {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = pub.export({ format: 'jwk' });
  let alg: SigningAlg;
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') alg = 'EdDSA';
  else if (jwk.kty === 'EC' && jwk.crv === 'P-256') alg = 'ES256';
  else return null;
  return { ...jwk, kid: thumbprint(jwk), alg, use: 'sig' };
}

function readPem(ref: KeyRef, env: NodeJS.ProcessEnv): string {
  return readSecret(ref, env, 'evidence.key: ', '/path/to/key.pem');
}

function toSigningKey(pem: string, source: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    // The message never quotes the text: it may be a key with a typo.
    throw new HeldKeyError(`${source} is not a PEM private key (make one: openssl genpkey -algorithm ed25519 -out signing.pem)`);
  }
  const jwk = publicJwk(privateKey);
  if (!jwk) throw new HeldKeyError(`${source} must be an Ed25519 or P-256 (ES256) key, not ${privateKey.asymmetricKeyType}`);
  return { kid: jwk.kid, alg: jwk.alg, privateKey, jwk };
}

/** A previous key's public part: PEM (SPKI) or a JWK (JSON), from a file that need not be secret. */
function readPublic(path: string): PublicJwk {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new HeldKeyError(`evidence.previousKeys: ${path} cannot be read (${(e as NodeJS.ErrnoException).code})`);
  }
  let jwk: PublicJwk | null = null;
  try {
    const key = text.trimStart().startsWith('{')
      ? createPublicKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' })
      : createPublicKey(text);
    jwk = publicJwk(key);
  } catch {
    // Reported below.
  }
  if (!jwk) throw new HeldKeyError(`evidence.previousKeys: ${path} is not an Ed25519 or P-256 public key (PEM or JWK)`);
  return jwk;
}

export class SigningKeys {
  private current: SigningKey;
  /** Keys rotated out while this relay ran, with when: listed for retiredKeysListedDays. */
  private retired: { jwk: PublicJwk; at: number }[] = [];
  private readonly previous: PublicJwk[];
  private watcher: FSWatcher | null = null;
  private pending: NodeJS.Timeout | undefined;
  /** The JWKS document as served, rebuilt when the keys change. */
  private served = '';
  readonly ephemeral: boolean;

  /** Throws HeldKeyError (what to fix) when a configured key cannot be used. */
  constructor(
    private readonly config: EvidenceConfig,
    private readonly logger: Logger,
    private readonly processEnv: NodeJS.ProcessEnv = process.env,
    private readonly now: () => number = Date.now,
  ) {
    this.previous = config.previousKeys.map(readPublic);
    this.ephemeral = !config.key;
    if (config.key) {
      if (readsFile(config.key) && !fileModesChecked()) logger.warn({}, `evidence.key: ${WINDOWS_ACLS_UNCHECKED}`);
      this.current = toSigningKey(readPem(config.key, processEnv), describeSource(config.key, processEnv));
    } else {
      const { privateKey } = generateKeyPairSync('ed25519');
      this.current = toSigningKey(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), 'a key made at start');
      logger.warn(
        { kid: this.current.kid },
        'evidence: no signing key configured (evidence.key); statements are signed with a key made at start, which verifies only while this relay runs',
      );
    }
  }

  get kid(): string {
    return this.current.kid;
  }

  /** A compact JWS of `payload` (JSON text) with the current key; `kid` and `typ` in its protected header. */
  sign(payload: string): string {
    const { alg, kid, privateKey } = this.current;
    const input = `${b64url(JSON.stringify({ alg, kid, typ: STATEMENT_TYPE }))}.${b64url(payload)}`;
    const signature =
      alg === 'EdDSA'
        ? sign(null, Buffer.from(input), privateKey)
        : sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${b64url(signature)}`;
  }

  /** The JWKS: the current key, keys rotated out within retiredKeysListedDays, and the configured previous keys. */
  jwks(): string {
    const now = this.now();
    const keep = now - this.config.retiredKeysListedDays * DAY_MS;
    if (this.retired.some((r) => r.at < keep)) {
      this.retired = this.retired.filter((r) => r.at >= keep);
      this.served = '';
    }
    if (!this.served) {
      const seen = new Set<string>();
      const keys = [this.current.jwk, ...this.retired.map((r) => r.jwk), ...this.previous].filter(
        (k) => !seen.has(k.kid) && seen.add(k.kid),
      );
      this.served = JSON.stringify({ keys });
    }
    return this.served;
  }

  /** Re-reads the configured key (SIGHUP, its file changed); one that cannot be read keeps the current one. */
  reload(reason: string): void {
    const ref = this.config.key;
    if (!ref) return;
    const source = describeSource(ref, this.processEnv);
    try {
      const next = toSigningKey(readPem(ref, this.processEnv), source);
      if (next.kid === this.current.kid) return;
      this.retired.unshift({ jwk: this.current.jwk, at: this.now() });
      this.logger.info(
        { kid: next.kid, previousKid: this.current.kid, reason },
        'evidence signing key re-read: new statements are signed with the new key; the previous one stays listed',
      );
      this.current = next;
      this.served = '';
    } catch (e) {
      if (!(e instanceof HeldKeyError)) throw e;
      this.logger.error({ kid: this.current.kid, reason }, `evidence signing key not re-read, the current one stays in use: ${e.message}`);
    }
  }

  /** Watches the key file's folder (a rotation by rename replaces the file). */
  start(): void {
    const ref = this.config.key;
    const path =
      ref?.file ??
      (ref?.credential && this.processEnv.CREDENTIALS_DIRECTORY
        ? join(this.processEnv.CREDENTIALS_DIRECTORY, ref.credential)
        : undefined);
    if (!path) return;
    try {
      this.watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
        if (name && name.toString() !== basename(path)) return;
        // Editors and `install` write in steps: read once the writes have settled.
        clearTimeout(this.pending);
        this.pending = setTimeout(() => this.reload('signing key file changed'), 200);
        this.pending.unref();
      });
      this.watcher.on('error', () => undefined);
    } catch (e) {
      this.logger.warn(
        { folder: dirname(path) },
        `the evidence signing key's folder is not watched (${(e as Error).message}); send SIGHUP after a rotation`,
      );
    }
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    clearTimeout(this.pending);
  }
}
