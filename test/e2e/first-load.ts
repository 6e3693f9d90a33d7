/**
 * What a user's cold start of the taskpane costs over the wire (issue 27): taskpane.html opened on a fresh
 * browser profile, every response counted by the bytes Chromium received for it (DevTools'
 * Network.loadingFinished encodedDataLength: headers and the body as sent, compressed or not) until the
 * taskpane has listed the relay's environments and the network is idle. office.js is not counted
 * (Microsoft's CDN serves it, Excel has it cached; the packaged fallback under /office-js/ stands in for it
 * here, as the browser tests reach no CDN). Used by test/e2e/first-load.test.ts and `npm run bench bundle`.
 */
import type { BrowserContext } from 'playwright-core';

export interface Response {
  /** The path (and query) on the relay, or the whole URL of another origin. */
  url: string;
  /** Bytes over the wire: the status line, headers and body as sent. */
  transferred: number;
  /** The body once decoded (what it would have cost uncompressed). */
  decoded: number;
  encoding: string | null;
  /** Counted in `transferred` (false: office.js and its files). */
  counted: boolean;
}

export interface FirstLoad {
  responses: Response[];
  /** Sum over the counted responses. */
  transferred: number;
  decoded: number;
  /** What the browser asked for (its Accept-Encoding on taskpane.html). */
  acceptEncoding: string;
}

const OFFICE_JS = (url: URL) =>
  url.pathname.startsWith('/office-js/') || url.hostname === 'appsforoffice.microsoft.com';

/** Opens `previewUrl` in a new page of `context` (a fresh profile: nothing cached) and measures its first load. */
export async function measureFirstLoad(context: BrowserContext, previewUrl: string): Promise<FirstLoad> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const seen = new Map<string, { url: string; encoding: string | null; decoded: number }>();
  const asked = new Map<string, string>();
  const finished = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    seen.set(e.requestId, { url: e.response.url, encoding: headers['content-encoding'] ?? null, decoded: 0 });
  });
  // The headers as sent (Accept-Encoding is added by the network stack, after the page's request).
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
    const header = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'accept-encoding');
    if (header) asked.set(e.requestId, String(header[1]));
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = seen.get(e.requestId);
    if (r) r.decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => finished.set(e.requestId, e.encodedDataLength));
  try {
    await page.goto(previewUrl);
    await page.locator('[data-testid="environment"] option').first().waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
  } finally {
    await page.close();
  }
  const origin = new URL(previewUrl).origin;
  const responses: Response[] = [...seen.entries()]
    .filter(([id]) => finished.has(id))
    .map(([id, r]) => {
      const url = new URL(r.url);
      return {
        url: url.origin === origin ? url.pathname + url.search : r.url,
        transferred: finished.get(id)!,
        decoded: r.decoded,
        encoding: r.encoding,
        counted: !OFFICE_JS(url),
      };
    });
  const counted = responses.filter((r) => r.counted);
  const pageRequest = [...seen.entries()].find(([, r]) => new URL(r.url).pathname.endsWith('/taskpane.html'));
  return {
    responses,
    transferred: counted.reduce((n, r) => n + r.transferred, 0),
    decoded: counted.reduce((n, r) => n + r.decoded, 0),
    acceptEncoding: (pageRequest && asked.get(pageRequest[0])) ?? '',
  };
}
