import { ApiError } from '../../src/client';
import type { Sent } from '../../src/writeback/flow';
import { runPool, sendWithRetry } from '../../src/writeback/post/runner';

const created: Sent = { status: 'created', guid: '11111111-1111-4111-8111-111111111111', message: 'Created' };
const noSleep = async () => undefined;
const failing = (errors: ApiError[]) => {
  let calls = 0;
  return {
    send: async () => {
      const e = errors[calls++];
      if (e) throw e;
      return created;
    },
    calls: () => calls,
  };
};

describe('sending one row', () => {
  it('retries when nothing was sent (connection refused)', async () => {
    const f = failing([new ApiError({ code: 'unreachable', message: 'refused', sent: 'no' })]);
    expect(await sendWithRetry(f.send, { sleep: noSleep })).toEqual({ ok: true, sent: created, attempts: 2 });
  });

  it('retries a 503 and a 429 that carry Retry-After, waiting as told', async () => {
    const waits: number[] = [];
    const f = failing([
      new ApiError({ code: 'unavailable', message: '503', sent: 'yes', status: 503, retryAfterMs: 1000 }),
      new ApiError({ code: 'rate-limited', message: '429', sent: 'yes', status: 429, retryAfterMs: 2000 }),
    ]);
    const r = await sendWithRetry(f.send, { sleep: async (ms) => void waits.push(ms) });
    expect(r.ok).toBe(true);
    expect(waits).toEqual([1000, 2000]);
  });

  it('Retry-After: 0 is taken at its word (again at once); a refused connection backs off by itself', async () => {
    const waits: number[] = [];
    const f = failing([
      new ApiError({ code: 'unavailable', message: '503', sent: 'yes', status: 503, retryAfterMs: 0 }),
      new ApiError({ code: 'unreachable', message: 'refused', sent: 'no' }),
    ]);
    const r = await sendWithRetry(f.send, { sleep: async (ms) => void waits.push(ms) });
    expect(r.ok).toBe(true);
    expect(waits).toEqual([0, 200]);
  });

  it('never retries an ambiguous outcome: the row becomes unknown', async () => {
    const f = failing([
      new ApiError({ code: 'outcome-unknown', message: 'connection closed mid-answer', sent: 'unknown' }),
    ]);
    const r = await sendWithRetry(f.send, { sleep: noSleep });
    expect(f.calls()).toBe(1);
    expect(r).toMatchObject({ ok: false, verdict: { kind: 'unknown' } });
    expect(!r.ok && r.verdict.message).toContain('check before retrying');
  });

  it('does not retry a rejection, and reports the service details', async () => {
    // The client's message of a rejection already lists the fields the service named.
    const f = failing([
      new ApiError({
        code: 'rejected',
        message: 'The incident was not created. Name: An incident needs a name.',
        sent: 'yes',
        status: 400,
        details: [{ field: 'Name', message: 'An incident needs a name.' }],
      }),
    ]);
    const r = await sendWithRetry(f.send, { sleep: noSleep });
    expect(f.calls()).toBe(1);
    expect(r).toMatchObject({
      ok: false,
      verdict: { kind: 'failed', message: 'The incident was not created. Name: An incident needs a name.' },
    });
  });

  it('gives up after the attempts allowed, or on a Retry-After too long, leaving the row "not sent"', async () => {
    const busy = () => new ApiError({ code: 'unavailable', message: '503', sent: 'yes', retryAfterMs: 10 });
    const f = failing([busy(), busy(), busy()]);
    expect(
      await sendWithRetry(f.send, { sleep: noSleep, retry: { attempts: 3, maxWaitMs: 1000 } }),
    ).toMatchObject({ ok: false, attempts: 3, verdict: { kind: 'not sent' } });
    const g = failing([
      new ApiError({ code: 'unavailable', message: '503', sent: 'yes', retryAfterMs: 60_000 }),
    ]);
    expect(await sendWithRetry(g.send, { sleep: noSleep })).toMatchObject({
      ok: false,
      attempts: 1,
      verdict: { kind: 'not sent' },
    });
  });

  it('stops the run when the key is refused', async () => {
    const f = failing([
      new ApiError({
        code: 'invalid-credentials',
        message: 'The credentials are invalid.',
        sent: 'yes',
        status: 401,
      }),
    ]);
    expect(await sendWithRetry(f.send, { sleep: noSleep })).toMatchObject({
      ok: false,
      verdict: { kind: 'not sent', stop: true },
    });
  });
});

describe('the pool', () => {
  function gate() {
    let open!: () => void;
    const p = new Promise<void>((r) => (open = r));
    return { p, open };
  }

  it('runs at most `concurrency` jobs at once and all of them in the end', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runPool(
      Array.from({ length: 20 }, (_, i) => ({ i })),
      { concurrency: 4 },
      async ({ i }) => {
        running++;
        peak = Math.max(peak, running);
        await Promise.resolve();
        await Promise.resolve();
        running--;
        done.push(i);
      },
    );
    expect(peak).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('runs jobs that share a key one after the other, in order', async () => {
    const order: string[] = [];
    const first = gate();
    const jobs = [
      { key: 't', n: 'a' },
      { key: 't', n: 'b' },
      { key: undefined, n: 'c' },
    ];
    const p = runPool(jobs, { concurrency: 4, keyOf: (j) => j.key }, async ({ n }) => {
      order.push(`start ${n}`);
      if (n === 'a') await first.p;
      order.push(`end ${n}`);
    });
    await Promise.resolve();
    expect(order).toEqual(['start a', 'start c', 'end c']);
    first.open();
    await p;
    expect(order).toEqual(['start a', 'start c', 'end c', 'end a', 'start b', 'end b']);
  });

  it('cancel: starts nothing new and waits for the jobs in flight to finish', async () => {
    const ctl = new AbortController();
    const inFlight = gate();
    const finished: number[] = [];
    const p = runPool(
      Array.from({ length: 10 }, (_, i) => ({ i })),
      { concurrency: 2, signal: ctl.signal },
      async ({ i }) => {
        if (i === 1) ctl.abort();
        await inFlight.p;
        finished.push(i);
      },
    );
    let settled = false;
    void p.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    inFlight.open();
    await p;
    expect(finished.sort()).toEqual([0, 1]);
  });
  it('a job that throws (a mark that could not be saved): nothing new starts, the jobs in flight finish and record their outcome, then the pool fails with that error', async () => {
    const inFlight = gate();
    const finished: number[] = [];
    const p = runPool(Array.from({ length: 10 }, (_, i) => ({ i })), { concurrency: 3 }, async ({ i }) => {
      if (i === 1) throw new Error('the save failed');
      await inFlight.p;
      finished.push(i);
    });
    let settled = false;
    let finishedWhenSettled: number[] = [];
    p.catch(() => undefined).finally(() => {
      settled = true;
      finishedWhenSettled = [...finished];
    });
    // A turn of the event loop: every microtask has run, the jobs in flight still wait.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    inFlight.open();
    await expect(p).rejects.toThrow('the save failed');
    expect(finishedWhenSettled.sort()).toEqual([0, 2]);
  });
});
