import { z } from 'zod';

/**
 * The evidence contract between the relay (the witness), the client that fetches its statements, the
 * workbook that keeps them and `grc-sheets verify` (docs/evidence.md). The relay signs what the service
 * answered (a read statement) and what was posted (a write receipt) as a compact JWS; everything here is
 * what a verifier needs without our code: the payload's claims, where the keys are, how a statement is
 * fetched.
 */

/** The relay's public keys (JWKS, RFC 7517), older keys kept while their statements may still be verified. */
export const JWKS_PATH = '/.well-known/jwks.json';
/**
 * The relay answers every dataset download and every forwarded write with this header: the id of the
 * statement it will sign once the answer's last byte has passed (a header cannot carry a hash known only at
 * the end).
 */
export const STATEMENT_ID_HEADER = 'x-grc-sheets-statement';
/**
 * The client's fresh random reference for one write (a UUID), sent with the write: the relay signs it in the
 * write receipt (`writeRef`) and never forwards it to the service; the audit row keeps it beside the body's
 * hash, so a receipt is tied to the row that sent it, not only to its body (two rows may send identical bodies).
 */
export const WRITE_REF_HEADER = 'x-grc-write-ref';
/** What a write reference looks like (a UUID): anything else is left out of the receipt. */
export const WRITE_REF = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** GET `${STATEMENTS_PATH}/${id}` → `{ statement: <compact JWS> }`; 404 once expired or unknown. */
export const STATEMENTS_PATH = '/api/evidence/statements';
/**
 * GET `${STATEMENTS_PATH}/${WRITE_REF_SEGMENT}/${writeRef}`: a write's receipt by the client's reference, for
 * a write whose answer (and so the statement id) the client lost; only the caller that sent it gets it.
 */
export const WRITE_REF_SEGMENT = 'ref';
/** The JWS protected header's `typ`. */
export const STATEMENT_TYPE = 'grc-sheets-statement+jwt';

/** Who the relay let through: a signed-in person, a service client, or a typed key (personal-key mode). */
export const statementWho = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('person'), subject: z.string(), name: z.string().optional() }),
  z.object({ kind: z.literal('client'), clientId: z.string() }),
  z.object({ kind: z.literal('key'), fingerprint: z.string() }),
]);
export type StatementWho = z.infer<typeof statementWho>;

const common = {
  /** The relay's environment name and the service's host it forwarded to. */
  environment: z.object({ name: z.string(), host: z.string() }),
  /** ISO 8601 UTC, when the answer's last byte passed. */
  time: z.string(),
  /** The service's HTTP status. */
  status: z.number().int(),
  who: statementWho,
  /** The policy rule that allowed the call ("personal key" where no policy applies). */
  rule: z.string(),
  /** The relay's request id, also in its log. */
  requestId: z.string(),
};

/** A dataset download the relay passed on: hash, length and record count of the bytes the service sent. */
export const readStatement = z.object({
  kind: z.literal('read'),
  ...common,
  /** The catalogue's dataset id and the path (with query) the relay asked the service for. */
  dataset: z.string(),
  path: z.string(),
  /** Lower-case hex SHA-256 of the answer's bytes as the service sent them (after any content decoding). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  length: z.number().int().nonnegative(),
  records: z.number().int().nonnegative(),
  /**
   * Present when the caller was sent a projection, not the answer (an implied read, docs/relay.md): each of
   * the service's records cut to `fields`. `sha256` and `length` are then of the bytes sent to the caller; the
   * claims above stay those of the service's answer, whose records are all there, cut.
   */
  projection: z
    .object({ fields: z.array(z.string()), sha256: z.string().regex(/^[0-9a-f]{64}$/), length: z.number().int().nonnegative() })
    .optional(),
});
export type ReadStatement = z.infer<typeof readStatement>;

/** A write the relay forwarded: what was sent and what the service answered. */
export const writeReceipt = z.object({
  kind: z.literal('write'),
  ...common,
  method: z.string(),
  path: z.string(),
  /** Hex SHA-256 of the body bytes sent to the service, and of the service's answer's bytes. */
  bodySha256: z.string().regex(/^[0-9a-f]{64}$/),
  answerSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The client's reference of this write (WRITE_REF_HEADER); absent when the client sent none. */
  writeRef: z.string().regex(WRITE_REF).optional(),
});
export type WriteReceipt = z.infer<typeof writeReceipt>;

export const statementPayload = z.discriminatedUnion('kind', [readStatement, writeReceipt]);
export type StatementPayload = z.infer<typeof statementPayload>;

/** The answer of GET `${STATEMENTS_PATH}/${id}`. */
export const statementAnswer = z.object({ statement: z.string() });
