import { decodeJwt, type JSONWebKeySet } from 'jose';
import { writeReceipt, type WriteReceipt } from '../contracts/evidence';
import type { Cell } from '../workbook/port';
import { RELAY_RECEIPT, SENT_BODIES } from '../writeback/audit';
import { NO_RECEIPT, NO_WRITE, RECEIPT_SEPARATOR, sentWrites } from '../writeback/post/receipts';
import { checkSignature } from './signature';

/** What verify found of the audit rows' receipts (docs/evidence.md "Write receipts"). */
export interface ReceiptsFinding {
  /** Rows holding receipts, rows saying the relay gave none (`no receipt: CODE`), rows that got no answer. */
  signed: number;
  unsigned: number;
  nothingSent: number;
  /** Whether signatures were checked (--jwks given). */
  signatures: 'checked' | 'unchecked';
  /** Whether each receipt's body hash was compared with the row's Sent body SHA-256 (audit tables made before that column: not). */
  bodies: 'checked' | 'not recorded';
  /**
   * Receipts whose write reference was found in their row (`tied`), and receipts that sign none (a client or
   * relay before references: only their body ties them to the row, and two rows that sent identical bodies
   * cannot be told apart).
   */
  references: { tied: number; untied: number };
  /** The row, and the column of the cell at fault: the Relay receipt's, or the Sent body SHA-256's. */
  problems: { row: number; column: number; problem: ReceiptProblem; message: string }[];
}

export type ReceiptProblem = 'receipt-removed' | 'forged' | 'unknown-key' | 'malformed' | 'not-this-row' | 'copied' | 'body-mismatch' | 'other-write';

/** Results that mean the service took the row's write. */
const WRITTEN = new Set(['created', 'done']);
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Each audit row's receipts, for an audit table that has the Relay receipt column (older ones have none),
 * from its first chained row (`from`: rows above were written before the column existed): every row says
 * something there (receipts, why none, or that no answer came), so a blank cell was cleared; each receipt must verify
 * with the relay's keys (when given), be a write receipt of this row (its environment, who ran it, its
 * status agreeing with the row's Result, the path naming the row's GUID when it names one, and, where the
 * table has the Sent body SHA-256 column, the write reference it signs being one this row sent, with the
 * same body hash; a receipt that signs no reference: the body it signed being one this row sent) and appear in no
 * other row (a receipt copied over from another row).
 */
