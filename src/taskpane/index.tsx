/**
 * The taskpane's entry (webpack only). It decides the host and the workbook adapter, and passes them and
 * every browser facility in as props: the components never touch Office or the window themselves.
 * In Excel the workbook is the Excel adapter; in a plain browser (preview) it is the in-memory workbook,
 * shown as a grid beside the taskpane. Everything else runs the same code.
 */
import { createRoot } from 'react-dom/client';
import type { ComponentType } from 'react';
import { catalog } from '../catalog';
import { createExcelWorkbook } from '../workbook/excel';
import { createMemoryWorkbook } from '../workbook/memory';
import { App } from './components/App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { copyText } from './copy';
import { detectHost } from './host';
import { PreviewGrid } from './preview/PreviewGrid';
import type { ScreenProps } from './screen';

interface WebpackContext {
  keys(): string[];
  (id: string): { default?: ComponentType<ScreenProps> };
}
interface WebpackRequire {
  context(directory: string, subdirectories: boolean, filter: RegExp): WebpackContext;
}

/** The write-back screen is another part; build it in when its file exists, without failing the build when not. */
function writebackScreen(): ComponentType<ScreenProps> | undefined {
  // The context is this folder, filtered to the one file, so a missing writeback/ folder is not an error.
  const context = (require as unknown as WebpackRequire).context('.', true, /^\.\/writeback\/WritebackScreen\.tsx$/);
  const key = context.keys()[0];
  return key ? context(key).default : undefined;
}

/** Some webviews refuse storage outright (SecurityError): then nothing can be remembered, and that is all. */
function localStorageOrNothing(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

async function main() {
  const host = await detectHost();
  const root = createRoot(document.getElementById('root')!);
  const common = {
    host,
    catalog,
    origin: window.location.origin,
    fetch: window.fetch.bind(window),
    storage: localStorageOrNothing(),
    copy: copyText,
    writeback: writebackScreen(),
  };
  if (host.kind === 'excel') {
    const requirements = (set: string, version: string) => Office.context.requirements.isSetSupported(set, version);
    const workbook = createExcelWorkbook(Excel.run, requirements, { platform: String(Office.context.platform) });
    root.render(
      <ErrorBoundary copy={copyText} events={window}>
        <App {...common} workbook={workbook} />
      </ErrorBoundary>,
    );
    return;
  }
  const workbook = createMemoryWorkbook();
  // Preview only: browser tests do what a user does in Excel that the grid does not offer (sort rows).
  (window as { __grcPreviewWorkbook?: unknown }).__grcPreviewWorkbook = workbook;
  root.render(
    <ErrorBoundary copy={copyText} events={window}>
      <App {...common} workbook={workbook} aside={<PreviewGrid workbook={workbook} />} />
    </ErrorBoundary>,
  );
}

main().catch((error: unknown) => {
  document.body.textContent = `GRC Sheets could not start: ${error instanceof Error ? error.message : String(error)}`;
});
