import { ApiError } from '../../src/client';
import { createExcelWorkbook } from '../../src/workbook/excel';
import type { WritebackApi } from '../../src/writeback/api';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';
import { standing, created } from './fixtures';

/**
 * A post through the Excel adapter (on the fake Excel) while the user sorts and inserts rows between the
 * adapter's round trips, with lost answers: results land on their own rows, every record is made once.
 */
const N = 60;
const name = (i: number) => `Row ${String(i).padStart(3, '0')}`;

it('sorts and inserts between round trips of a post through the Excel adapter move no result onto another row', async () => {
  const xl = new FakeExcel();
  const wb = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18, false), { platform: 'PC' });
  await wb.createTable({
    name: 'Inc',
    sheet: 'Sheet1',
    anchor: 'A1',
    columns: ['Name', 'Reporting organization', 'Description'].map((c) => ({ name: c, format: 'text' as const })),
  });
  await wb.writeRows('Inc', 0, Array.from({ length: N }, (_, i) => [name(i), 'Finance', `d${i}`]));

  const made = new Map<string, string[]>();
  let calls = 0;
  const api: WritebackApi = {
    async download(id) {
      if (id !== 'incidents') return { records: [...(standing.get(id) ?? [])] };
      return {
        records: [...made].flatMap(([n, ids]) =>
          ids.map((Id) => ({ Id, Name: n, ReportingOrganization: 'Finance', Description: `d${Number(n.slice(4))}`, DateRegistered: new Date().toISOString() })),
        ),
      };
    },
    async send(_op, o) {
      const body = o!.body as { Name: string };
      const Id = `99999999-0000-4000-8000-${String(++calls).padStart(12, '0')}`;
      made.set(body.Name, [...(made.get(body.Name) ?? []), Id]);
      // Every ninth answer is lost after the record was made.
      if (calls % 9 === 0) throw new ApiError({ code: 'outcome-unknown', sent: 'unknown', message: 'dropped' });
      return created(Id);
    },
  };

  let syncs = 0;
  xl.beforeSync = () => {
    syncs++;
    if (syncs % 7 === 0) xl.sortTable('Inc', syncs % 2 ? 0 : 2, syncs % 3 ? 'descending' : 'ascending');
    if (syncs % 29 === 0) xl.insertTableRows('Inc', 3, 1);
  };
  const env = { name: 'ACC', production: false };
  for (let run = 0; run < 5; run++) {
    const plan = await preparePost({ api, workbook: wb, table: 'Inc', flow: incidentsFlow, environment: env });
    if (plan.toSend + plan.toCheck === 0) break;
    await plan.run({ concurrency: 4 });
  }
  xl.beforeSync = null;
  expect(syncs).toBeGreaterThan(100);

  const header = xl.header('Inc').map(String);
  const at = (c: string) => header.indexOf(c);
  const rows = xl.body('Inc').filter((r) => r[0] !== '');
  expect(rows).toHaveLength(N);
  for (const r of rows) {
    const n = String(r[at('Name')]);
    expect(r[at('Description')]).toBe(`d${Number(n.slice(4))}`);
    expect(r[at('Result')]).toBe('created');
    expect(made.get(n)).toEqual([r[at('Result GUID')]]);
  }
  expect([...made.values()].flat()).toHaveLength(N);
});
