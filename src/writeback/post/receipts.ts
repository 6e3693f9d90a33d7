import type { Answer, SentWrite } from '../../catalog';
import type { WritebackApi } from '../api';

/** Between the receipts of one row's writes (a create and its follow-up step, a retry after a refusal). */
export const RECEIPT_SEPARATOR = '\n';
/** How an audit cell says the relay gave no receipt it could check, followed by the client's reason. */
export const NO_RECEIPT = 'no receipt: ';
/**
 * How an audit cell says the service answered none of the row's requests in its run (not sent, an answer
 * lost, or a record found already made): every audit row written since the column exists says something,
 * so a blank one was cleared.
 */
export const NO_WRITE = 'none: no answer from the service in this run';

/** What the audit row keeps of one row's writes: the relay's receipts and the hashes of the bodies sent. */
export interface RowReceipt {
  /** The Relay receipt cell. */
  receipts: string;
  /**
   * The Sent body SHA-256 cell: each write the row sent, answered or not, one a line in the order sent: the
   * hash of its body and the client's reference of it (sentLine); each receipt's `bodySha256` and `writeRef`
   * must be one line's. Empty when nothing was sent.
   */
  sentBodies: string;
}

/** One line of the Sent body SHA-256 cell: the body's SHA-256, a space, the write's reference (audit tables before references: the hash alone). */
export const sentLine = (write: SentWrite) => `${write.sha256} ${write.ref}`;

/** A Sent body SHA-256 cell's lines read back: hash and reference (empty in lines written before references). */
export function sentWrites(cell: string): { sha256: string; ref: string }[] {
  return cell
    .split(RECEIPT_SEPARATOR)
    .map((line) => line.trim().toLowerCase())
    .filter(Boolean)
    .map((line) => {
      const [sha256 = '', ref = ''] = line.split(/\s+/);
      return { sha256, ref };
    });
}

/**
 * One row's writes, as the relay signed them (docs/evidence.md "Write receipts"): the api the row sends
 * through keeps each write as it goes and each answer; `cell` then fetches their receipts, a lost answer's
 * by the write's reference. The receipts cell holds the compact JWS of each receipt, one a line; `no
 * receipt: CODE` when no answer had one that checks (a relay that does not sign, a receipt expired);
 * NO_WRITE when no answer came and the relay has no receipt either (not sent, or the answer was lost).
 */
export function receiptRecorder(api: WritebackApi): { api: WritebackApi; cell(): Promise<RowReceipt> } {
  const answers: Answer[] = [];
  const sent: SentWrite[] = [];
  /**
   * In the order sent: each answered write's receipt by its answer, and each write whose answer was lost by
   * its reference (the relay may have had the answer); answers of an api that does not report its writes
   * (`sent`) after them.
   */
  async function receiptsCell(): Promise<string> {
    type Check = { ok: boolean; statement?: string; code?: string };
    const none = async (code: string): Promise<Check> => ({ ok: false, code });
    const guarded = (p: Promise<Check>) => p.catch((): Check => ({ ok: false, code: 'unavailable' }));
    const answered = (a: Answer) => ({ answered: true, check: () => (api.receipt ? guarded(api.receipt(a)) : none('unsigned')) });
    const jobs = [
      ...sent.map((w) => {
        const a = answers.find((x) => x.writeRef === w.ref);
        return a ? answered(a) : { answered: false, check: () => (api.receiptOf ? guarded(api.receiptOf(w)) : none('unsigned')) };
      }),
      ...answers.filter((a) => !sent.some((w) => w.ref === a.writeRef)).map(answered),
    ];
    const checks = await Promise.all(jobs.map(async (j) => ({ answered: j.answered, result: await j.check() })));
    const signed = checks.flatMap((c) => (c.result.ok && c.result.statement ? [c.result.statement] : []));
    if (signed.length) return signed.join(RECEIPT_SEPARATOR);
    const first = checks.find((c) => c.answered);
    return first ? `${NO_RECEIPT}${first.result.code ?? 'unavailable'}` : NO_WRITE;
  }
  return {
    api: {
      download: (id, o) => api.download(id, o),
      send: async (op, request, o) => {
        // Each write is kept as it goes: one whose answer is lost (or refused) is still in the audit row.
        const answer = await api.send(op, request, {
          ...o,
          sent: (write) => {
            sent.push(write);
            o?.sent?.(write);
          },
        });
        answers.push(answer);
        return answer;
      },
    },
    async cell() {
      const sentBodies = sent.map(sentLine).join(RECEIPT_SEPARATOR);
      return { receipts: await receiptsCell(), sentBodies };
    },
  };
}

/**
 * A row recorded twice in one run (an unknown outcome, then found in the service or sent again) keeps the
 * writes of both in its audit row: the first send's body and reference stay, though its answer was lost.
 * Receipts: those of both, in the order sent; otherwise the later cell, unless it says nothing came where
 * the earlier says why the relay signed none.
 */
export function joinReceipts(earlier: RowReceipt | undefined, later: RowReceipt | undefined): RowReceipt | undefined {
  if (!earlier || !later) return later ?? earlier;
  const signed = (cell: string) => (cell === NO_WRITE || cell.startsWith(NO_RECEIPT) ? [] : [cell]);
  const both = [...signed(earlier.receipts), ...signed(later.receipts)];
  const receipts = both.length ? both.join(RECEIPT_SEPARATOR) : later.receipts === NO_WRITE ? earlier.receipts : later.receipts;
  return { receipts, sentBodies: [earlier.sentBodies, later.sentBodies].filter(Boolean).join(RECEIPT_SEPARATOR) };
}