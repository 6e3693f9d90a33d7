import { readBindings } from '../../workbook/bindings';
import type { WorkbookPort } from '../../workbook/port';

/** A loaded table as the Tables screen lists it: the stored binding joined with where the table is now. */
export interface TableBinding {
  table: string;
  dataset: string;
  environment: string;
  source: string;
  loadedAt: string;
  rows: number;
  /** Where the table is, or a note that it is gone (deleted by the user since the load). */
  sheet: string;
}

export async function readTableBindings(workbook: WorkbookPort): Promise<TableBinding[]> {
  const [bindings, tables] = await Promise.all([readBindings(workbook), workbook.listTables()]);
  const byName = new Map(tables.map((t) => [t.name, t]));
  return [...bindings.values()].map((b) => {
    const shape = byName.get(b.table);
    return {
      table: b.table,
      dataset: b.datasetId,
      environment: b.environment,
      source: b.source,
      loadedAt: b.loadedAt,
      rows: b.rowCount,
      sheet: shape ? `${shape.sheet}!${shape.topLeft}` : 'table not found in the workbook',
    };
  });
}
