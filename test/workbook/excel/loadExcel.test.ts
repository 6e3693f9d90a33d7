import { isoToSerial } from '../../../src/sheet';
import { readLoadRecords } from '../../../src/loading/loadrecords';
import { createExcelWorkbook } from '../../../src/workbook/excel';
import { loadDataset, refreshAll, refreshTable, type DataRecord } from '../../../src/loading/load';
import { fakeClient } from '../../loading/fakeClient';
import { FakeExcel, supports } from './fakeExcel';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risks = (n: number, status = 'Active'): DataRecord[] =>
  Array.from({ length: n }, (_, i) => ({ Id: guid(i), Identifier: `=R-${i}`, Name: `Risk ${i}`, Status: status, DateIdentified: '2025-03-04', ControlGuids: [guid(1)] }));

/** The load flow on the Excel adapter: what a user sees in Excel, through Office.js batching. */
describe('load and refresh in Excel', () => {
  const setup = (minor = 13) => {
    const xl = new FakeExcel();
    return { xl, workbook: createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(minor), { maxBytes: 100_000 }) };
  };
  const base = { environment: 'ACC', source: 'relay' };

  it('loads into a table on a new sheet, refreshes it smaller and larger, and keeps the user column', async () => {
    const { xl, workbook } = setup();
    const first = await loadDataset({ ...base, client: fakeClient(risks(1500), { batchSize: 400 }).client, workbook, datasetId: 'risk', target: { kind: 'new-sheet' } });
    expect(first).toMatchObject({ ok: true, rowCount: 1500, table: { name: 'tbl_risk', sheet: 'Risks', rowCount: 1500 } });
    expect(Math.max(...xl.syncBytes)).toBeLessThanOrEqual(100_000);
    const header = xl.header('tbl_risk');
    const body = () => xl.body('tbl_risk');
    expect(header.slice(0, 3)).toEqual(['Identifier', 'Name', 'Description']);
    expect(body()[0]![header.indexOf('Date identified')]).toBe(isoToSerial('2025-03-04'));
    expect(xl.peek('Risks', 'A2')).toMatchObject({ value: '=R-0', formula: false });
    // Laid out as a report: the header frozen on the sheet the load made, every column given a width.
    const risksSheet = xl.sheets.find((s) => s.name === 'Risks')!;
    expect(risksSheet.frozenRows).toBe(1);
    expect([...risksSheet.columns!.keys()].sort((a, b) => a - b)).toEqual(header.map((_, i) => i));

    xl.addUserColumn('tbl_risk', 'Mine', '=LEN([@Name])');
    expect(await refreshTable({ ...base, client: fakeClient(risks(10, 'Closed')).client, workbook, table: 'tbl_risk' })).toMatchObject({ ok: true, rowCount: 10 });
    expect(body()).toHaveLength(10);
    expect(body().every((r) => r[header.indexOf('Status')] === 'Closed' && r.at(-1) === '=LEN([@Name])')).toBe(true);
    expect(await refreshTable({ ...base, client: fakeClient(risks(2000)).client, workbook, table: 'tbl_risk' })).toMatchObject({ ok: true, rowCount: 2000 });
    expect(body()).toHaveLength(2000);
    expect(xl.header('tbl_risk').at(-1)).toBe('Mine');
    expect((await readLoadRecords(workbook)).get('tbl_risk')).toMatchObject({ rowCount: 2000, environment: 'ACC' });
  });

  it('removes the partial table and its sheet when a first load is cancelled', async () => {
    const { xl, workbook } = setup();
    const ctl = new AbortController();
    const out = await loadDataset({
      ...base,
      client: fakeClient(risks(3000), { batchSize: 500 }).client,
      workbook,
      datasetId: 'risk',
      target: { kind: 'new-sheet' },
      signal: ctl.signal,
      onProgress: (p) => p.phase === 'writing' && ctl.abort(),
    });
    expect(out).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(xl.tables).toEqual([]);
    expect(xl.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });

  it('loads into an existing table, replacing its rows and recording the new binding', async () => {
    const { xl, workbook } = setup();
    await workbook.createTable({ name: 'Mine', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Id', format: 'text' }, { name: 'Note', format: 'text' }] });
    await workbook.writeRows('Mine', 0, [['x', 'keep me']]);
    const out = await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook, datasetId: 'risk', target: { kind: 'table', name: 'Mine' } });
    expect(out).toMatchObject({ ok: true, rowCount: 3 });
    expect(xl.header('Mine').slice(0, 3)).toEqual(['Id', 'Note', 'Identifier']);
    expect(xl.body('Mine')[0]!.slice(0, 2)).toEqual([guid(0), 'keep me']);
    expect((await readLoadRecords(workbook)).get('Mine')).toMatchObject({ datasetId: 'risk', rowCount: 3 });
  });

  it('refreshes a table the user renamed (bound by Table.id) and forgets one the user deleted', async () => {
    const { xl, workbook } = setup();
    await loadDataset({ ...base, client: fakeClient(risks(5)).client, workbook, datasetId: 'risk', target: { kind: 'new-sheet' } });
    xl.table('tbl_risk').name = 'RiskRegister';
    expect(await refreshTable({ ...base, client: fakeClient(risks(7)).client, workbook, table: 'RiskRegister' })).toMatchObject({ ok: true, rowCount: 7 });
    expect(xl.body('RiskRegister')).toHaveLength(7);
    expect([...(await readLoadRecords(workbook)).keys()]).toEqual(['RiskRegister']);
    xl.tables = [];
    expect(await refreshAll({ ...base, client: fakeClient(risks(1)).client, workbook })).toEqual([]);
    expect(await readLoadRecords(workbook)).toEqual(new Map());
  });
});
