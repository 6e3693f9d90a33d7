import { Sha256, sha256Bytes } from './sha256';

/**
 * The hashing worker's side of sha256-thread.ts: SHA-256 jobs fed in batches, and rows' lines hashed one
 * by one, off the thread that reads the download and writes the workbook. The same code runs in the taskpane's Web Worker
 * (src/taskpane/tables/sha256-worker-entry.ts) and, for the benchmark and tests, under worker_threads.
 *
 * Each batch but a job's last is a whole number of 64-byte blocks, and is answered with its buffer (given
 * back to be filled again) and where the job stands after it: should the worker fail, the other side
 * carries on from there with the batches not yet answered, and the digest is the same.
 */

export type ToSha256Worker =
  /** A batch of a job's bytes; `first` starts the job, `end` ends it (the bytes may be empty). */
  | { job: number; bytes: Uint8Array; first: boolean; end: boolean }
  /** Lines hashed each on its own (rows' cell digests): line i is bytes[ends[i - 1] (or 0), ends[i]). */
  | { job: number; bytes: Uint8Array; ends: Uint32Array };

export type FromSha256Worker =
  /** The worker runs: sent once, first. */
  | { ready: true }
  /** A batch hashed: the job's state words after it. */
  | { job: number; bytes: Uint8Array; state: Int32Array }
  /** The last batch hashed: the job's digest. */
  | { job: number; bytes: Uint8Array; sha256: string }
  /** The worker does not have the job (it let it go, below): nothing of this batch was hashed. */
  | { job: number; bytes: Uint8Array; lost: true }
  /** The lines' digests, 32 bytes each, in order. */
  | { job: number; bytes: Uint8Array; digests: Uint8Array };

/** What the worker needs of its host: `self` in a browser, `parentPort` under worker_threads. */
export interface WorkerScope {
  post(message: FromSha256Worker, transfer: ArrayBuffer[]): void;
  listen(on: (message: ToSha256Worker) => void): void;
}

/**
 * Jobs kept open at most. A job the other side dropped (a download that failed part way) is never ended;
 * past this many, the least recently fed goes, and should its side send more after all, it hears `lost`.
 */
const OPEN_JOBS = 64;

export function serveSha256(scope: WorkerScope): void {
  const jobs = new Map<number, Sha256>();
  scope.listen((m) => {
    if ('ends' in m) {
      const digests = new Uint8Array(32 * m.ends.length);
      let from = 0;
      for (let i = 0; i < m.ends.length; i++) {
        sha256Bytes(m.bytes.subarray(from, m.ends[i]), digests, 32 * i);
        from = m.ends[i]!;
      }
      scope.post({ job: m.job, bytes: m.bytes, digests }, [m.bytes.buffer as ArrayBuffer, digests.buffer]);
      return;
    }
    const hash = m.first ? new Sha256() : jobs.get(m.job);
    // Set again below, so the map's first entry is the job fed least recently.
    jobs.delete(m.job);
    const back = [m.bytes.buffer as ArrayBuffer];
    if (!hash) {
      scope.post({ job: m.job, bytes: m.bytes, lost: true }, back);
      return;
    }
    hash.update(m.bytes);
    if (m.end) {
      scope.post({ job: m.job, bytes: m.bytes, sha256: hash.hex() }, back);
      return;
    }
    jobs.set(m.job, hash);
    if (jobs.size > OPEN_JOBS) jobs.delete(jobs.keys().next().value!);
    scope.post({ job: m.job, bytes: m.bytes, state: hash.midstate().state }, back);
  });
  scope.post({ ready: true }, []);
}
