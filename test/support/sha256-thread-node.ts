import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HashPort } from '../../src/client/sha256-thread';

/**
 * A HashPort on worker_threads, standing in for the taskpane's Web Worker (src/taskpane/tables/hashing.ts) in
 * Node: the same worker code, batches moved (transferred) both ways as a browser moves them. The thread runs
 * the TypeScript through tsx, as the relay's hashing thread does.
 */
const BOOT = `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(join(__dirname, 'sha256-worker-node.ts'))});`;

/** The thread and its port (a test may end the thread as a crash would). */
export function startNodeHashWorker(): { worker: Worker; port: HashPort } {
  const worker = new Worker(BOOT, { eval: true });
  // As a page's worker does not keep its tab open: the process ends when its own work has.
  worker.unref();
  const port: HashPort = {
    post: (message, transfer) => worker.postMessage(message, transfer),
    listen(on, failed) {
      worker.on('message', on);
      worker.on('error', (e) => failed(e.message));
      worker.on('exit', (code) => failed(`it exited with code ${code}`));
    },
    stop: () => void worker.terminate(),
  };
  return { worker, port };
}

export const nodeHashPort = (): HashPort => startNodeHashWorker().port;
