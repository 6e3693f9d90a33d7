/**
 * The function file the manifest names (FunctionFile). The ribbon button only opens the taskpane
 * (ShowTaskpane needs no code); Office still loads this page and waits for Office.onReady before the
 * add-in's ribbon is live, so it must exist and initialise. office.js arrives through the office-loader
 * script (CDN, else the packaged copy).
 */
void window.grcOfficeScript?.then(() => {
  if (typeof Office !== 'undefined') void Office.onReady(() => undefined);
});
