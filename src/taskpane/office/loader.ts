/**
 * The office-loader entry: the first script of taskpane.html. It starts loading office.js (CDN first, the
 * packaged copy as fallback), records which one ran on <html data-office-js> (for support and tests), and
 * leaves the promise the taskpane's entry awaits.
 */
import { documentScriptHost, loadOfficeScript } from './officeScript';

window.grcOfficeScript = loadOfficeScript(documentScriptHost(document, window)).then((source) => {
  document.documentElement.dataset.officeJs = source;
  return source;
});
