import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';

/**
 * Hashing and counting a large answer off the relay's event loop: the relay's one thread forwards bytes at
 * a few hundred MB/s, SHA-256 and the record count together run at about as much, so on that thread they
 * halved a big download. The bytes go in copied batches to one hashing thread (hash-thread.ts) that serves
 * every answer of this relay, and its figures come back when the answer's last batch has been hashed.
 *
 * Memory stays bounded however slowly the client reads: an answer has at most IN_FLIGHT batches sent and not
 * yet hashed; past that the tap asks Forwarding to hold the service back until the thread catches up.
 *
 * A thread that fails (an error, or it exits) fails every answer it was hashing: none of them is signed,
 * and their statements say why. The next answer starts a new thread.
 */

/** One batch of an answer's bytes, its last one, or (bytes null) the answer was abandoned. */
export interface ToThread {
  id: number;
  /** Count records (a dataset download) besides hashing. */
  count: boolean;
  bytes: Uint8Array | null;
  end: boolean;
}

/** A batch hashed, its buffer given back to be filled again; the last one with the answer's figures. */
export type FromThread = { id: number; bytes: Uint8Array } | ({ id: number; bytes: Uint8Array } & AnswerFigures);

export interface AnswerFigures {
  sha256: string;
  length: number;
  records: number;
}

/** Batches of one answer sent to the thread and not yet hashed, at most (each about BATCH bytes). */
const IN_FLIGHT = 8;
/** Bytes of a larger answer sent to the hashing thread at once (one copy, one message). */
export const BATCH = 512 * 1024;
/**
 * The buffers batches are copied into go to the thread and come back, to be filled again: made anew, each
 * would be garbage in the thread, and its heap let tens of MB of them wait for a collection (a slow
 * client's download peaked at 189 MB instead of 127). At most KEPT wait here for the next batch.
 */
const POOLED = 2 * BATCH;
const KEPT = 2 * IN_FLIGHT;

// The thread runs the same TypeScript as the relay, compiled by tsx like bin/grc-sheets.js does.
const BOOT = `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(join(__dirname, 'hash-thread.ts'))});`;

/** One answer on its way through the thread. */
export class ThreadJob {
  private inFlight = 0;
  private resume: (() => void) | null = null;
  private settle!: (figures: AnswerFigures | string) => void;
  /** The figures once the last batch is hashed, or why there are none. */
  readonly result = new Promise<AnswerFigures | string>((resolve) => (this.settle = resolve));
  ended = false;
  failed = false;

  constructor(
    private readonly hasher: AnswerHasher,
    readonly id: number,
    private readonly count: boolean,
  ) {}

  /** Sends a batch (a buffer from AnswerHasher.buffer: it is moved to the thread); false when the thread is behind. */
  post(bytes: Uint8Array, end: boolean): boolean {
    if (this.failed) return true;
    if (end) this.ended = true;
    this.inFlight++;
    const message: ToThread = { id: this.id, count: this.count, bytes, end };
    this.hasher.send(message, bytes.buffer as ArrayBuffer);
    return this.inFlight < IN_FLIGHT;
  }

  /** Calls `resume` once the thread has caught up (at once if it has, or has failed); one caller at a time. */
  whenCaughtUp(resume: () => void): void {
    if (this.failed || this.inFlight < IN_FLIGHT) resume();
    else this.resume = resume;
  }

  /** The answer will not end (the client went away, the service's answer broke off): the thread forgets it. */
  abandon(): void {
    if (this.ended || this.failed) return;
    this.fail('the answer did not end');
    this.hasher.forget(this);
    this.hasher.send({ id: this.id, count: false, bytes: null, end: true });
  }

  answered(m: FromThread): void {
    this.hasher.recycle(m.bytes);
    this.inFlight--;
    if ('sha256' in m) {
      this.hasher.forget(this);
      this.settle({ sha256: m.sha256, length: m.length, records: m.records });
    } else if (this.resume && this.inFlight < IN_FLIGHT) {
      const resume = this.resume;
      this.resume = null;
      resume();
    }
  }

  fail(why: string): void {
    this.failed = true;
    this.settle(why);
    const resume = this.resume;
    this.resume = null;
    resume?.();
  }
}

export class AnswerHasher {
  private thread: Worker | null = null;
  private readonly jobs = new Map<number, ThreadJob>();
  private nextId = 1;
  private readonly pool: ArrayBuffer[] = [];

  constructor(private readonly logger: Logger) {}

  job(count: boolean): ThreadJob {
    const job = new ThreadJob(this, this.nextId++, count);
    this.jobs.set(job.id, job);
    return job;
  }

  /** A buffer of `size` bytes for a batch: from the pool when it fits (none of its memory shared). */
  buffer(size: number): Uint8Array {
    if (size > POOLED) return new Uint8Array(size);
    return new Uint8Array(this.pool.pop() ?? new ArrayBuffer(POOLED), 0, size);
  }

  recycle(bytes: Uint8Array): void {
    if (bytes.buffer.byteLength === POOLED && this.pool.length < KEPT) this.pool.push(bytes.buffer as ArrayBuffer);
  }

  send(message: ToThread, transfer?: ArrayBuffer): void {
    this.start().postMessage(message, transfer ? [transfer] : []);
  }

  forget(job: ThreadJob): void {
    this.jobs.delete(job.id);
  }

  stop(): void {
    const thread = this.thread;
    this.thread = null;
    void thread?.terminate();
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const thread = new Worker(BOOT, { eval: true });
    // The relay stops when it is told to, not when its last answer has been hashed.
    thread.unref();
    thread.on('message', (m: FromThread) => this.jobs.get(m.id)?.answered(m));
    const failed = (why: string) => {
      if (this.thread !== thread) return;
      this.thread = null;
      const jobs = [...this.jobs.values()];
      this.jobs.clear();
      if (jobs.length) this.logger.error({ answers: jobs.length, why }, 'the hashing thread failed: the answers it was hashing are not signed');
      for (const job of jobs) job.fail(`the relay's hashing thread failed while this answer passed (${why}): the relay signed nothing for it`);
    };
    thread.on('error', (e) => failed(e.message));
    thread.on('exit', (code) => failed(`it exited with code ${code}`));
    this.thread = thread;
    return thread;
  }
}
