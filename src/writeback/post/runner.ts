import { RETRY, withRetry, type RetryDecision, type RetryPolicy, type Sleep } from '../../client';
import type { Sent } from '../flow';
import { verdictOf, type Verdict } from './outcome';

export type Attempt =
  | { ok: true; sent: Sent; attempts: number }
  | { ok: false; verdict: Exclude<Verdict, { kind: 'retry' }>; attempts: number };

/** A write's failures: tried again only when nothing was done (outcome.ts). */
const classifyWrite = (e: unknown): RetryDecision => {
  const v = verdictOf(e);
  return v.kind === 'retry' ? { retry: true, ...(v.afterMs === undefined ? {} : { afterMs: v.afterMs }) } : { retry: false };
};

/**
 * Sends once, and again only when the verdict says nothing was done: the request never reached the
 * service, or it answered 429/503 with a Retry-After within the policy's longest wait. Anything else is
 * final; a retryable failure the policy runs out on leaves the row "not sent".
 */
export async function sendWithRetry(
  send: () => Promise<Sent>,
  options: { retry?: RetryPolicy; sleep?: Sleep; signal?: AbortSignal } = {},
): Promise<Attempt> {
  const r = await withRetry(send, classifyWrite, options.retry ?? RETRY.write, options);
  if (r.ok) return { ok: true, sent: r.value, attempts: r.attempts };
  const v = verdictOf(r.error);
  if (v.kind !== 'retry') return { ok: false, verdict: v, attempts: r.attempts };
  const message = r.cancelled ? 'Not sent: cancelled' : `${v.message}; Post again to send it`;
  return { ok: false, verdict: { kind: 'not sent', message }, attempts: r.attempts };
}

/**
 * Runs jobs with at most `concurrency` at a time, in order. Jobs that share a key run one after the
 * other in their order (two updates of one task). Once `signal` aborts no job starts, and the promise
 * resolves when the running ones have finished: cancel never cuts a request off mid-answer. A job that
 * throws (a mark the workbook could not save) stops the pool the same way, which then fails with the
 * first error: no row is still being sent, its outcome unwritten, once the run has given up.
 */
export function runPool<J>(
  jobs: readonly J[],
  options: { concurrency: number; signal?: AbortSignal; keyOf?: (job: J) => string | undefined },
  work: (job: J) => Promise<void>,
): Promise<void> {
  const { concurrency, signal } = options;
  const keyOf = options.keyOf ?? (() => undefined);
  const queue = [...jobs];
  const busy = new Set<string>();
  let running = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    let error: unknown;
    const pick = (): J | undefined => {
      const blocked = new Set<string>();
      for (let i = 0; i < queue.length; i++) {
        const k = keyOf(queue[i]!);
        if (k === undefined) return queue.splice(i, 1)[0];
        if (!busy.has(k) && !blocked.has(k)) return queue.splice(i, 1)[0];
        blocked.add(k);
      }
      return undefined;
    };
    const pump = () => {
      while (!failed && !signal?.aborted && running < Math.max(1, concurrency)) {
        const job = pick();
        if (!job) break;
        running++;
        const key = keyOf(job);
        if (key !== undefined) busy.add(key);
        const done = () => {
          running--;
          if (key !== undefined) busy.delete(key);
          pump();
        };
        work(job).then(done, (e) => {
          if (!failed) error = e;
          failed = true;
          done();
        });
      }
      if (running === 0) {
        if (failed) reject(error);
        else resolve();
      }
    };
    pump();
  });
}
