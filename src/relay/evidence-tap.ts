import { createHash, hash, type Hash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { STATEMENT_ID_HEADER, type ReadStatement, type StatementWho, type WriteReceipt } from '../contracts/evidence';
import { BATCH, type AnswerFigures, type AnswerHasher, type ThreadJob } from './answer-hasher';
import { RecordCounter } from './record-count';

/**
 * Sees the bytes of one answer as the relay streams them (Forwarding calls it per chunk): their SHA-256,
 * their length and, for a dataset, its records (record-count.ts). When the answer's last byte has come from
 * the service, and before it is written to the client, it signs the statement and stores it under the id
 * the answer's header already named.
 *
 * A small answer (up to SMALL) is held (the same buffers written to the client) and hashed on the event loop
 * in one call when it ends: a trip to the hashing thread, or a Hash object made and collected per answer,
 * would cost more than the hashing. With a hashing thread (answer-hasher.ts; `evidence.hashingThread`), a
 * larger one goes in batches to the thread as it streams: `data` says when that thread is behind (the
 * service is then held back until `whenCaughtUp`), and `end` returns a promise, the answer's last bytes
 * waiting for its figures. Without one, a larger answer is hashed on the event loop as it passes.
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
  /** Stores, for `owner` under `id`, why the answer has no statement (its fetch says so). */
  refuse(id: string, owner: string, why: string): void;
}

/**
 * The time as ISO 8601, formatted once a millisecond: small GETs end many to a millisecond, and formatting
 * a date is a third of what hashing one of their answers costs.
 */
let isoAt = 0;
let iso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoAt) {
    isoAt = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/** Answers up to this size are hashed on the relay's thread, at their end. */
const SMALL = 64 * 1024;

export class AnswerTap {
  /** The chunks not yet hashed (the same buffers Forwarding wrote to the client: no copy until sent). */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private length = 0;
  private status = 0;
  /** The answer on the hashing thread, once a batch has gone there. */
  private job: ThreadJob | null = null;
  /** The answer hashed on the event loop. */
  private here: { hash: Hash; counter: RecordCounter | null } | null = null;
  /** Ended (signed), or not to be signed (a compressed answer). */
  private over = false;

  constructor(
    private readonly sink: TapSink,
    /** The relay's hashing thread; null: every answer is hashed on the event loop. */
    private readonly hasher: AnswerHasher | null,
    private readonly res: ServerResponse,
    readonly id: string,
    private readonly owner: string,
    private readonly base: ReadBase | WriteBase,
  ) {}

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

  /** A chunk of the answer; false when the hashing thread is behind (hold the service until whenCaughtUp). */
  data(chunk: Buffer): boolean {
    if (this.over) return true;
    this.length += chunk.length;
    if (this.here !== null) {
      this.hashHere(chunk);
      return true;
    }
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.hasher !== null) return this.heldBytes < BATCH || this.send(false);
    // Without the thread, an answer past SMALL is hashed as it passes from here on.
    if (this.heldBytes > SMALL) this.hashHeld();
    return true;
  }

  whenCaughtUp(resume: () => void): void {
    if (this.job) this.job.whenCaughtUp(resume);
    else resume();
  }

  /**
   * The answer's last byte has come: sign and store (once). A promise when the figures come from the
   * hashing thread: the answer's end waits for it, so a client that has read its answer finds its statement.
   */
  end(): void | Promise<void> {
    if (this.over) return;
    this.over = true;
    if (this.here === null && this.job === null && this.length <= SMALL) {
      // A small answer, all of it held: hashed in one call, with no Hash object to make and collect (per
      // small GET, those cost more than the hashing).
      const bytes = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held);
      this.held = [];
      const counter = this.base.kind === 'read' ? new RecordCounter() : null;
      counter?.push(bytes);
      return this.issue({ sha256: hash('sha256', bytes, 'hex'), length: this.length, records: counter?.records ?? 0 });
    }
    if (this.job === null && this.hasher === null) {
      const here = this.hashHeld();
      return this.issue({ sha256: here.hash.digest('hex'), length: this.length, records: here.counter?.records ?? 0 });
    }
    this.send(true);
    return this.job!.result.then((figures) =>
      typeof figures === 'string' ? this.sink.refuse(this.id, this.owner, figures) : this.issue(figures),
    );
  }

  /** Hashes the held chunks on the event loop (a relay without the thread, once an answer is past SMALL). */
  private hashHeld(): { hash: Hash; counter: RecordCounter | null } {
    for (const chunk of this.held) this.hashHere(chunk);
    this.held = [];
    this.heldBytes = 0;
    return this.here ?? this.hashHere(Buffer.alloc(0));
  }

  /** Hashes and counts on the event loop: every answer past SMALL of a relay without the thread. */
  private hashHere(chunk: Buffer): { hash: Hash; counter: RecordCounter | null } {
    this.here ??= { hash: createHash('sha256'), counter: this.base.kind === 'read' ? new RecordCounter() : null };
    this.here.hash.update(chunk);
    this.here.counter?.push(chunk);
    return this.here;
  }

  /** Copies the held chunks into one buffer (shared with nothing else) and moves it to the hashing thread. */
  private send(end: boolean): boolean {
    const hasher = this.hasher!;
    if (!this.job) {
      const job = hasher.job(this.base.kind === 'read');
      this.job = job;
      // An answer that does not end (the client went away, the service broke off) is forgotten there.
      this.res.once('close', () => job.abandon());
    }
    // Not Buffer.concat: a small result of it may share Buffer's pool, which must not be moved.
    const batch = hasher.buffer(this.heldBytes);
    let at = 0;
    for (const chunk of this.held) at += chunk.copy(batch, at);
    this.held = [];
    this.heldBytes = 0;
    return this.job.post(batch, end);
  }

  private issue(figures: AnswerFigures): void {
    const time = isoNow();
    const { sha256, length, records } = figures;
    const base = this.base;
    // A read's claims one by one, not `{ ...base, ... }`: adding them to a spread copy cost about 10 µs, more
    // than hashing a small answer.
    // (Required: a claim added to the read statement's schema, even an optional one, must be listed here;
    // a projection is not made here but by evidence.ts `projected`.)
    const payload: Required<Omit<ReadStatement, 'projection'>> | WriteReceipt =
      base.kind === 'read'
        ? {
            kind: 'read',
            environment: base.environment,
            time,
            status: this.status,
            who: base.who,
            rule: base.rule,
            requestId: base.requestId,
            dataset: base.dataset,
            path: base.path,
            sha256,
            length,
            records,
          }
        : { ...base, time, status: this.status, answerSha256: sha256 };
    this.sink.issue(this.id, this.owner, payload);
  }
}

/** Who a call's statement names, from what the relay checked: a signed-in person or service, or a typed key. */
export function whoOf(person: { subject: string; name?: string; service?: string } | null, keyTag: string): StatementWho {
  if (!person) return { kind: 'key', fingerprint: `key:${keyTag}` };
  if (person.service) return { kind: 'client', clientId: person.service };
  return { kind: 'person', subject: person.subject, ...(person.name ? { name: person.name } : {}) };
}
