/**
 * The taskpane's entry (webpack only). It decides the host and the workbook adapter, and passes them and
 * every browser facility in as props: the components never touch Office or the window themselves.
 * In Excel the workbook is the Excel adapter; in a plain browser (preview) it is the in-memory workbook,
 * shown as a grid beside the taskpane, both in a chunk of their own that Excel never downloads; the Excel
 * adapter is a chunk too, fetched at the first workbook call.
 * Everything else runs the same code.
 */
import { createRoot } from 'react-dom/client';
import { excelCapabilities } from '../workbook/excel/capabilities';
import { lazyWorkbook } from '../workbook/lazy';
import { App } from './components/App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { copyText } from './copy';
import { detectHost } from './host';
import { officeDialogSignIn, popupSignIn, type OfficeUi } from './signin/windows';

/** Some webviews refuse storage outright (SecurityError): then there is nothing to clean up either. */
function localStorageOrNothing(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

async function main() {
  const host = await detectHost(window.grcOfficeScript);
  const root = createRoot(document.getElementById('root')!);
  const common = {
    host,
    origin: window.location.origin,
    fetch: window.fetch.bind(window),
    storage: localStorageOrNothing(),
    copy: copyText,
  };
  if (host.kind === 'excel') {
    const requirements = (set: string, version: string) => Office.context.requirements.isSetSupported(set, version);
    // The Office.js adapter is a chunk fetched at the first workbook call: Connect is drawn without it.
    const workbook = lazyWorkbook('excel', excelCapabilities(requirements), () =>
      import(/* webpackChunkName: "excel" */ '../workbook/excel').then(({ createExcelWorkbook }) =>
        createExcelWorkbook(Excel.run, requirements, { platform: String(Office.context.platform) }),
      ),
    );
    const signInWindow = officeDialogSignIn(Office.context.ui as unknown as OfficeUi);
    root.render(
      <ErrorBoundary copy={copyText} events={window}>
        <App {...common} workbook={workbook} signInWindow={signInWindow} />
      </ErrorBoundary>,
    );
    return;
  }
  const { createPreview } = await import(/* webpackChunkName: "preview" */ './preview/createPreview');
  const { workbook, aside } = createPreview(window.location.search);
  // Preview only: browser tests do what a user does in Excel that the grid does not offer (sort rows).
  (window as { __grcPreviewWorkbook?: unknown }).__grcPreviewWorkbook = workbook;
  root.render(
    <ErrorBoundary copy={copyText} events={window}>
      <App {...common} workbook={workbook} aside={aside} signInWindow={popupSignIn(window, (name) => new BroadcastChannel(name))} />
    </ErrorBoundary>,
  );
}

main().catch((error: unknown) => {
  document.body.textContent = `GRC Sheets could not start: ${error instanceof Error ? error.message : String(error)}`;
});
