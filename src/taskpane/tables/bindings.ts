import { reconcileBindings } from '../../loading/bindings';
import type { WorkbookPort } from '../../workbook/port';

/** A loaded table as the Tables screen lists it: the stored binding joined with where the table is now. */
export interface TableBinding {
  table: string;
  dataset: string;
  environment: string;
  source: string;
  loadedAt: string;
  rows: number;
  /** Where the table is. */
  sheet: string;
}

/** The loaded tables still in the workbook, under their current names; a deleted table's binding is removed. */
export async function readTableBindings(workbook: WorkbookPort): Promise<TableBinding[]> {
  const { bindings, tables } = await reconcileBindings(workbook);
  return [...bindings.values()].map((b) => {
    const shape = tables.get(b.table);
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

/** The Tables screen's first read, as a value: an Excel error becomes a message, never a pane stuck reading. */
export async function readTablesOrError(workbook: WorkbookPort): Promise<{ ok: true; bindings: TableBinding[] } | { ok: false; message: string }> {
  try {
    return { ok: true, bindings: await readTableBindings(workbook) };
  } catch (e) {
    return { ok: false, message: `The workbook could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}
