import { readLoadRecords } from '../../../src/loading/loadrecords';
import { createExcelWorkbook } from '../../../src/workbook/excel';
import { loadDataset, refreshTable, type DataRecord } from '../../../src/loading/load';
import { createMemoryWorkbook } from '../../../src/workbook/memory';
import { fakeClient } from '../../loading/fakeClient';
import { FakeExcel, supports } from './fakeExcel';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risks = (n: number): DataRecord[] =>
  Array.from({ length: n }, (_, i) => ({ Id: guid(i), Name: `Risk ${i}`, Status: 'Active' }));
const base = { environment: 'ACC', source: 'relay', datasetId: 'risk' };

/** Where a load would go is checked before the download: refused with what to do, never half written. */
describe('a load refuses a place that cannot take it, before downloading', () => {
  const setup = () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), {
      platform: 'PC',
    });
    return { xl, workbook };
  };
  const atSelection = async (
    workbook: ReturnType<typeof setup>['workbook'],
    records = risks(3),
    overwrite?: boolean,
  ) => {
    const fake = fakeClient(records);
    const outcome = await loadDataset({
      ...base,
      client: fake.client,
      workbook,
      target: { kind: 'selection' },
      overwrite,
    });
    return { outcome, downloads: fake.calls.length };
  };

  it('a protected sheet', async () => {
    const { xl, workbook } = setup();
    xl.sheet('Sheet1').protected = true;
    const { outcome, downloads } = await atSelection(workbook);
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'target-refused', message: expect.stringMatching(/Sheet1 is protected.*Unprotect/) },
    });
    expect(downloads).toBe(0);
    expect(xl.tables).toEqual([]);
  });

  it('a table that would pass the last column', async () => {
    const { xl, workbook } = setup();
    xl.selection = { sheet: 'Sheet1', address: 'XFA1' };
    const { outcome, downloads } = await atSelection(workbook);
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'target-refused', message: expect.stringMatching(/last column \(XFD\)/) },
    });
    expect(downloads).toBe(0);
  });

  it('a table in the way', async () => {
    const { xl, workbook } = setup();
    await workbook.createTable({
      name: 'Mine',
      sheet: 'Sheet1',
      anchor: 'C20',
      columns: [{ name: 'A', format: 'text' }],
    });
    xl.selection = { sheet: 'Sheet1', address: 'B2' };
    const { outcome, downloads } = await atSelection(workbook);
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'target-refused', message: expect.stringMatching(/Table Mine is in the way/) },
    });
    expect(downloads).toBe(0);
    expect(xl.tables.map((t) => t.name)).toEqual(['Mine']);
  });

  it('non-empty cells below the selection: asks first, overwrites only when told to', async () => {
    const { xl, workbook } = setup();
    xl.selection = { sheet: 'Sheet1', address: 'B2' };
    xl.cell(xl.sheet('Sheet1'), 4, 2).value = 'precious';
    xl.cell(xl.sheet('Sheet1'), 6, 3).value = 42;
    const asked = await atSelection(workbook);
    expect(asked.outcome).toMatchObject({
      ok: false,
      error: { code: 'target-not-empty', message: expect.stringMatching(/Cells Sheet1!C5:D7 hold data/) },
    });
    expect(asked.downloads).toBe(0);
    expect(xl.peek('Sheet1', 'C5')!.value).toBe('precious');
    expect(xl.tables).toEqual([]);
    const told = await atSelection(workbook, risks(3), true);
    expect(told.outcome).toMatchObject({ ok: true, rowCount: 3 });
  });

  it('a defined name that takes the table name: refused before the download, saying where to rename it', async () => {
    const { xl, workbook } = setup();
    xl.names = ['TBL_RISK'];
    const { outcome, downloads } = await atSelection(workbook);
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'target-refused', message: expect.stringMatching(/defined name TBL_RISK.*Formulas > Name Manager/) },
    });
    expect(downloads).toBe(0);
    expect(xl.tables).toEqual([]);
  });

  it("a table that is not this dataset's load holding its name: refused, saying to rename it; a second load of the dataset is numbered", async () => {
    const { xl, workbook } = setup();
    await workbook.createTable({ name: 'tbl_risk', sheet: 'Sheet1', anchor: 'AA1', columns: [{ name: 'Mine', format: 'text' }] });
    const refused = await atSelection(workbook);
    expect(refused.outcome).toMatchObject({ ok: false, error: { code: 'target-refused', message: expect.stringMatching(/Table tbl_risk on sheet Sheet1 is not .*Table Design > Table Name/) } });
    expect(refused.downloads).toBe(0);
    expect(xl.tables.map((t) => t.name)).toEqual(['tbl_risk']);

    const again = setup();
    expect((await atSelection(again.workbook)).outcome).toMatchObject({ ok: true, table: { name: 'tbl_risk' } });
    again.xl.selection = { sheet: 'Sheet1', address: 'A20' };
    expect((await atSelection(again.workbook)).outcome).toMatchObject({ ok: true, table: { name: 'tbl_risk_2' } });
  });

  it('a defined name that takes only a numbered name is stepped over: the user asked for no name', async () => {
    const { xl, workbook } = setup();
    xl.names = ['tbl_risk_2'];
    expect((await atSelection(workbook)).outcome).toMatchObject({ ok: true, table: { name: 'tbl_risk' } });
    xl.selection = { sheet: 'Sheet1', address: 'A20' };
    const second = (await atSelection(workbook)).outcome;
    expect(second).toMatchObject({ ok: true, table: { name: 'tbl_risk_3' } });
  });

  it('more rows than fit below the selection: refused with the count and where to go, nothing written past the edge, the partial table removed', async () => {
    const { xl, workbook } = setup();
    xl.selection = { sheet: 'Sheet1', address: 'A1048570' };
    const fake = fakeClient(risks(20), { batchSize: 4 });
    const outcome = await loadDataset({
      ...base,
      client: fake.client,
      workbook,
      target: { kind: 'selection' },
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'target-refused',
        message: expect.stringMatching(/^The dataset has 20 rows, more than the 6 that fit below Sheet1!A1048570 \(Excel's sheets end at row 1,048,576\)\. Select a cell in row 1,048,556 or above, or load it into a new sheet\./),
      },
    });
    expect(xl.tables).toEqual([]);
    expect(xl.peek('Sheet1', 'A1048576')?.value ?? '').toBe('');
  });

  it('cancelled while the rows past the edge are being counted: a cancel, not a refusal, and nothing left', async () => {
    const { xl, workbook } = setup();
    xl.selection = { sheet: 'Sheet1', address: 'A1048570' };
    const ctl = new AbortController();
    const outcome = await loadDataset({
      ...base,
      client: fakeClient(risks(40), { batchSize: 4 }).client,
      workbook,
      target: { kind: 'selection' },
      signal: ctl.signal,
      onProgress: (p) => p.bytes > 1_500 && ctl.abort(),
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(xl.tables).toEqual([]);
  });

  it('a refresh of a table on a protected sheet is refused before downloading, the old data intact', async () => {
    const { xl, workbook } = setup();
    await loadDataset({
      ...base,
      client: fakeClient(risks(2)).client,
      workbook,
      target: { kind: 'new-sheet' },
    });
    xl.sheet('Risks').protected = true;
    const fake = fakeClient(risks(5));
    const outcome = await refreshTable({ ...base, client: fake.client, workbook, table: 'tbl_risk' });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'target-refused',
        tableState: 'intact',
        message: expect.stringMatching(/Risks is protected/),
      },
    });
    expect(fake.calls).toHaveLength(0);
    expect(xl.body('tbl_risk')).toHaveLength(2);
    expect((await readLoadRecords(workbook)).get('tbl_risk')!.rowCount).toBe(2);
  });

  it('a refresh that would pass the last row stops holding rows as soon as it knows and says how many there are, the old data intact', async () => {
    const { xl, workbook } = setup();
    xl.selection = { sheet: 'Sheet1', address: 'A1048560' };
    expect(
      await loadDataset({
        ...base,
        client: fakeClient(risks(5)).client,
        workbook,
        target: { kind: 'selection' },
        overwrite: true,
      }),
    ).toMatchObject({ ok: true });
    let seen = 0;
    const outcome = await refreshTable({
      ...base,
      client: fakeClient(risks(400), { batchSize: 4 }).client,
      workbook,
      table: 'tbl_risk',
      onProgress: (p) => (seen = Math.max(seen, p.rows)),
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'target-refused',
        tableState: 'intact',
        message: expect.stringMatching(/^The dataset has 400 rows, more than the 16 that fit below Sheet1!A1048560/),
      },
    });
    expect(seen).toBeLessThan(40);
    expect(xl.body('tbl_risk')).toHaveLength(5);
  });

  it('the memory workbook refuses the same places', async () => {
    const workbook = createMemoryWorkbook();
    await workbook.createTable({
      name: 'Mine',
      sheet: 'Sheet1',
      anchor: 'A5',
      columns: [{ name: 'A', format: 'text' }],
    });
    expect(
      (
        await loadDataset({
          ...base,
          client: fakeClient(risks(1)).client,
          workbook,
          target: { kind: 'selection' },
        })
      ).ok,
    ).toBe(false);
    workbook.protectSheet('Sheet1');
    workbook.select('Sheet1', 'H1');
    const out = await loadDataset({
      ...base,
      client: fakeClient(risks(1)).client,
      workbook,
      target: { kind: 'selection' },
    });
    expect(out).toMatchObject({
      ok: false,
      error: { code: 'target-refused', message: expect.stringMatching(/protected/) },
    });
  });
});

