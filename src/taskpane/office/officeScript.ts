/**
 * Where office.js comes from. Office add-ins load it from Microsoft's CDN (AppSource requires it, and the
 * CDN copy gets fixes and the host files newer Office builds ask for); the copy packaged from
 * @microsoft/office-js is only a fallback for when the CDN cannot be reached: an offline preview, a test
 * machine without internet, a CDN that hangs.
 *
 * taskpane.html cannot carry an inline loader (the relay's CSP allows scripts from our origin and the CDN
 * only), so this small entry of its own runs first in the page, starts the download at once, and leaves a
 * promise on the window that the taskpane's entry awaits before it asks Office for the host: either way
 * the app waits for the same thing.
 */
export const OFFICE_CDN = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
export const OFFICE_PACKAGED = 'office-js/office.js';
/** A CDN that neither answers nor fails within this time counts as unreachable. */
export const OFFICE_CDN_TIMEOUT_MS = 8000;

/** Which office.js the page runs: 'none' when neither loaded (the taskpane then runs as a preview). */
export type OfficeSource = 'cdn' | 'packaged' | 'none';

declare global {
  interface Window {
    /** Set by the office-loader entry; settles once office.js ran (or could not be loaded). */
    grcOfficeScript?: Promise<OfficeSource>;
  }
}

/** The few DOM calls the loader makes: a stand-in document in unit tests. */
export interface ScriptHost {
  /**
   * Adds a script element; `abandon` takes it out of the page and makes sure it never runs (a CDN that
   * answers after the timeout).
   */
  addScript(src: string, onDone: (ok: boolean) => void): { abandon(): void };
  /** True once a script defined the Office global. */
  hasOffice(): boolean;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface LoadOptions {
  cdn?: string;
  packaged?: string;
  timeoutMs?: number;
}

function addOne(host: ScriptHost, src: string, timeoutMs: number | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: unknown;
    // Filled once the element exists: a host may report a result before addScript returns.
    const script: { current?: { abandon(): void } } = {};
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) host.clearTimeout(timer);
      const loaded = ok && host.hasOffice();
      // A failed office.js element must leave the page: office.js finds its own folder (for MicrosoftAjax
      // and the host files) from the first script whose src names office.js.
      if (!loaded) script.current?.abandon();
      resolve(loaded);
    };
    script.current = host.addScript(src, done);
    if (settled && !host.hasOffice()) script.current.abandon();
    if (!settled && timeoutMs !== undefined) timer = host.setTimeout(() => done(false), timeoutMs);
  });
}

/**
 * Loads office.js from the CDN, or the packaged copy when the CDN fails (an error, a timeout, or a script
 * that did not define Office). A CDN script that arrives after the timeout is abandoned, not run: office.js
 * has no guard against running twice.
 */
export async function loadOfficeScript(host: ScriptHost, options: LoadOptions = {}): Promise<OfficeSource> {
  if (await addOne(host, options.cdn ?? OFFICE_CDN, options.timeoutMs ?? OFFICE_CDN_TIMEOUT_MS)) return 'cdn';
  if (host.hasOffice()) return 'cdn';
  if (await addOne(host, options.packaged ?? OFFICE_PACKAGED, undefined)) return 'packaged';
  return 'none';
}

/** The browser's document as a ScriptHost. */
export function documentScriptHost(doc: Document, win: Window & typeof globalThis): ScriptHost {
  return {
    addScript(src, onDone) {
      const script = doc.createElement('script');
      script.src = src;
      script.async = false;
      script.onload = () => onDone(true);
      script.onerror = () => onDone(false);
      doc.head.appendChild(script);
      return {
        // A script element moved to another document before it runs is never executed (HTML's "preparation-
        // time document" check); removing it alone would not stop an async script that is on its way.
        abandon: () => void doc.implementation.createHTMLDocument('').adoptNode(script),
      };
    },
    hasOffice: () =>
      typeof (win as unknown as { Office?: { onReady?: unknown } }).Office?.onReady === 'function',
    setTimeout: (fn, ms) => win.setTimeout(fn, ms),
    clearTimeout: (handle) => win.clearTimeout(handle as number),
  };
}
