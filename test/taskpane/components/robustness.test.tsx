import { renderToString } from 'react-dom/server';
import { catalog } from '../../../src/catalog';
import { ErrorBoundary, errorDetails } from '../../../src/taskpane/components/ErrorBoundary';
import { readTablesOrError } from '../../../src/taskpane/tables/loaded';
import { loadIntoWorkbook, refreshInWorkbook } from '../../../src/taskpane/tables/ops';
import type { Session } from '../../../src/taskpane/screen';
import { createMemoryWorkbook } from '../../../src/workbook/memory';
import { WorkbookError } from '../../../src/workbook/errors';
import { createExcelWorkbook } from '../../../src/workbook/excel';
import { FakeExcel, supports } from '../../workbook/excel/fakeExcel';
import { fakeClient } from '../../loading/fakeClient';

/** A workbook whose Excel fails every read, as Excel does when the file is busy or the host lost its session. */
function failingWorkbook() {
  const wb = createMemoryWorkbook();
  wb.listTables = () =>
    Promise.reject(new WorkbookError('host', 'Excel refused the change (GeneralException): busy'));
  return wb;
}

describe('the taskpane never goes blank or stays stuck on an Excel error', () => {
  it('a render error shows a readable message and a Copy details button; the details name the error and where', async () => {
    const boundary = new ErrorBoundary({ children: null, copy: async () => undefined });
    boundary.state = {
      ...boundary.state,
      ...ErrorBoundary.getDerivedStateFromError(
        new TypeError("Cannot read properties of undefined (reading 'rows')"),
      ),
    };
    const html = renderToString(<>{boundary.render()}</>);
    expect(html).toContain('GRC Sheets stopped');
    expect(html).toContain('Cannot read properties of undefined');
    expect(html).toContain('data-testid="copy-error-details"');
    expect(html).toContain('Copy details');
    const details = errorDetails(new TypeError('boom'), '\n    at TablesScreen');
    expect(details).toMatch(/^GRC Sheets error at \d{4}-/);
    expect(details).toContain('TypeError: boom');
    expect(details).toContain('Component stack:\nat TablesScreen');
  });

  it('an unhandled rejection is shown above the pane, which keeps working', () => {
    const events = new EventTarget();
    const boundary = new ErrorBoundary({ children: <p>the pane</p>, copy: async () => undefined, events });
    let next: object = {};
    boundary.setState = ((s: object) => void (next = s)) as typeof boundary.setState;
    boundary.componentDidMount();
    const event = Object.assign(new Event('unhandledrejection', { cancelable: true }), {
      reason: new Error('Excel refused the change'),
    });
    events.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    boundary.state = { ...boundary.state, ...next };
    const html = renderToString(<>{boundary.render()}</>);
    expect(html).toContain('did not finish');
    expect(html).toContain('Excel refused the change');
    expect(html).toContain('the pane');
    boundary.componentWillUnmount();
  });

  it('the Tables screen reads a failing workbook as a message, not a promise that never settles', async () => {
    await expect(readTablesOrError(failingWorkbook())).resolves.toEqual({
      ok: false,
      message: expect.stringContaining('GeneralException'),
    });
    await expect(readTablesOrError(createMemoryWorkbook())).resolves.toEqual({ ok: true, tables: [] });
  });

  it('a refresh whose workbook throws comes back as a failed outcome', async () => {
    const session = {
      environment: { name: 'ACC', production: false },
      client: { download: async () => ({ bytes: 0, count: 0 }) },
      source: 'relay',
    } as unknown as Session;
    const result = await refreshInWorkbook({
      session,
      workbook: failingWorkbook(),
      table: 'tbl_risk',
      dataset: 'risk',
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    expect(result).toMatchObject({
      ok: false,
      cancelled: false,
      message: { detail: expect.stringContaining('GeneralException') },
    });
  });
});

describe('loading at the selection over data asks first', () => {
  it('loadIntoWorkbook reports askOverwrite and loads only when told to overwrite', async () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), {
      platform: 'PC',
    });
    xl.cell(xl.sheet('Sheet1'), 3, 0).value = 'mine';
    const client = fakeClient([{ Id: '0b5c3d1e-1111-4a4a-8b8b-000000000001', Name: 'Risk' }]).client;
    const session = {
      environment: { name: 'ACC', production: false },
      client,
      source: 'relay',
      keyFingerprint: 'x',
    } as unknown as Session;
    const request = {
      session,
      workbook,
      dataset: catalog.dataset('risk'),
      target: { kind: 'selection' as const },
      signal: new AbortController().signal,
      onProgress: () => undefined,
    };
    const asked = await loadIntoWorkbook(request);
    expect(asked).toMatchObject({
      ok: false,
      askOverwrite: true,
      message: {
        title: 'The cells below the selection hold data',
        detail: expect.stringContaining('Sheet1!A4'),
      },
    });
    expect(xl.peek('Sheet1', 'A4')!.value).toBe('mine');
    expect(await loadIntoWorkbook({ ...request, overwrite: true })).toMatchObject({ ok: true, rows: 1 });
  });
});
