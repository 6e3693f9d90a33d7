import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeByRuns } from '../../src/workbook/columns';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { openFileWorkbook, writeEmptyWorkbook } from '../../src/workbook/file';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell, WorkbookPort } from '../../src/workbook/port';
import { FakeExcel, supports } from './excel/fakeExcel';

describe('writeByRuns', () => {
  it('writes each run of cells that go to adjacent columns in the same order once, and nothing else', async () => {
    const runs = async (positions: number[]) => {
      const calls: [number, unknown[][]][] = [];
      await writeByRuns([positions.map((p) => `v${p}`)], positions, async (rows, first) => {
        calls.push([first, rows.map((r) => [...r])]);
        return { syncs: 1, maxPayloadBytes: 0 };
      });
      return calls;
    };
    expect(await runs([0, 1, 2])).toEqual([[0, [['v0', 'v1', 'v2']]]]);
    expect(await runs([0, 2, 3])).toEqual([
      [0, [['v0']]],
      [2, [['v2', 'v3']]],
    ]);
    expect(await runs([3, 0, 1])).toEqual([
      [3, [['v3']]],
      [0, [['v0', 'v1']]],
    ]);
    expect(await runs([1, 0])).toEqual([
      [1, [['v1']]],
      [0, [['v0']]],
    ]);
    expect(await runs([])).toEqual([]);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'grc-columns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each host, and the workbook as it reads after its writes (the saved file: saved and opened again). */
const hosts: [string, () => Promise<{ workbook: WorkbookPort; reopen(): Promise<WorkbookPort> }>][] = [
  [
    'the memory workbook',
    async () => {
      const workbook = createMemoryWorkbook();
      return { workbook, reopen: async () => workbook };
    },
  ],
  [
    'the Excel adapter',
    async () => {
      const workbook = createExcelWorkbook(new FakeExcel().run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
      return { workbook, reopen: async () => workbook };
    },
  ],
  [
    'the saved file',
    async () => {
      const path = join(dir, `${Math.random().toString(36).slice(2)}.xlsx`);
      writeEmptyWorkbook(path);
      const workbook = openFileWorkbook(path);
      return {
        workbook,
        reopen: async () => {
          workbook.saveTo(`${path}.out.xlsx`);
          workbook.close();
          return openFileWorkbook(`${path}.out.xlsx`);
        },
      };
    },
  ],
];

describe.each(hosts)('writeRows with a column per cell on %s', (_, make) => {
  it("puts each cell in its column, in any order, around the user's column, growing the table", async () => {
    const host = await make();
    const { workbook } = host;
    await workbook.addSheet('S');
    // U is the user's column: a refresh never writes it.
    await workbook.createTable({ name: 'T', sheet: 'S', anchor: 'B2', columns: ['a', 'U', 'b', 'c'].map((name) => ({ name, format: 'general' as const })) });
    await workbook.writeRows('T', 0, [['a0', 'u0', 'b0', 'c0'], ['a1', 'u1', 'b1', 'c1']]);
    // The dataset's fields come as c, a, b: to columns 3, 0 and 2.
    const rows: Cell[][] = Array.from({ length: 4 }, (_, i) => [`C${i}`, `A${i}`, i]);
    await workbook.writeRows('T', 0, rows, [3, 0, 2]);
    const again = await host.reopen();
    const read = await again.readRows('T');
    (again as { close?: () => void }).close?.();
    expect(read).toEqual({
      columns: ['a', 'U', 'b', 'c'],
      rows: [
        ['A0', 'u0', 0, 'C0'],
        ['A1', 'u1', 1, 'C1'],
        ['A2', null, 2, 'C2'],
        ['A3', null, 3, 'C3'],
      ],
    });
  });
});
