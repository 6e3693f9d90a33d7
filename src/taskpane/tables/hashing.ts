import { withHasher, type GrcClient } from '../../client';
import { Sha256Thread, type HashPort, type LineDigests } from '../../client/sha256-thread';
import { fingerprinter, type Fingerprinter } from '../../loading/fingerprint';

/**
 * The taskpane's SHA-256 for loads and refreshes: the download's hash (the relay's statement), the record
 * fingerprint and a first load's rows' cell digests, on one Web Worker started at the first load (not with the taskpane: its first load stays
 * small), so they run beside the JSON splitting and the workbook writes. Where the worker cannot start,
 * they hash on the main thread (sha256-thread.ts).
 */

function startWorker(): HashPort {
  const worker = new Worker(/* webpackChunkName: "sha256-worker" */ new URL('./sha256-worker-entry.ts', import.meta.url));
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    listen(on, failed) {
      worker.onmessage = (event) => on(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        failed(event.message || 'its script did not load');
      };
      worker.onmessageerror = () => failed('a message from it could not be read');
    },
    stop: () => worker.terminate(),
  };
}

let thread: Sha256Thread | null = null;
const hashing = () => (thread ??= new Sha256Thread(startWorker));

/** The session's client, its downloads hashed for the relay's statement on the worker. */
export const hashedOnWorker = (client: GrcClient): GrcClient => withHasher(client, () => hashing().hasher());

/** Record fingerprints hashed on the worker. */
export const workerFingerprints = (): Fingerprinter => fingerprinter(hashing().hasher);

/** A load's rows' cell digests (the hand-edit check) hashed on the worker. */
export const workerCellDigests = (): LineDigests => hashing().lineDigests();
