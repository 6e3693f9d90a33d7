/**
 * The taskpane's hashing worker (src/client/sha256-worker.ts) under worker_threads, for the load benchmark
 * and the tests: the same code as the Web Worker's (src/taskpane/tables/sha256-worker-entry.ts), on a
 * MessagePort instead of the worker's global scope. Started by sha256-thread-node.ts.
 */
import { parentPort } from 'node:worker_threads';
import { serveSha256 } from '../../src/client/sha256-worker';

const port = parentPort!;
serveSha256({
  post: (message, transfer) => port.postMessage(message, transfer),
  listen: (on) => port.on('message', on),
});
