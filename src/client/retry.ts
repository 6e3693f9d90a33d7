/**
 * The one retry policy of grc-sheets. Every caller that may try again (a dataset read, a row's write, the
 * client's GET on a dropped kept-alive connection) runs its work through `withRetry` and says, per
 * failure, whether trying again is safe (`classify`): the loop, the waits and the limits are the same for
 * all of them, only the classification and the numbers differ.
 */

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

export interface RetryPolicy {
  /** Attempts, the first included. */
  attempts: number;
  /** A longer wait (a Retry-After) is not waited out: the caller gives up instead. */
  maxWaitMs: number;
  /**
   * Set: "busy, come back after N" waits do not count as attempts, up to this much waiting in all (a read
   * waits out a busy service). Unset: every wait counts as an attempt (a write leaves a busy row for later).
   */
  busyBudgetMs?: number;
  /** The wait before the next attempt when the failure names none; `attempt` is the one that failed (1-based). */
  backoffMs?(attempt: number): number;
}

/** What a failure means for trying again; `afterMs` is the wait the service asked for (Retry-After). */
export type RetryDecision = { retry: false } | { retry: true; afterMs?: number; busy?: boolean };

export type Retried<T> =
  | { ok: true; value: T; attempts: number }
  /** `exhausted`: the failure was retryable but the policy ran out; `cancelled`: the signal aborted during a wait. */
  | { ok: false; error: unknown; attempts: number; exhausted: boolean; cancelled: boolean };

const exponential = (attempt: number) => 100 * 2 ** (attempt - 1);

export async function withRetry<T>(
  work: (attempt: number) => Promise<T>,
  classify: (error: unknown) => RetryDecision,
  policy: RetryPolicy,
  options: { sleep?: Sleep; signal?: AbortSignal } = {},
): Promise<Retried<T>> {
  const wait = options.sleep ?? sleep;
  const signal = options.signal;
  let busyWaited = 0;
  for (let attempt = 1; ; ) {
    try {
      return { ok: true, value: await work(attempt), attempts: attempt };
    } catch (error) {
      const d = classify(error);
      const fail = (exhausted: boolean, cancelled = false): Retried<T> => ({ ok: false, error, attempts: attempt, exhausted, cancelled });
      if (!d.retry || signal?.aborted) return fail(false);
      if (d.busy && d.afterMs !== undefined && policy.busyBudgetMs !== undefined) {
        if (d.afterMs > policy.maxWaitMs || busyWaited + d.afterMs > policy.busyBudgetMs) return fail(true);
        busyWaited += d.afterMs;
        await wait(d.afterMs, signal);
        if (signal?.aborted) return fail(true, true);
        continue;
      }
      const delay = d.afterMs ?? (policy.backoffMs ?? exponential)(attempt);
      if (attempt >= policy.attempts || delay > policy.maxWaitMs) return fail(true);
      await wait(delay, signal);
      if (signal?.aborted) return fail(true, true);
      attempt++;
    }
  }
}

/**
 * The numbers per caller. Writes: a row is tried 4 times and a Retry-After over 30 s leaves it "not sent"
 * for a later Post rather than holding the run. Reads: reading changes nothing, so 4 tries with a backoff
 * of at most 5 s, and a busy service is waited out (each wait at most 30 s, two minutes per read) without
 * counting as a try. The client's GET: a kept-alive connection the server closed just as the request went
 * out is tried once more, at once, on a fresh one.
 */
export const RETRY = {
  write: { attempts: 4, maxWaitMs: 30_000 },
  read: {
    attempts: 4,
    maxWaitMs: 30_000,
    busyBudgetMs: 120_000,
    backoffMs: (attempt: number) => Math.min(exponential(attempt), 5_000),
  },
  freshConnection: { attempts: 2, maxWaitMs: 0, backoffMs: () => 0 },
} as const satisfies Record<string, RetryPolicy>;
