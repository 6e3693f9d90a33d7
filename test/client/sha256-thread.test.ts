import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { Sha256Thread, type HashPort, type LineDigests } from '../../src/client/sha256-thread';
import type { Hasher } from '../../src/client';
import { nodeHashPort, startNodeHashWorker } from '../support/sha256-thread-node';

/**
 * The taskpane's hashing worker (src/client/sha256-thread.ts, sha256-worker.ts), here on worker_threads as the
 * load benchmark runs it: its digests are node:crypto's whatever the pieces, and a worker that cannot start,
 * never answers, dies part way or lets a job go leaves every digest right, finished on this thread.
 */

/** Bytes that differ from block to block (a seeded xorshift), so a batch hashed twice or skipped shows. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed | 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s;
  }
  return out;
}

const node = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Feeds `data` in pieces of `piece` bytes, waiting whenever the hasher asks to; its digest and how often it asked. */
async function feed(hash: Hasher, data: Uint8Array, piece: number): Promise<{ hex: string; waits: number }> {
  let waits = 0;
  for (let at = 0; at < data.length; at += piece) {
    const paced = hash.update(data.subarray(at, at + piece));
    if (paced instanceof Promise) {
      waits++;
      await paced;
    }
  }
  return { hex: await hash.hex(), waits };
}

const MB = 1 << 20;
const threads: Sha256Thread[] = [];
/** Batches of 64 KiB here (1 MiB in the taskpane): the same paths with less data. */
const BATCH = 64 * 1024;
const thread = (start: () => HashPort, startMs?: number) => {
  const t = new Sha256Thread(start, { batchBytes: BATCH, ...(startMs ? { startMs } : {}) });
  threads.push(t);
  return t;
};
afterAll(() => {
  for (const t of threads) t.stop();
});

let shared: Sha256Thread;
beforeAll(() => {
  shared = thread(nodeHashPort);
});

it('gives node:crypto’s digest for any length and any pieces, several jobs at once, and holds a fast writer back', async () => {
  const cases: [number, number][] = [
    [0, 1],
    [1, 1],
    [55, 7],
    [64, 64],
    [BATCH, 4096],
    [BATCH + 1, 1000],
    [MB + 17, 8192],
    [MB, 300_001],
  ];
  const data = cases.map(([n], i) => bytes(n, i + 1));
  const got = await Promise.all(cases.map(([, piece], i) => feed(shared.hasher(), data[i]!, piece)));
  expect(got.map((g) => g.hex)).toEqual(data.map(node));
  expect(shared.failed).toBeNull();
  // Fed faster than the worker hashes, with nothing waited for, the job had as many batches out as it may: it asked to wait.
  expect(got[7]!.waits).toBeGreaterThan(0);
});

it('hashes on this thread when the worker cannot start, and says why', async () => {
  const t = thread(() => {
    throw new ReferenceError('Worker is not defined');
  });
  const data = bytes(MB + 5, 9);
  expect((await feed(t.hasher(), data, 8192)).hex).toBe(node(data));
  expect(t.failed).toMatch(/could not start: Worker is not defined/);
});

it('gives up on a worker that never says it runs, and finishes the job here from what it kept', async () => {
  // A real thread that never serves (as a worker script that hangs while loading).
  const silent = (): HashPort => {
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    worker.unref();
    return { post: (m, transfer) => worker.postMessage(m, transfer), listen: () => undefined, stop: () => void worker.terminate() };
  };
  const t = thread(silent, 300);
  const data = bytes(MB + 100, 11);
  expect((await feed(t.hasher(), data, 8192)).hex).toBe(node(data));
  expect(t.failed).toMatch(/did not start within 0.3 s/);
});

it('a worker that dies part way: the job carries on here from its last answered batch, later jobs hash here', async () => {
  const t = thread(() => {
    const { worker, port } = startNodeHashWorker();
    let answers = 0;
    // Killed (as a crash would end it) once it has answered two batches, with more in flight.
    return {
      ...port,
      listen: (on, failed) =>
        port.listen((m) => {
          on(m);
          if ('job' in m && ++answers === 2) void worker.terminate();
        }, failed),
    };
  });
  const data = bytes(MB + 3, 13);
  expect((await feed(t.hasher(), data, 8192)).hex).toBe(node(data));
  expect(t.failed).toMatch(/hashing worker failed: it exited/);
  const later = bytes(300_000, 14);
  expect((await feed(t.hasher(), later, 10_000)).hex).toBe(node(later));
});

/** Rows' lines of every length (0 to 3 blocks and more), some longer than a batch. */
const lines = (n: number, seed: number) => Array.from({ length: n }, (_, i) => bytes(i % 97 === 0 ? BATCH + 100 : (i * 37) % 300, seed + i));

/** Each line's digest through `digests`, waiting whenever it asks to; all of them, in order, as hex. */
async function lineHexes(digests: LineDigests, all: Uint8Array[]): Promise<string[]> {
  const out = new Uint8Array(32 * all.length);
  for (let i = 0; i < all.length; i++) {
    digests.add(all[i]!, out, 32 * i);
    await digests.paced();
  }
  await digests.settled();
  return all.map((_, i) => Buffer.from(out.subarray(32 * i, 32 * i + 32)).toString('hex'));
}

it('rows’ lines: each digest is node:crypto’s of its line, on the worker, after it dies, and where it never started', async () => {
  const all = lines(2000, 500);
  expect(await lineHexes(shared.lineDigests(), all)).toEqual(all.map(node));
  let killed = false;
  const dying = thread(() => {
    const { worker, port } = startNodeHashWorker();
    return { ...port, listen: (on, failed) => port.listen((m) => (on(m), 'job' in m && !killed && (killed = true) && void worker.terminate()), failed) };
  });
  expect(await lineHexes(dying.lineDigests(), all)).toEqual(all.map(node));
  expect(dying.failed).toMatch(/exited/);
  const none = thread(() => {
    throw new ReferenceError('Worker is not defined');
  });
  expect(await lineHexes(none.lineDigests(), all.slice(0, 50))).toEqual(all.slice(0, 50).map(node));
});

it('a job the worker let go (past 64 open ones) is finished here, right', async () => {
  // 66 jobs each one batch in, none ended: the worker keeps the 64 fed last, and lets the first two go.
  const data = Array.from({ length: 66 }, (_, i) => bytes(BATCH + 10, 100 + i));
  const jobs = data.map(() => shared.hasher());
  for (let i = 0; i < jobs.length; i++) await jobs[i]!.update(data[i]!.subarray(0, BATCH));
  const hexes = await Promise.all(jobs.map(async (job, i) => {
    job.update(data[i]!.subarray(BATCH));
    return job.hex();
  }));
  expect(hexes).toEqual(data.map(node));
  expect(shared.failed).toBeNull();
});
