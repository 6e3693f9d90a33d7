import { Sha256, sha256Bytes, type Midstate } from './sha256';
import type { FromSha256Worker, ToSha256Worker } from './sha256-worker';
import type { Hasher } from './statement-check';

/**
 * SHA-256 off the taskpane's main thread. A load hashes about twice its download (the bytes, for the relay's
 * signed statement, and the records' canonical lines, for the record fingerprint): in plain TypeScript on
 * the thread that also splits the JSON and writes the workbook, that made a load half as long again. Here
 * the bytes are copied into batches that go to one worker (sha256-worker.ts) as they come, so the hashing
 * overlaps the download and the writes; each digest is the one the plain TypeScript SHA-256 gives.
 *
 * Memory stays bounded: a job has at most IN_FLIGHT batches sent and not yet hashed (a longer update may
 * send a few more at once); past that its `update` returns a promise and the download waits for the worker.
 *
 * Never wrong, and never stuck on the worker: each batch sent is kept until the worker has hashed it, and
 * each answer says where the job stands after it. If the worker cannot start (no Worker, a Content-Security-
 * Policy that refuses it, no answer within START_MS) or fails later, every job carries on on this thread
 * from its last answered batch, and later jobs hash here from the start.
 */

/** The worker's host: a Web Worker in the taskpane, worker_threads in the benchmark and tests. */
export interface HashPort {
  post(message: ToSha256Worker, transfer: ArrayBuffer[]): void;
  /** `on` gets every message; `failed` is called (at most once) when the worker cannot start or stops. */
  listen(on: (message: FromSha256Worker) => void, failed: (why: string) => void): void;
  stop(): void;
}

/**
 * Bytes a batch holds (a whole number of 64-byte blocks). Large, so that a download of 120 MB is about a
 * hundred messages: on a busy machine each one can cost the sender its time slice (it wakes the worker).
 */
const BATCH = 1024 * 1024;
/** Batches of one job sent and not yet hashed before its `update` asks the caller to wait. */
const IN_FLIGHT = 3;
/** Batch buffers kept for reuse (the pool is shared by the jobs). */
const KEPT = 8;
/** A worker that has not said it runs after this long is given up for this thread. */
const START_MS = 10_000;

export interface ThreadOptions {
  /** Default 10 s. */
  startMs?: number;
  /** Bytes per batch, a multiple of 64; default 1 MiB (tests use less). */
  batchBytes?: number;
}

/** Where every SHA-256 starts: no bytes hashed. */
const START: Midstate = new Sha256().midstate();

export class Sha256Thread {
  private port: HashPort | null = null;
  /** Why the worker is not used (it could not start, or failed): the jobs hash on this thread. */
  private failure: string | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  /** Jobs with batches in flight, by number: the worker's answers go to them. */
  private readonly jobs = new Map<number, Answered>();
  private nextJob = 1;
  private readonly pool: ArrayBuffer[] = [];

  private readonly startMs: number;
  readonly batchBytes: number;

  constructor(
    private readonly start: () => HashPort,
    options: ThreadOptions = {},
  ) {
    this.startMs = options.startMs ?? START_MS;
    this.batchBytes = options.batchBytes ?? BATCH;
    if (this.batchBytes <= 0 || this.batchBytes % 64) throw new RangeError(`a batch is a whole number of 64-byte blocks, not ${this.batchBytes} bytes`);
  }

  /** A SHA-256 fed piece by piece, hashed on the worker; on this thread when the worker is not there. */
  readonly hasher = (): Hasher => (this.failure !== null ? new Sha256() : new ThreadJob(this, this.nextJob++));

  /** Lines (rows' cell digests) hashed one by one on the worker; on this thread when the worker is not there. */
  readonly lineDigests = (): LineDigests => (this.failure !== null ? linesHere : new ThreadLines(this, this.nextJob++));

  /** Why the jobs hash on this thread, or null while the worker is (or may be) used. */
  get failed(): string | null {
    return this.failure;
  }

  /** Ends the worker; jobs not finished carry on on this thread. */
  stop(why = 'stopped'): void {
    this.fail(why);
  }

  /** A buffer of a batch's bytes, from the pool when there is one. */
  buffer(): Uint8Array {
    return new Uint8Array(this.pool.pop() ?? new ArrayBuffer(this.batchBytes));
  }

  recycle(bytes: Uint8Array): void {
    if (bytes.buffer.byteLength === this.batchBytes && this.pool.length < KEPT) this.pool.push(bytes.buffer as ArrayBuffer);
  }

