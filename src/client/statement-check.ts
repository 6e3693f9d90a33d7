import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import {
  JWKS_PATH,
  STATEMENT_ID_HEADER,
  STATEMENT_TYPE,
  STATEMENTS_PATH,
  WRITE_REF_SEGMENT,
  statementAnswer,
  statementPayload,
  type StatementPayload,
} from '../contracts/evidence';
import { Sha256 } from './sha256';
import type { Connection } from './request';
import type { SentWrite } from '../catalog';

/**
 * The client's side of the relay's statements (docs/relay.md, "What the relay signs"): after a download
 * or a write through the relay it fetches the statement the answer's header named, verifies its signature
 * against the relay's published keys and, for a download, compares the signed hash, length and record
 * count with its own figures for the bytes it received. The result is a value, never a throw: a load whose
 * evidence is missing still loads, and says so.
 */

export type EvidenceCode =
  /** The answer named no statement: not through a relay, or through one that does not sign. */
  | 'unsigned'
  /** The statement could not be fetched: expired or unknown (404), refused, or the relay not reached. */
  | 'unavailable'
  /** Not a statement the relay's published keys verify: unknown kid, forged, wrong algorithm or type. */
  | 'bad-signature'
  /** Signed, but not a statement of the expected kind (a read of this dataset, a write). */
  | 'bad-claims'
  | 'hash-mismatch'
  | 'length-mismatch'
  | 'records-mismatch';

export type EvidenceCheck =
  | { ok: true; statement: string; kid: string; claims: StatementPayload }
  | { ok: false; code: EvidenceCode; message: string; statement?: string; claims?: StatementPayload };

/** What the client itself measured of a download's answer. */
export interface ReceivedRead {
  kind: 'read';
  dataset: string;
  sha256: string;
  length: number;
  records: number;
}

/**
 * A SHA-256 fed piece by piece: the plain TypeScript one by default, node:crypto's in Node, or one that hashes
 * on a worker (sha256-thread.ts, the taskpane's), whose digest comes later and whose `update` may return a
 * promise: the worker is behind, wait for it before the next update.
 */
export interface Hasher {
  update(bytes: Uint8Array): unknown;
  hex(): string | Promise<string>;
}
export const defaultHasher = (): Hasher => new Sha256();

/** The statement id an answer names, if any. */
export function statementIdOf(headers: Headers | Readonly<Record<string, string | undefined>>): string | null {
  return headers instanceof Headers ? headers.get(STATEMENT_ID_HEADER) : (headers[STATEMENT_ID_HEADER] ?? null);
}

/** The relay's published keys, per relay origin: fetched once, again when a statement names a kid not in them. */
const keySets = new WeakMap<Connection, { jwks: JSONWebKeySet; kids: Set<string> }>();

async function keysOf(conn: Connection, origin: string, kid: string): Promise<JSONWebKeySet> {
  const cached = keySets.get(conn);
  if (cached?.kids.has(kid)) return cached.jwks;
  const response = await conn.fetch(origin + JWKS_PATH, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`the relay's keys (${JWKS_PATH}) answered ${response.status}`);
  const jwks = (await response.json()) as JSONWebKeySet;
  keySets.set(conn, { jwks, kids: new Set(jwks.keys.map((k) => k.kid ?? '')) });
  return jwks;
}

function fail(code: EvidenceCode, message: string, statement?: string, claims?: StatementPayload): EvidenceCheck {
  return { ok: false, code, message, ...(statement ? { statement } : {}), ...(claims ? { claims } : {}) };
}

/**
 * Fetches statement `id` from the relay behind `conn`, verifies it, and compares it with what was received
 * (a download) or sent (a write: the hash of the body, when known; the client has no answer bytes of its
 * own to compare, it parsed them as text).
 */
export async function checkStatement(
  conn: Connection,
  id: string | null,
  received: ReceivedRead | ReceivedWrite,
): Promise<EvidenceCheck> {
  if (!id) return fail('unsigned', 'The answer came without a signed statement (not through a relay that signs).');
  return checkAt(conn, encodeURIComponent(id), received);
}

