import type { WorkbookPort } from '../workbook/port';
import { LOAD_RECORDS_KEY } from './loadrecords';

/**
 * Tables named as a load names them (`tbl_` and the dataset, loading/load.ts tableNameFor) in a workbook
 * that holds none of the add-in's records: the file was saved by a tool that drops the add-in's settings
 * part (openpyxl does), so which dataset each table holds is gone. Empty when the records are there.
 */
export async function tablesWithoutRecords(workbook: WorkbookPort): Promise<string[]> {
  if ((await workbook.getSetting(LOAD_RECORDS_KEY)) !== undefined) return [];
  return (await workbook.listTables()).map((t) => t.name).filter((name) => name.startsWith('tbl_'));
}

/** Why: the words `grc-sheets verify` and `grc-sheets refresh` both give. */
export const RECORDS_DROPPED =
  "the workbook holds none of the add-in's records (its settings part is gone: the file was rewritten by a tool that drops it, such as openpyxl)";
