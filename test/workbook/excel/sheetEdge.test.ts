import { createClient } from '../../../src/client';
import { failureText, loadDataset, tooManyRowsMessage } from '../../../src/loading/load';
import { startRelay, type Relay } from '../../../src/relay';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { parseCell } from '../../../src/workbook/address';
import { createExcelWorkbook } from '../../../src/workbook/excel';
import { FakeExcel, supports } from './fakeExcel';

/**
 * A load with more rows than the sheet has below the table's header, through the real relay and sandbox
 * into the Excel adapter: refused with the dataset's row count and what to do, nothing left in the sheet
 * and nothing ever written past its last row.
 */
describe("a load past the sheet's last row", () => {
  let sandbox: Sandbox;
  let relay: Relay;
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, environment: 'ACC', scale: 300 });
    relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { ACC: { baseUrl: sandbox.url, production: false } }, logLevel: 'silent' });
  });
  afterAll(async () => {
    await relay.close();
    await sandbox.close();
  });

  it('is refused with the count and the highest row it fits in, and leaves the sheet as it was', async () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
    const client = createClient({ baseUrl: `${relay.url}/api/ACC`, credentials: sandbox.demoKey! });
    xl.selection = { sheet: 'Sheet1', address: 'A1048500' };
    // The lowest row a value reached, sync by sync: the answer's first batch already passes the edge, so
    // no row of data is ever written, only the header of the table that is then removed.
    let lowest = -1;
    xl.beforeSync = () => {
      for (const [at, cell] of xl.sheet('Sheet1').cells) if (cell.value !== '') lowest = Math.max(lowest, parseCell(at).row);
    };
    const outcome = await loadDataset({ client, workbook, datasetId: 'risk', environment: 'ACC', target: { kind: 'selection' } });
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'target-refused',
        table: 'tbl_risk',
        left: 'partial-removed',
        message:
          "The dataset has 300 rows, more than the 76 that fit below Sheet1!A1048500 (Excel's sheets end at row 1,048,576). " +
          'Select a cell in row 1,048,276 or above, or load it into a new sheet.',
      },
    });
    expect(!outcome.ok && failureText(outcome.error)).toBe(
      "The dataset has 300 rows, more than the 76 that fit below Sheet1!A1048500 (Excel's sheets end at row 1,048,576). " +
        'Select a cell in row 1,048,276 or above, or load it into a new sheet. Nothing was loaded; the partial table was removed.',
    );
    expect(lowest).toBe(parseCell('A1048500').row);
    expect(xl.tables).toEqual([]);
    expect([...xl.sheet('Sheet1').cells.values()].filter((c) => c.value !== '')).toEqual([]);
    expect(xl.settings.size).toBe(0);
  });

  it('a dataset no sheet can hold is told so, with where to take it instead', () => {
    expect(tooManyRowsMessage(1_200_000, 'Risks', 'A1')).toBe(
      "The dataset has 1,200,000 rows, more than the 1,048,575 that fit below Risks!A1 (Excel's sheets end at row 1,048,576). " +
        "No sheet can hold it: take it outside the grid (Power Query into the Data Model through the relay's URL has no row limit), or ask the service's administrator for a smaller dataset.",
    );
  });
});
