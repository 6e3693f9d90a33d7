import type { Sent } from '../flow';
import { DEFAULT_RETRY, verdictOf, type RetryPolicy, type Verdict } from './outcome';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Resolves after `ms`, or at once when the signal aborts (a cancelled run does not wait out a Retry-After). */
export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export type Attempt =
  | { ok: true; sent: Sent; attempts: number }
  | { ok: false; verdict: Exclude<Verdict, { kind: 'retry' }>; attempts: number };

/**
 * Sends once, and again only when the verdict says nothing was done: the request never reached the
 * service, or it answered 429/503 with a Retry-After within `maxWaitMs`. Anything else is final.
 */
export async function sendWithRetry(
  send: () => Promise<Sent>,
  options: { retry?: RetryPolicy; sleep?: Sleep; signal?: AbortSignal } = {},
): Promise<Attempt> {
  const policy = options.retry ?? DEFAULT_RETRY;
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, sent: await send(), attempts: attempt };
    } catch (e) {
      const v = verdictOf(e);
      if (v.kind !== 'retry') return { ok: false, verdict: v, attempts: attempt };
      // The service's Retry-After as it said it (0: at once); connection refused: back off a little, the
      // relay or the network may be restarting.
      const delay = v.afterMs ?? 100 * 2 ** (attempt - 1);
      if (attempt >= policy.attempts || delay > policy.maxWaitMs || options.signal?.aborted) {
        return {
          ok: false,
          verdict: { kind: 'not sent', message: `${v.message}; Post again to send it` },
          attempts: attempt,
        };
      }
      await wait(delay, options.signal);
      if (options.signal?.aborted)
        return {
          ok: false,
          verdict: { kind: 'not sent', message: 'Not sent: cancelled' },
          attempts: attempt,
        };
    }
  }
}

/**
 * Runs jobs with at most `concurrency` at a time, in order. Jobs that share a key run one after the
 * other in their order (two updates of one task). Once `signal` aborts no job starts, and the promise
 * resolves when the running ones have finished: cancel never cuts a request off mid-answer.
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
        work(job).then(
          () => {
            running--;
            if (key !== undefined) busy.delete(key);
            pump();
          },
          (e) => {
            failed = true;
            reject(e);
          },
        );
      }
      if (running === 0 && !failed) resolve();
    };
    pump();
  });
}
