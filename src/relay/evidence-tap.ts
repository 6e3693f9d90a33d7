import { createHash, type Hash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { STATEMENT_ID_HEADER, type ReadStatement, type StatementWho, type WriteReceipt } from '../contracts/evidence';
import { RecordCounter } from './record-count';

/**
 * Sees the bytes of one answer as the relay streams them (Forwarding calls it per chunk, no copy, no
 * buffering): their SHA-256, their length and, for a dataset, its records (record-count.ts). When the
 * answer's last byte has come from the service, and before it is written to the client, it signs the
 * statement and stores it under the id the answer's header already named.
 *
 * An answer the service compressed is not signed: the relay asks for `identity` on calls it taps (proxy.ts),
 * so the bytes hashed are the bytes the service sent and the bytes the client reads.
 */

/** What is known of the call before its answer: everything in the statement but the answer's own figures. */
export type ReadBase = Omit<ReadStatement, 'time' | 'status' | 'sha256' | 'length' | 'records'>;
export type WriteBase = Omit<WriteReceipt, 'time' | 'status' | 'answerSha256'>;

export interface TapSink {
  /** Signs `payload` (plus jti and iat) and stores it for `owner` under `id`. */
  issue(id: string, owner: string, payload: ReadStatement | WriteReceipt): void;
}

export class AnswerTap {
  private readonly hash: Hash = createHash('sha256');
  private readonly counter: RecordCounter | null;
  private length = 0;
  private status = 0;
  /** Ended (signed), or not to be signed (a compressed answer). */
  private over = false;

  constructor(
    private readonly sink: TapSink,
    private readonly res: ServerResponse,
    readonly id: string,
    private readonly owner: string,
    private readonly base: ReadBase | WriteBase,
  ) {
    this.counter = base.kind === 'read' ? new RecordCounter() : null;
  }

  /** The service's status and headers (before the answer's headers go out). */
  start(status: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = status;
    const encoding = headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') {
      // Compressed although asked not to be: not signed, and the answer names no statement.
      this.over = true;
      this.res.removeHeader(STATEMENT_ID_HEADER);
    }
  }

  data(chunk: Buffer): void {
    if (this.over) return;
    this.hash.update(chunk);
    this.length += chunk.length;
    this.counter?.push(chunk);
  }

  /** The answer's last byte has come: sign and store (once). */
  end(): void {
    if (this.over) return;
    this.over = true;
    const time = new Date().toISOString();
    const sha256 = this.hash.digest('hex');
    const payload: ReadStatement | WriteReceipt =
      this.base.kind === 'read'
        ? { ...this.base, time, status: this.status, sha256, length: this.length, records: this.counter!.records }
        : { ...this.base, time, status: this.status, answerSha256: sha256 };
    this.sink.issue(this.id, this.owner, payload);
  }
}

/** Who a call's statement names, from what the relay checked: a signed-in person or service, or a typed key. */
export function whoOf(person: { subject: string; name?: string; service?: string } | null, keyTag: string): StatementWho {
  if (!person) return { kind: 'key', fingerprint: `key:${keyTag}` };
  if (person.service) return { kind: 'client', clientId: person.service };
  return { kind: 'person', subject: person.subject, ...(person.name ? { name: person.name } : {}) };
}
