import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { sendError } from './errors';
import { copyResponseHeaders } from './headers';
import type { AnswerTap } from './evidence-tap';
import type { CallLog } from './log';
import { classifyUpstreamError, type Upstream } from './upstream';

/**
 * One request sent upstream, its answer streamed to the client through undici's dispatch handler: each
 * chunk is written straight to the client's socket and the upstream is paused whenever that socket's
 * buffer is full, so memory stays flat however big the dataset and however slow the client. A client that
 * goes away aborts the upstream request (`clientClosed`, called by the server's one close listener).
 * Redirects are not followed (an upstream 3xx becomes a 502).
 *
 * A class rather than closures: a small GET allocates one object, not a handful of functions.
 */
/** What one forwarded call needs, by name. */
export interface ForwardingInit {
  upstream: Upstream;
  /** The request as undici sends it upstream. */
  request: Dispatcher.DispatchOptions;
  /** The caller's answer. */
  res: ServerResponse;
  log: CallLog;
  /** A GET is tried once more when the connection fails before any answer; a POST never is. */
  retryOnce: boolean;
  /** The caller's socket takes no bytes for this long: cut (clientWriteTimeoutMs). */
  writeTimeoutMs: number;
  /** Calls in flight per client address: this one is counted under `address` until clientClosed. */
  inFlight: Map<string, number>;
  address: string;
  /** No bytes taken for this long while another caller waits for a connection: cut (clientStallUnderLoadMs). */
  stallUnderLoadMs: number;
}

