import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { sendError } from './errors';
import { clientResponseHeaders } from './headers';
import type { CallLog } from './proxy';
import { classifyUpstreamError, type Upstream } from './upstream';

/**
 * Sends one request upstream and streams the answer to the client through undici's dispatch handler:
 * each chunk is written straight to the client's socket and the upstream is paused whenever that socket's
 * buffer is full, so memory stays flat however big the dataset and however slow the client. A client that
 * goes away aborts the upstream request. Redirects are not followed (an upstream 3xx becomes a 502).
 *
 * `retryOnce`: a GET is tried once more when the connection fails before any answer; a POST never is.
 */
export function forward(
  upstream: Upstream,
  options: Dispatcher.DispatchOptions,
  res: ServerResponse,
  log: CallLog,
  retryOnce: boolean,
): Promise<void> {
  return new Promise((resolve) => {
    let controller: Dispatcher.DispatchController | null = null;
    let answered = false;
    let finished = false;
    let retried = !retryOnce;
    let expected = -1;

    const finish = () => {
      if (finished) return;
      finished = true;
      res.off('close', onClientClose);
      res.off('drain', onDrain);
      resolve();
    };
    const onClientClose = () => {
      if (!res.writableFinished) controller?.abort(new Error('the client went away'));
      finish();
    };
    const onDrain = () => controller?.resume();
    res.on('close', onClientClose);
    res.on('drain', onDrain);

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (res.destroyed) c.abort(new Error('the client went away'));
      },
      onResponseStart(c, statusCode, headers) {
        if (statusCode >= 300 && statusCode < 400) {
          log.upstreamError = `redirect ${statusCode}`;
          sendError(res, 'upstream-redirect');
          c.abort(new Error('redirect not followed'));
          return finish();
        }
        answered = true;
        expected = headers['content-length'] ? Number(headers['content-length']) : -1;
        res.statusCode = statusCode;
        for (const [k, v] of Object.entries(clientResponseHeaders(headers))) res.setHeader(k, v);
      },
      onResponseData(c, chunk) {
        log.bytes += chunk.length;
        // The chunk that completes a known length goes out with the end of the answer (and a small answer
        // with its headers) in one write instead of two.
        if (log.bytes === expected) res.end(chunk);
        else if (!res.write(chunk)) c.pause();
      },
      onResponseEnd() {
        if (!res.writableEnded) res.end();
        finish();
      },
      onResponseError(_c, error) {
        if (finished) return;
        const { code, retryGet, detail } = classifyUpstreamError(error);
        if (!answered && !retried && retryGet && !res.destroyed) {
          retried = true;
          upstream.pool.dispatch(options, handler);
          return;
        }
        log.upstreamError = detail;
        // Once the answer has started, its status is sent: cutting the connection is the only honest signal.
        if (answered) res.destroy();
        else sendError(res, code);
        finish();
      },
    };
    upstream.pool.dispatch(options, handler);
  });
}
