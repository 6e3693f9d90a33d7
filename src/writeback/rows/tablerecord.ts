import { z } from 'zod';
import type { WorkbookPort } from '../../workbook/port';
import { updateSetting } from '../../workbook/settings';

/**
 * Which flow a write-back table belongs to and which environment it was filled for, kept in the
 * workbook's settings so it travels with the file (never credentials). Read with a schema: a file can
 * come from anywhere.
 */
const SETTING = 'grc-sheets.writeback.tables';

const tableRecordSchema = z.object({
  flow: z.enum(['incidents', 'thirdparties', 'contracts', 'tasks']),
  environment: z.string(),
  createdAt: z.string(),
});
export type TableRecord = z.infer<typeof tableRecordSchema>;
const allRecords = z.record(z.string(), tableRecordSchema).catch({});

export async function tableRecords(workbook: WorkbookPort): Promise<Record<string, TableRecord>> {
  return allRecords.parse((await workbook.getSetting(SETTING)) ?? {});
}

export async function tableRecord(workbook: WorkbookPort, table: string): Promise<TableRecord | undefined> {
  return (await tableRecords(workbook))[table];
}

export async function saveTableRecord(
  workbook: WorkbookPort,
  table: string,
  record: TableRecord,
): Promise<void> {
  await updateSetting(workbook, SETTING, (current) => ({ ...allRecords.parse(current ?? {}), [table]: record }));
}