/** What the client knows of a write it sent: its body's hash and its reference, when known. */
export interface ReceivedWrite {
  kind: 'write';
  sentSha256?: string | undefined;
  writeRef?: string | undefined;
}

/**
 * The receipt of a write whose answer the client lost (so it never saw the statement id), fetched by the
 * reference it sent with the write: `unavailable` when the relay has none (it got no answer either, or does
 * not sign, or the receipt expired).
 */
export function checkReceiptByRef(conn: Connection, write: SentWrite): Promise<EvidenceCheck> {
  return checkAt(conn, `${WRITE_REF_SEGMENT}/${encodeURIComponent(write.ref)}`, { kind: 'write', sentSha256: write.sha256, writeRef: write.ref });
}

async function checkAt(conn: Connection, where: string, received: ReceivedRead | ReceivedWrite): Promise<EvidenceCheck> {
  const origin = new URL(conn.baseUrl).origin;
  let statement: string;
  try {
    const response = await conn.fetch(`${origin}${STATEMENTS_PATH}/${where}`, {
      headers: { Accept: 'application/json', Authorization: conn.authorization },
    });
    if (!response.ok) {
      // The relay's error says why (expired, not this caller's, not signed: its hashing failed).
      const why = ((await response.json().catch(() => null)) as { error?: { message?: unknown } } | null)?.error?.message;
      return fail('unavailable', `The relay did not give the statement (${response.status})${typeof why === 'string' ? `: ${why}` : '.'}`);
    }
    statement = statementAnswer.parse(await response.json()).statement;
  } catch (e) {
    return fail('unavailable', `The statement could not be fetched: ${(e as Error).message}`);
  }
  let claims: StatementPayload;
  let kid: string;
  try {
    const header = decodeProtectedHeader(statement);
    if (typeof header.kid !== 'string' || header.typ !== STATEMENT_TYPE) throw new Error('not a statement header');
    kid = header.kid;
    const jwks = await keysOf(conn, origin, kid);
    const { payload } = await compactVerify(statement, createLocalJWKSet(jwks), { algorithms: ['EdDSA', 'ES256'] });
    claims = statementPayload.parse(JSON.parse(new TextDecoder().decode(payload)));
  } catch (e) {
    return fail('bad-signature', `The statement does not verify with the relay's published keys: ${(e as Error).message}`, statement);
  }
  if (received.kind === 'write') {
    if (claims.kind !== 'write') return fail('bad-claims', 'The statement is not a write receipt.', statement, claims);
    if (received.sentSha256 !== undefined && claims.bodySha256 !== received.sentSha256)
      return fail('hash-mismatch', `The body sent differs from the one the relay signed (SHA-256 ${received.sentSha256}, signed ${claims.bodySha256}).`, statement, claims);
    if (received.writeRef !== undefined && claims.writeRef !== undefined && claims.writeRef !== received.writeRef)
      return fail('bad-claims', `The receipt is of another write (reference ${claims.writeRef}, sent ${received.writeRef}).`, statement, claims);
    return { ok: true, statement, kid, claims };
  }
  if (claims.kind !== 'read' || claims.dataset !== received.dataset)
    return fail('bad-claims', `The statement is not about a download of ${received.dataset}.`, statement, claims);
  // A projection (an implied read): what was received is the signed projection of the service's answer.
  const sent = claims.projection ?? claims;
  if (sent.length !== received.length)
    return fail('length-mismatch', `${received.length} bytes received, the relay signed ${sent.length}.`, statement, claims);
  if (sent.sha256 !== received.sha256)
    return fail('hash-mismatch', `The bytes received differ from the ones the relay signed (SHA-256 ${received.sha256}, signed ${sent.sha256}).`, statement, claims);
  if (claims.records !== received.records)
    return fail('records-mismatch', `${received.records} records received, the relay signed ${claims.records}.`, statement, claims);
  return { ok: true, statement, kid, claims };
}
