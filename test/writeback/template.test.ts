import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { WritebackApi } from '../../src/writeback/api';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { RESULT_COLUMNS } from '../../src/writeback/results';
import { tableRecord } from '../../src/writeback/tablerecord';
import { LOOKUP_SHEET, createTemplate } from '../../src/writeback/template';
import { standing } from './fixtures';

const api: WritebackApi = {
  download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
  call: async () => {
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
    expect(shape.columns.slice(-5)).toEqual([...RESULT_COLUMNS, 'Row key']);
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
});