/** A refresh never grows a table over what a person keeps below it: it says what and where, and changes nothing. */
describe('a refresh that would grow the table over cells below it', () => {
  it.each([
    ['Excel', () => {
      const xl = new FakeExcel();
      const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
      const rows = (): number => xl.body('tbl_risk').length;
      return { workbook, note: (row: number, col: number, value: string) => void (xl.cell(xl.sheet('Risks'), row, col).value = value), body: rows };
    }],
    ['the preview', () => {
      const workbook = createMemoryWorkbook();
      return { workbook, note: (row: number, col: number, value: string) => workbook.setCells('Risks', `${String.fromCharCode(65 + col)}${row + 1}`, [[value]]), body: (): number => 0 };
    }],
  ])('is refused in %s, naming the cells, the old data and binding intact; a refresh that stops short of them goes on', async (_, make) => {
    const { workbook, note, body } = make();
    expect(await loadDataset({ ...base, client: fakeClient(risks(2)).client, workbook, target: { kind: 'new-sheet' } })).toMatchObject({ ok: true });
    note(6, 1, 'keep me'); // B7: the table is A1:C3, so 4 more rows reach row 7
    const refused = await refreshTable({ ...base, client: fakeClient(risks(6)).client, workbook, table: 'tbl_risk' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'target-not-empty', tableState: 'intact', message: expect.stringMatching(/grows by 4 rows with this refresh, down over Risks!B7, which holds data that would be overwritten.*at least to row 8/) } });
    const bound = (await readLoadRecords(workbook)).get('tbl_risk')!;
    expect(bound.rowCount).toBe(2);
    if (body()) expect(body()).toBe(2);
    expect(await refreshTable({ ...base, client: fakeClient(risks(5)).client, workbook, table: 'tbl_risk' })).toMatchObject({ ok: true, rowCount: 5 });
  });
});
