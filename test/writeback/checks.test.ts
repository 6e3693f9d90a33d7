import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { WritebackApi } from '../../src/writeback/api';
import { unknownColumns } from '../../src/writeback/checks/columns';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { standing } from './fixtures';

const api: WritebackApi = {
  download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
  send: async () => {
    throw new Error('validation sends nothing');
  },
};

async function plan(columns: string[], rows: (string | null)[][]) {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({ name: 'Inc', sheet: 'Sheet1', anchor: 'B3', columns: columns.map((name) => ({ name, format: 'text' })) });
  await workbook.writeRows('Inc', 0, rows);
  return preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: { name: 'ACC', production: false } });
}

describe('checks across rows and of the header', () => {
  it('identical rows are warned on each, naming the others by sheet row', async () => {
    const p = await plan(['Name', 'Reporting organization'], [
      ['Leak', 'Finance'],
      ['Other', 'Finance'],
      ['Leak', 'Finance'],
      ['Leak', 'Finance'],
      ['Leak', 'IT'],
    ]);
    const twins = p.validation.problems.filter((x) => x.code === 'identical-rows');
    // Body starts on sheet row 4 (header on row 3).
    expect(twins.map((x) => [x.row, x.severity, x.column])).toEqual([
      [0, 'warning', 'Name'],
      [2, 'warning', 'Name'],
      [3, 'warning', 'Name'],
    ]);
    expect(twins[0]!.message).toContain('identical to row 6, row 7');
    expect(twins[1]!.message).toContain('identical to row 4, row 7');
    // A warning: the rows are still sent.
    expect(p.toSend).toBe(5);
    expect(p.validation.rows[2]!.problems.map((x) => x.code)).toContain('identical-rows');
  });

  it('a column the template does not know is warned, naming the closest known column', async () => {
    const p = await plan(['Name', 'Reporting organization', 'Desciption', 'My notes'], [['Leak', 'Finance', 'lost', 'x']]);
    const unknown = p.validation.problems.filter((x) => x.code === 'unknown-column');
    expect(unknown.map((x) => [x.row, x.column, x.severity])).toEqual([
      [-1, 'Desciption', 'warning'],
      [-1, 'My notes', 'warning'],
    ]);
    expect(unknown[0]!.message).toContain('did you mean "Description"?');
    expect(unknown[1]!.message).not.toContain('did you mean');
  });

  it('the result and row key columns are the post\'s own, never unknown', () => {
    expect(unknownColumns(['Name', 'Result', 'Result GUID', 'Result message', 'Result time', 'Row key'], ['Name'])).toEqual([]);
    expect(unknownColumns(['Reportng organisation'], ['Name', 'Reporting organization'])[0]!.message).toContain('"Reporting organization"');
  });
});
