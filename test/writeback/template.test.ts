import { createExcelWorkbook } from '../../src/workbook/excel';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';
import type { WritebackApi } from '../../src/writeback/api';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { RESULT_COLUMNS } from '../../src/writeback/rows/results';
import { tableRecord } from '../../src/writeback/rows/tablerecord';
import { LOOKUP_SHEET, createTemplate } from '../../src/writeback/template';
import { standing } from './fixtures';

const api: WritebackApi = {
  download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
  send: async () => {
    throw new Error('a template sends nothing');
  },
};
const ACC = { name: 'ACC', production: false };

describe('new template', () => {
  it('makes a sheet and a table with the flow columns, the custom fields and the result columns, and records the environment', async () => {
    const workbook = createMemoryWorkbook();
    const shape = await createTemplate({
      api,
      workbook,
      flow: incidentsFlow,
      environment: ACC,
      now: new Date('2025-01-02T03:04:05Z'),
    });
    expect(shape.columns.slice(0, 2)).toEqual(['Name', 'Reporting organization']);
    expect(shape.columns).toContain('Records affected [Data breach]');
    expect(shape.columns.slice(-6)).toEqual([...RESULT_COLUMNS, 'Row key', 'Row state']);
    expect(await tableRecord(workbook, shape.name)).toEqual({
      flow: 'incidents',
      environment: 'ACC',
      createdAt: '2025-01-02T03:04:05.000Z',
    });
    const lookup = workbook.snapshot().sheets.find((s) => s.name === LOOKUP_SHEET)!;
    expect(lookup.hidden).toBe(true);
    expect(Object.values(lookup.cells)).toEqual(expect.arrayContaining(['Process', 'Major', 'High', 'Low']));
  });

  it('a second template of the same flow gets its own table name', async () => {
    const workbook = createMemoryWorkbook();
    const a = await createTemplate({ api, workbook, flow: contractsFlow, environment: ACC });
    const b = await createTemplate({ api, workbook, flow: contractsFlow, environment: ACC });
    expect([a.name, b.name]).toEqual(['GrcContracts', 'GrcContracts2']);
    expect(a.sheet).not.toBe(b.sheet);
  });

  it('ACC and PRD templates in one workbook keep their own dropdown lists (memory and Excel)', async () => {
    const prdApi: WritebackApi = {
      ...api,
      download: async (id) => ({
        records: (standing.get(id) ?? []).map((r) => (id === 'thirdparty' ? { ...r, Name: `PRD ${String(r.Name)}` } : r)),
      }),
    };
    const PRD = { name: 'PRD', production: true };
    const xl = new FakeExcel();
    const excel = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
    const memory = createMemoryWorkbook();
    for (const workbook of [memory, excel]) {
      const acc = await createTemplate({ api, workbook, flow: contractsFlow, environment: ACC });
      const prd = await createTemplate({ api: prdApi, workbook, flow: contractsFlow, environment: PRD });
      expect([acc.name, prd.name]).toEqual(['GrcContracts', 'GrcContracts2']);
    }
    const accNames = (standing.get('thirdparty') ?? []).map((r) => String(r.Name));
    expect(accNames.length).toBeGreaterThan(0);
    const column = (cells: Record<string, unknown>, header: string) => {
      const letter = Object.entries(cells).find(([a, v]) => /^[A-Z]+1$/.test(a) && v === header)?.[0].slice(0, -1);
      return Object.entries(cells).filter(([a]) => letter && a.startsWith(letter) && a !== `${letter}1` && /^[A-Z]+\d+$/.test(a) && a.replace(/\d+$/, '') === letter).map(([, v]) => v);
    };
    const memLists = memory.snapshot().sheets.find((s) => s.name === LOOKUP_SHEET)!.cells;
    expect(column(memLists, 'Third party (ACC)')).toEqual(expect.arrayContaining(accNames));
    expect(column(memLists, 'Third party (PRD)')).toEqual(expect.arrayContaining(accNames.map((n) => `PRD ${n}`)));
    const xlLists = Object.fromEntries([...xl.sheet(LOOKUP_SHEET).cells].map(([a, c]) => [a, c.value]));
    expect(column(xlLists, 'Third party (ACC)')).toEqual(expect.arrayContaining(accNames));
    expect(column(xlLists, 'Third party (PRD)')).toEqual(expect.arrayContaining(accNames.map((n) => `PRD ${n}`)));
    // Each table's dropdown points at its own environment's list.
    const source = (table: string) => {
      const t = xl.table(table);
      return xl.peek(t.sheet.name, `A${t.row + 2}`)!.validation;
    };
    expect(source('GrcContracts')).not.toBe(source('GrcContracts2'));
  });
});
