/**
 * The taskpane's hashing worker (a Web Worker: src/taskpane/tables/hashing.ts starts it; webpack makes it a
 * script of its own, served from the add-in's origin, which the pages' Content-Security-Policy allows).
 */
import { serveSha256 } from '../../client/sha256-worker';

// A worker's global scope; the DOM library types `self` as a Window.
const scope = self as unknown as {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

serveSha256({
  post: (message, transfer) => scope.postMessage(message, transfer),
  listen: (on) => {
    scope.onmessage = (event) => on(event.data);
  },
});
