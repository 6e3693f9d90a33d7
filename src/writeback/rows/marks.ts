import { z } from 'zod';
import type { CellMark, WorkbookPort } from '../../workbook/port';
import { updateSetting } from '../../workbook/settings';
import type { Problem } from '../problem';
import { marksOf } from './validate';

/**
 * Marks problem cells and clears the marks of the previous validation, which the workbook remembers (so
 * a fixed cell loses its red fill without repainting the whole table).
 */
const SETTING = 'grc-sheets.writeback.marks';
const remembered = z.record(z.string(), z.array(z.tuple([z.number(), z.string()]))).catch({});

export async function markProblems(
  workbook: WorkbookPort,
  table: string,
  problems: readonly Problem[],
): Promise<void> {
  const all = remembered.parse((await workbook.getSetting(SETTING)) ?? {});
  const marks = marksOf(problems);
  const now = new Set(marks.map((m) => `${m.row}\u0000${m.column}`));
  const { columns } = await workbook.readRows(table, 0, 0);
  const clear: CellMark[] = (all[table] ?? [])
    .filter(([row, column]) => !now.has(`${row}\u0000${column}`) && columns.includes(column))
    .map(([row, column]) => ({ row, column, kind: 'none' }));
  await workbook.markCells(table, [...clear, ...marks]);
  await updateSetting(workbook, SETTING, (current) => ({ ...remembered.parse(current ?? {}), [table]: marks.map((m) => [m.row, m.column]) }));
}
