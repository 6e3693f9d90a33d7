import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { assignKeys, newRowKeys } from '../../src/writeback/rows/rowkey';
import { created, standing } from './fixtures';

const columns = ['Name', 'Reporting organization', 'Result', 'Result GUID', 'Result message', 'Result time', 'Row key'];

async function table(rows: Cell[][]) {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({ name: 'Inc', sheet: 'Sheet1', anchor: 'A1', columns: columns.map((name) => ({ name, format: 'text' })) });
  await workbook.writeRows('Inc', 0, rows);
  return workbook;
}

describe('row keys', () => {
  it('a row copied with its key (a copy-paste) gets a key of its own; the original keeps its key', async () => {
    const wb = await table([
      ['Leak', 'Finance', 'created', 'g-1', 'Created', '2026-01-01T00:00:00Z', 'rkept'],
      ['Leak copy', 'Finance', null, null, null, null, 'rkept'],
    ]);
    const { rows } = await wb.readRows('Inc');
    const keys = await assignKeys(wb, 'Inc', columns, [{ row: 1, cells: rows[1]! }]);
    const now = (await wb.readRows('Inc')).rows;
    expect(now[0]![6]).toBe('rkept');
    expect(now[1]![6]).not.toBe('rkept');
    expect(keys.get(1)).toBe(now[1]![6]);
  });

  it('identical rows each take a key of their own, in table order; keys are drawn many at a time (11,000, past one draw of 64 KiB), all distinct', async () => {
    const same: Cell[] = ['Twin', 'Finance', null, null, null, null, null];
    const wb = await table([same, ['Other', 'Finance', null, null, null, null, null], same, same]);
    const { rows } = await wb.readRows('Inc');
    const keys = await assignKeys(wb, 'Inc', columns, [0, 2, 3].map((row) => ({ row, cells: rows[row]! })));
    const now = (await wb.readRows('Inc')).rows.map((r) => r[6]);
    expect([keys.get(0), null, keys.get(2), keys.get(3)]).toEqual(now);
    expect(new Set([now[0], now[2], now[3]]).size).toBe(3);
    const many = newRowKeys(11_000);
    expect(many.every((k) => /^r[0-9a-f]{12}$/.test(k))).toBe(true);
    expect(new Set(many).size).toBe(11_000);
  });

  it('a row edited or deleted since validation has no key, and is not sent', async () => {
    const wb = await table([
      ['A', 'Finance', null, null, null, null, null],
      ['B', 'Finance', null, null, null, null, null],
      ['C', 'Finance', null, null, null, null, null],
    ]);
    const calls: string[] = [];
    const api: WritebackApi = {
      download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
      send: async (_op, o) => {
        calls.push((o?.body as { Name: string }).Name);
        return created(`99999999-0000-4000-8000-00000000000${calls.length}`);
      },
    };
    const plan = await preparePost({ api, workbook: wb, table: 'Inc', flow: incidentsFlow, environment: { name: 'ACC', production: false } });
    // While the confirmation is open: row B is deleted, row C's name is changed.
    wb.deleteRows('Inc', 1);
    await wb.writeRows('Inc', 1, [['C2']]);
    const summary = await plan.run();
    expect(calls).toEqual(['A']);
    expect(summary.outcomes.map((o) => [o.status, o.message])).toEqual([
      ['created', 'Created'],
      ['not sent', 'Not sent: the row was deleted or edited after validation; Post again'],
      ['not sent', 'Not sent: the row was deleted or edited after validation; Post again'],
    ]);
    const after = (await wb.readRows('Inc')).rows.map((r) => [r[0], r[2]]);
    expect(after).toEqual([
      ['A', 'created'],
      ['C2', null],
    ]);
  });
  it('a row deleted during the post, before its turn, is not sent: in the taskpane a person works in the sheet while it posts', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `D${i}`);
    const wb = await table(names.map((n) => [n, 'Finance', null, null, null, null, null]));
    const calls: string[] = [];
    const api: WritebackApi = {
      download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
      send: async (_op, o) => {
        calls.push((o?.body as { Name: string }).Name);
        // While the first row is being sent, the person deletes row D5, which was not sent yet.
        if (calls.length === 1) wb.deleteRows('Inc', 5);
        return created(`99999999-0000-4000-8000-${String(calls.length).padStart(12, '0')}`);
      },
    };
    const plan = await preparePost({ api, workbook: wb, table: 'Inc', flow: incidentsFlow, environment: { name: 'ACC', production: false } });
    const summary = await plan.run({ concurrency: 1 });
    expect(calls).toEqual(names.filter((n) => n !== 'D5'));
    expect(summary.outcomes.find((o) => o.row === 5)).toMatchObject({ status: 'not sent', message: 'Not sent: the row was deleted or edited after validation; Post again' });
  });
});