  /** Sends a job's batch (its buffer is moved to the worker); false when the worker has failed. */
  send(job: Answered, message: ToSha256Worker): boolean {
    const port = this.failure === null ? this.open() : null;
    if (!port) return false;
    this.jobs.set(job.id, job);
    port.post(message, [message.bytes.buffer as ArrayBuffer]);
    return true;
  }

  /** The job has no batch in flight: it is not kept here (a job its owner dropped is then collected). */
  idle(job: Answered): void {
    this.jobs.delete(job.id);
  }

  private open(): HashPort | null {
    if (this.port) return this.port;
    let port: HashPort;
    try {
      port = this.start();
    } catch (e) {
      this.fail(`the hashing worker could not start: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
    this.port = port;
    this.startTimer = setTimeout(() => this.fail(`the hashing worker did not start within ${this.startMs / 1000} s`), this.startMs);
    // Node: a worker that does not start does not keep the process alive for 10 s.
    (this.startTimer as { unref?: () => void }).unref?.();
    port.listen(
      (m) => {
        if (this.port !== port) return;
        if ('ready' in m) this.started();
        else this.jobs.get(m.job)?.answered(m);
      },
      (why) => {
        if (this.port === port) this.fail(`the hashing worker failed: ${why}`);
      },
    );
    return port;
  }

  private started(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
  }

  private fail(why: string): void {
    this.started();
    const port = this.port;
    this.port = null;
    this.failure ??= why;
    port?.stop();
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) job.hashHere();
  }
}

/** What the thread routes the worker's answers to. */
interface Answered {
  readonly id: number;
  answered(m: Exclude<FromSha256Worker, { ready: true }>): void;
  /** The worker is not used for this job from now: what it has not answered is hashed here. */
  hashHere(): void;
}

/**
 * Lines hashed each on its own, their digests written where the caller says once the worker has hashed them:
 * the rows' cell digests of a load (src/loading/tableprint.ts), which are needed only when the load ends.
 */
export interface LineDigests {
  /** Hashes `line` (copied now) into out[to, to + 32), now or later. */
  add(line: Uint8Array, out: Uint8Array, to: number): void;
  /** A promise while the worker is behind: wait for it before adding more. */
  paced(): Promise<void> | undefined;
  /** Resolves once every digest added is written. */
  settled(): Promise<void>;
}

interface LineBatch {
  bytes: Uint8Array;
  ends: number[];
  outs: Uint8Array[];
  tos: number[];
}

class ThreadLines implements LineDigests, Answered {
  private batch: LineBatch;
  private filled = 0;
  /** Batches sent and not yet answered, oldest first: kept until the worker has hashed them. */
  private readonly sent: LineBatch[] = [];
  private here = false;
  private resume: (() => void) | null = null;
  private done: (() => void) | null = null;

  constructor(
    private readonly thread: Sha256Thread,
    readonly id: number,
  ) {
    this.batch = this.fresh();
  }

  add(line: Uint8Array, out: Uint8Array, to: number): void {
    if (this.here || line.length > this.batch.bytes.length) {
      sha256Bytes(line, out, to);
      return;
    }
    if (this.filled + line.length > this.batch.bytes.length) this.sendBatch();
    if (this.here) {
      sha256Bytes(line, out, to);
      return;
    }
    const b = this.batch;
    b.bytes.set(line, this.filled);
    this.filled += line.length;
    b.ends.push(this.filled);
    b.outs.push(out);
    b.tos.push(to);
  }

  paced(): Promise<void> | undefined {
    if (this.sent.length < IN_FLIGHT) return undefined;
    return new Promise((resolve) => (this.resume = resolve));
  }

  settled(): Promise<void> {
    if (this.batch.ends.length) this.sendBatch();
    if (!this.sent.length) return Promise.resolve();
    return new Promise((resolve) => (this.done = resolve));
  }

  answered(m: Exclude<FromSha256Worker, { ready: true }>): void {
    this.thread.recycle(m.bytes);
    if (!('digests' in m)) return;
    const b = this.sent.shift()!;
    this.thread.recycle(b.bytes);
    for (let i = 0; i < b.outs.length; i++) b.outs[i]!.set(m.digests.subarray(32 * i, 32 * i + 32), b.tos[i]!);
    if (!this.sent.length) this.thread.idle(this);
    this.wake();
  }

  hashHere(): void {
    if (this.here) return;
    this.here = true;
    this.thread.idle(this);
    for (const b of this.sent.splice(0)) hashLines(b, b.ends.length);
    hashLines(this.batch, this.batch.ends.length);
    this.batch = { bytes: new Uint8Array(0), ends: [], outs: [], tos: [] };
    this.filled = 0;
    this.wake();
  }

  private fresh(): LineBatch {
    return { bytes: this.thread.buffer(), ends: [], outs: [], tos: [] };
  }

  private sendBatch(): void {
    const b = this.batch;
    const kept: LineBatch = { ...b, bytes: b.bytes.subarray(0, this.filled) };
    const wire = this.thread.buffer().subarray(0, this.filled);
    wire.set(kept.bytes);
    this.sent.push(kept);
    this.batch = this.fresh();
    this.filled = 0;
    if (!this.thread.send(this, { job: this.id, bytes: wire, ends: Uint32Array.from(b.ends) })) this.hashHere();
  }

  private wake(): void {
    if (this.resume && this.sent.length < IN_FLIGHT) {
      const resume = this.resume;
      this.resume = null;
      resume();
    }
    if (this.done && !this.sent.length) {
      const done = this.done;
      this.done = null;
      done();
    }
  }
}

/** Lines hashed here at once. */
const linesHere: LineDigests = { add: sha256Bytes, paced: () => undefined, settled: () => Promise.resolve() };

/** The first `n` lines of a batch hashed here, into their places. */
function hashLines(b: LineBatch, n: number): void {
  let from = 0;
  for (let i = 0; i < n; i++) {
    sha256Bytes(b.bytes.subarray(from, b.ends[i]), b.outs[i]!, b.tos[i]!);
    from = b.ends[i]!;
  }
}

/** One SHA-256 fed to the worker in batches; `hex` resolves with its digest. */
class ThreadJob implements Hasher, Answered {
  /** The batch being filled, and how far. */
  private batch: Uint8Array;
  private filled = 0;
  /** Batches sent and not yet answered, oldest first: kept until the worker has hashed them. */
  private readonly sent: Uint8Array[] = [];
  /** Where the job stands after the last answered batch. */
  private answeredUpTo: Midstate = START;
  private first = true;
  private ended = false;
  /** The hash on this thread, once the worker is not used for this job. */
  private here: Sha256 | null = null;
  private resume: (() => void) | null = null;
  private settle!: (digest: string) => void;
  private readonly digest = new Promise<string>((resolve) => (this.settle = resolve));

  constructor(
    private readonly thread: Sha256Thread,
    readonly id: number,
  ) {
    this.batch = thread.buffer();
  }

  update(bytes: Uint8Array): Promise<void> | undefined {
    if (this.ended) throw new Error('SHA-256 updated after its digest was asked for');
    for (let at = 0; at < bytes.length; ) {
      if (this.here) {
        this.here.update(bytes.subarray(at));
        return undefined;
      }
      const take = Math.min(this.batch.length - this.filled, bytes.length - at);
      this.batch.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === this.batch.length) this.sendBatch();
    }
    if (this.sent.length < IN_FLIGHT) return undefined;
    return new Promise((resolve) => (this.resume = resolve));
  }

  hex(): Promise<string> {
    if (!this.ended) {
      this.ended = true;
      if (this.here) this.settle(this.here.hex());
      else this.sendBatch();
    }
    return this.digest;
  }

  answered(m: Exclude<FromSha256Worker, { ready: true }>): void {
    const batch = this.sent.shift()!;
    this.thread.recycle(m.bytes);
    if ('lost' in m) {
      // Nothing of this batch was hashed there: it goes first again.
      this.sent.unshift(batch);
      this.hashHere();
      return;
    }
    this.thread.recycle(batch);
    if ('state' in m) this.answeredUpTo = { state: m.state, length: this.answeredUpTo.length + batch.length };
    else if ('sha256' in m) this.settle(m.sha256);
    if (!this.sent.length) this.thread.idle(this);
    if (this.resume && this.sent.length < IN_FLIGHT) this.wake();
  }

  /** Carries on on this thread from the last answered batch: the worker is not used for this job from now. */
  hashHere(): void {
    if (this.here) return;
    const here = new Sha256(this.answeredUpTo);
    for (const batch of this.sent.splice(0)) here.update(batch);
    this.here = here;
    this.thread.idle(this);
    if (this.ended) this.settle(here.hex());
    else here.update(this.batch.subarray(0, this.filled));
    this.wake();
  }

  /** Sends the batch being filled (the last one when the job has ended) and starts a new one. */
  private sendBatch(): void {
    const wire = this.thread.buffer().subarray(0, this.filled);
    wire.set(this.batch.subarray(0, this.filled));
    const kept = this.batch.subarray(0, this.filled);
    this.sent.push(kept);
    const message: ToSha256Worker = { job: this.id, bytes: wire, first: this.first, end: this.ended };
    this.first = false;
    this.filled = 0;
    if (!this.ended) this.batch = this.thread.buffer();
    if (!this.thread.send(this, message)) this.hashHere();
  }

  private wake(): void {
    const resume = this.resume;
    this.resume = null;
    resume?.();
  }
}