export class Forwarding implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private answered = false;
  private finished = false;
  private retried: boolean;
  private expected = -1;
  private draining = false;
  /** Reasons the service is held back (c.pause): resumed when none is left. */
  private holds = 0;
  private tapBehind = false;
  /** The answer's end has been seen (its last write may wait for the statement). */
  private ending = false;
  /** Armed while the client's socket takes no bytes: a client that stops reading is cut when it fires. */
  private stall: NodeJS.Timeout | null = null;
  /** When the latest pause began (ms, performance.now()). */
  private pausedAt = 0;
  /** The service's Location goes to the caller (headers.ts passesLocation): set by proxy.ts. */
  passLocation = false;
  /** Sees the answer's bytes and its end, for the relay's signed statement (evidence-tap.ts). */
  tap: AnswerTap | null = null;

  private readonly upstream: Upstream;
  private readonly options: Dispatcher.DispatchOptions;
  private readonly res: ServerResponse;
  private readonly log: CallLog;
  private readonly writeTimeoutMs: number;
  private readonly inFlight: Map<string, number>;
  private readonly address: string;
  private readonly stallUnderLoadMs: number;

  constructor(init: ForwardingInit) {
    this.upstream = init.upstream;
    this.options = init.request;
    this.res = init.res;
    this.log = init.log;
    this.writeTimeoutMs = init.writeTimeoutMs;
    this.inFlight = init.inFlight;
    this.address = init.address;
    this.stallUnderLoadMs = init.stallUnderLoadMs;
    this.retried = !init.retryOnce;
  }

  /**
   * undici pauses its body timeout while we hold the upstream back, so without this a client that stops
   * reading would keep an upstream connection (one of the pool's few) forever. Destroying the answer
   * closes it, and the server's close listener aborts the upstream request, freeing the connection.
   *
   * One timer per answer, refreshed at each pause (cheap: a big download to a slow client pauses often).
   * It fires every stallUnderLoadMs while the client takes nothing: the client is cut once the pause has
   * lasted writeTimeoutMs, or sooner if callers are waiting for one of the pool's connections meanwhile
   * (then, or as soon as one arrives: the answer waits in `upstream.stalled`). A client that is slow but
   * reading pauses anew each time it drains, so it is never taken for stuck.
   */
  private armStall(): void {
    this.pausedAt = performance.now();
    if (this.stall) {
      this.stall.refresh();
      return;
    }
    const res = this.res;
    const stall = setTimeout(
      () => {
        if (res.writableFinished || !(res.writableNeedDrain || res.writableEnded)) return this.unstall();
        if (performance.now() - this.pausedAt >= this.writeTimeoutMs) return this.cutStalled();
        // An answer already read to its end holds no upstream connection: cutting it would free nothing.
        if (!this.finished) {
          if (this.upstream.pool.stats.queued > 0) return this.cutStalled();
          this.upstream.stalled.add(this);
        }
        stall.refresh();
      },
      Math.min(this.stallUnderLoadMs, this.writeTimeoutMs),
    );
    this.stall = stall;
    res.once('close', () => {
      clearTimeout(stall);
      this.unstall();
    });
  }

  /** The client took bytes again (or the answer is over): no longer a candidate to cut. */
  private unstall(): void {
    if (this.upstream.stalled.size > 0) this.upstream.stalled.delete(this);
  }

  /** Cuts a client that takes no bytes (its upstream connection is freed by the close that follows). */
  cutStalled(): void {
    this.unstall();
    this.log.upstreamError = 'client stopped reading';
    this.res.destroy();
  }

  start(): void {
    this.upstream.pool.dispatch(this.options, this);
  }

  /** The exchange is over (the server's close listener): abort what is left upstream, uncount the call. */
  clientClosed(): void {
    const left = (this.inFlight.get(this.address) ?? 1) - 1;
    if (left > 0) this.inFlight.set(this.address, left);
    else this.inFlight.delete(this.address);
    // Finished first: the abort reports back through onResponseError, which has nothing left to do.
    const wasFinished = this.finished;
    this.finished = true;
    if (!wasFinished && !this.res.writableFinished) this.controller?.abort(new Error('the client went away'));
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    if (this.res.destroyed) c.abort(new Error('the client went away'));
  }

  onResponseStart(
    c: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    const res = this.res;
    if (statusCode >= 300 && statusCode < 400) {
      this.log.upstreamError = `redirect ${statusCode}`;
      sendError(res, 'upstream-redirect');
      c.abort(new Error('redirect not followed'));
      this.finished = true;
      return;
    }
    this.answered = true;
    const length = headers['content-length'];
    this.expected = typeof length === 'string' ? Number(length) : -1;
    res.statusCode = statusCode;
    this.tap?.start(statusCode, headers);
    copyResponseHeaders(headers, res, this.passLocation);
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    const res = this.res;
    this.log.bytes += chunk.length;
    const tap = this.tap;
    // The tap's hashing thread is behind: the service is held back until it catches up (memory stays flat).
    // Chunks already parsed may still come meanwhile: one hold is enough.
    if (tap !== null && !tap.data(chunk) && !this.tapBehind) {
      this.tapBehind = true;
      this.hold(c);
      tap.whenCaughtUp(() => {
        this.tapBehind = false;
        this.release(c);
      });
    }
    // The chunk that completes a known length goes out with the end of the answer (and a small answer
    // with its headers) in one write instead of two; the statement is signed before it goes.
    if (this.log.bytes === this.expected) {
      this.end(chunk);
    } else if (!res.write(chunk) && !this.draining) {
      // Chunks undici had already parsed may still come while paused: one drain listener is enough.
      this.draining = true;
      this.hold(c);
      this.armStall();
      res.once('drain', () => {
        this.draining = false;
        this.unstall();
        this.release(c);
      });
    }
  }

  onResponseEnd(): void {
    this.unstall();
    if (!this.ending) this.end();
    this.finished = true;
  }

  /** The service is held back for one more reason (the client's socket is full, the tap is behind). */
  private hold(c: Dispatcher.DispatchController): void {
    if (this.holds++ === 0) c.pause();
  }

  private release(c: Dispatcher.DispatchController): void {
    if (--this.holds === 0) c.resume();
  }

  /** Ends the answer once its statement is signed (the tap may be waiting for its hashing thread). */
  private end(chunk?: Buffer): void {
    this.ending = true;
    const signed = this.tap?.end();
    if (signed) void signed.then(() => this.sendEnd(chunk));
    else this.sendEnd(chunk);
  }

  private sendEnd(chunk?: Buffer): void {
    const res = this.res;
    if (res.writableEnded) return;
    res.end(chunk);
    if (res.socket?.writableNeedDrain) this.armStall();
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    if (this.finished) return;
    const res = this.res;
    const { code, retryGet, detail } = classifyUpstreamError(error);
    if (!this.answered && !this.retried && retryGet && !res.destroyed) {
      this.retried = true;
      this.upstream.pool.dispatch(this.options, this);
      return;
    }
    this.log.upstreamError = detail;
    // Once the answer has started, its status is sent: cutting the connection is the only honest signal.
    if (this.answered) res.destroy();
    else sendError(res, code);
    this.finished = true;
  }
}