export async function checkReceipts(
  table: { columns: readonly string[]; rows: readonly (readonly Cell[])[] },
  column: number,
  jwks: JSONWebKeySet | null,
  at: (row: number, column: number) => string,
  from = 0,
): Promise<ReceiptsFinding> {
  const col = (name: string) => table.columns.indexOf(name);
  const bodiesAt = col(SENT_BODIES);
  const [result, guidAt, env, person] = ['Result', 'GUID', 'Environment', 'Person ID'].map(col) as [number, number, number, number];
  // The key's fingerprint: its own column, or Who in audit tables of the earlier layout.
  const who = col('Key fingerprint') >= 0 ? col('Key fingerprint') : col('Who');
  const text = (r: readonly Cell[], i: number) => (i < 0 || r[i] === null || r[i] === undefined ? '' : String(r[i]));
  const out: ReceiptsFinding = { signed: 0, unsigned: 0, nothingSent: 0, signatures: jwks ? 'checked' : 'unchecked', bodies: bodiesAt < 0 ? 'not recorded' : 'checked', references: { tied: 0, untied: 0 }, problems: [] };
  const seen = new Map<string, number>();
  for (let r = from; r < table.rows.length; r++) {
    const row = table.rows[r]!;
    const cell = text(row, column).trim();
    const status = text(row, result);
    const problem = (p: ReceiptProblem, why: string, c = column) => out.problems.push({ row: r, column: c, problem: p, message: `Audit entry at ${at(r, c)}: ${why}` });
    if (!cell) {
      problem('receipt-removed', `its ${RELAY_RECEIPT} is blank (the row's Result: ${status || 'blank'}), where every entry says what the relay signed of its writes, why it signed none, or that no answer came: the receipt was removed.`);
      continue;
    }
    if (cell === NO_WRITE) {
      out.nothingSent++;
      continue;
    }
    if (cell.startsWith(NO_RECEIPT)) {
      out.unsigned++;
      continue;
    }
    out.signed++;
    const receipts = cell.split(RECEIPT_SEPARATOR).map((s) => s.trim()).filter(Boolean);
    const sent = sentWrites(text(row, bodiesAt));
    const sentBodies = sent.map((w) => w.sha256);
    for (const [i, jws] of receipts.entries()) {
      const name = receipts.length > 1 ? `its receipt ${i + 1}` : 'its receipt';
      let claims: WriteReceipt | null = null;
      if (jwks) {
        const sig = await checkSignature(jws, jwks);
        if (sig.status !== 'valid') {
          problem(sig.status, `${name} does not verify: ${sig.message}.`);
          continue;
        }
        claims = sig.payload.kind === 'write' ? sig.payload : null;
      } else {
        try {
          const parsed = writeReceipt.safeParse(decodeJwt(jws));
          claims = parsed.success ? parsed.data : null;
        } catch {
          claims = null;
        }
      }
      if (!claims) {
        problem('malformed', `${name} is not a relay write receipt.`);
        continue;
      }
      const earlier = seen.get(claims.requestId);
      if (earlier !== undefined) problem('copied', `${name} (request ${claims.requestId}) is also the receipt of the entry at ${at(earlier, column)}: copied from another row.`);
      seen.set(claims.requestId, r);
      const wrong: string[] = [];
      if (env >= 0 && claims.environment.name !== text(row, env)) wrong.push(`environment ${claims.environment.name}, not ${text(row, env)}`);
      const w = claims.who;
      if (w.kind === 'key' && who >= 0 && w.fingerprint !== text(row, who)) wrong.push(`sent with key ${w.fingerprint}, not ${text(row, who)}`);
      if (w.kind === 'person' && person >= 0 && w.subject !== text(row, person)) wrong.push(`sent by ${w.subject}, not ${text(row, person) || 'the row\'s key holder'}`);
      if (w.kind === 'client' && person >= 0 && w.clientId !== text(row, person)) wrong.push(`sent by service client ${w.clientId}, not ${text(row, person) || 'the row\'s key holder'}`);
      const guid = text(row, guidAt).toLowerCase();
      const inPath = (claims.path.match(GUID) ?? []).map((g) => g.toLowerCase());
      if (guid && inPath.length && !inPath.includes(guid)) wrong.push(`${claims.method} ${claims.path} names another record than ${guid}`);
      if (!/^(POST|PUT|PATCH|DELETE)$/.test(claims.method)) wrong.push(`method ${claims.method} is not a write`);
      // The last write of a row the service took was answered 2xx.
      if (WRITTEN.has(status) && i === receipts.length - 1 && (claims.status < 200 || claims.status > 299)) wrong.push(`the service answered ${claims.status}, but the row says ${status}`);
      // A receipt that signs a write reference must find it in its row: the client that sent one recorded it.
      const write = claims.writeRef === undefined ? undefined : sent.find((w) => w.ref === claims.writeRef);
      if (claims.writeRef === undefined || bodiesAt < 0) out.references.untied++;
      else if (write) out.references.tied++;
      if (wrong.length) problem('not-this-row', `${name} is not of this row's write: ${wrong.join('; ')}.`);
      else if (bodiesAt >= 0 && claims.writeRef !== undefined && !write)
        problem(
          'other-write',
          `${name} signs write reference ${claims.writeRef}, which this row's ${SENT_BODIES} does not hold: it is the receipt of another write (another row's or another workbook's, even one that sent the same body), or the row's reference was edited.`,
        );
      else if (bodiesAt >= 0 && (write ? write.sha256 !== claims.bodySha256 : !sentBodies.includes(claims.bodySha256)))
        problem(
          'body-mismatch',
          `${name} signs a body with SHA-256 ${claims.bodySha256}, but this row's ${SENT_BODIES} (${sentBodies.length ? sentBodies.join(', ') : 'blank'}) names ${write ? `${write.sha256} for its write ${write.ref}` : 'no such body'}: the receipt was moved from another row or the body hash was edited.`,
          bodiesAt,
        );
    }
  }
  return out;
}
