import { readLoadRecords, removeLoadRecord, saveLoadRecord, type LoadRecord } from '../../src/loading/loadrecords';
import { updateSetting } from '../../src/workbook/settings';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { loadDataset, refreshTable, type DataRecord } from '../../src/loading/load';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { WorkbookPort } from '../../src/workbook/port';
import { markProblems } from '../../src/writeback/rows/marks';
import { saveTableRecord, tableRecords } from '../../src/writeback/rows/tablerecord';
import { FakeExcel, supports } from './excel/fakeExcel';
import { fakeClient } from '../loading/fakeClient';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risks = (n: number): DataRecord[] =>
  Array.from({ length: n }, (_, i) => ({ Id: guid(i), Name: `Risk ${i}`, Status: 'Active' }));
const binding = (table: string): LoadRecord => ({
  table,
  environment: 'ACC',
  source: 'relay',
  datasetId: 'risk',
  params: {},
  loadedAt: new Date(0).toISOString(),
  rowCount: 0,
  columns: [],
});

const adapters: [string, () => WorkbookPort][] = [
  ['memory', () => createMemoryWorkbook()],
  [
    'fake Excel',
    () => {
      const xl = new FakeExcel();
      return createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
    },
  ],
];

describe.each(adapters)('settings written through one queue (%s)', (_name, make) => {
  it('keeps every entry when a load, a refresh and a post write settings at the same time', async () => {
    const workbook = make();
    const base = { environment: 'ACC', source: 'relay', workbook };
    const first = await loadDataset({
      ...base,
      client: fakeClient(risks(20)).client,
      datasetId: 'risk',
      target: { kind: 'new-sheet' },
    });
    expect(first.ok).toBe(true);
    await workbook.createTable({
      name: 'tbl_post',
      sheet: 'Sheet1',
      anchor: 'H1',
      columns: [{ name: 'Name', format: 'text' }],
    });
    await workbook.writeRows('tbl_post', 0, [['a'], ['b']]);

    const outcomes = await Promise.all([
      loadDataset({
        ...base,
        client: fakeClient(risks(30), { batchSize: 7 }).client,
        datasetId: 'risk',
        target: { kind: 'new-sheet' },
      }),
      refreshTable({ ...base, client: fakeClient(risks(25), { batchSize: 5 }).client, table: 'tbl_risk' }),
      saveTableRecord(workbook, 'tbl_post', {
        flow: 'incidents',
        environment: 'ACC',
        createdAt: new Date(0).toISOString(),
      }),
      markProblems(workbook, 'tbl_post', [
        { row: 1, column: 'Name', code: 'required', message: 'Name is needed', severity: 'error' },
      ]),
      saveLoadRecord(workbook, binding('tbl_post')),
      saveTableRecord(workbook, 'tbl_second', {
        flow: 'tasks',
        environment: 'ACC',
        createdAt: new Date(0).toISOString(),
      }),
    ]);
    expect(outcomes[0]).toMatchObject({ ok: true, table: { name: 'tbl_risk_2' } });
    expect(outcomes[1]).toMatchObject({ ok: true, rowCount: 25 });

    const bindings = await readLoadRecords(workbook);
    expect([...bindings.keys()].sort()).toEqual(['tbl_post', 'tbl_risk', 'tbl_risk_2']);
    expect(bindings.get('tbl_risk')!.rowCount).toBe(25);
    expect(Object.keys(await tableRecords(workbook)).sort()).toEqual(['tbl_post', 'tbl_second']);
    expect(await workbook.getSetting('grc-sheets.writeback.marks')).toEqual({ tbl_post: [[1, 'Name']] });
  });

  it('removing a binding goes through the same queue', async () => {
    const workbook = make();
    await Promise.all([
      saveLoadRecord(workbook, binding('a')),
      saveLoadRecord(workbook, binding('b')),
      saveLoadRecord(workbook, binding('c')),
    ]);
    await Promise.all([
      removeLoadRecord(workbook, 'a'),
      saveLoadRecord(workbook, binding('d')),
      removeLoadRecord(workbook, 'c'),
    ]);
    expect([...(await readLoadRecords(workbook)).keys()].sort()).toEqual(['b', 'd']);
  });
});

describe('one queue per workbook', () => {
  it("a workbook's settings never wait on another workbook's, and a wrapper of a workbook shares its queue", async () => {
    const slow = createMemoryWorkbook();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A change of the first workbook that is still going on...
    const first = updateSetting(slow, 'k', async () => {
      await held;
      return 1;
    });
    // ...does not hold up another workbook's: it is written while the first is still waiting.
    const other = createMemoryWorkbook();
    expect(await updateSetting(other, 'k', () => 2)).toBe(2);
    expect(await other.getSetting('k')).toBe(2);
    // A wrapper of the first (as post's durable file workbook) waits for it, and reads what it wrote.
    const wrapped = { ...slow };
    let seen: unknown = 'not yet';
    const after = updateSetting(wrapped, 'k', (current) => {
      seen = current;
      return 3;
    });
    release();
    await Promise.all([first, after]);
    expect(seen).toBe(1);
    expect(await slow.getSetting('k')).toBe(3);
  });
});
