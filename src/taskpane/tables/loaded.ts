import { reconcileLoadRecords } from '../../loading/loadrecords';
import { evidenceState, type EvidenceState } from '../../evidence/state';
import type { WorkbookPort } from '../../workbook/port';

/** A loaded table as the Tables screen lists it: the stored load record joined with where the table is now. */
export interface LoadedTable {
  table: string;
  dataset: string;
  environment: string;
  source: string;
  loadedAt: string;
  rows: number;
  /** Where the table is. */
  sheet: string;
  /** Signed by the relay or not, and whether the cells still are what the last load wrote (src/evidence/state.ts). */
  evidence?: EvidenceState;
}

/** The loaded tables still in the workbook, under their current names; a deleted table's record is removed. */
export async function readLoadedTables(workbook: WorkbookPort): Promise<LoadedTable[]> {
  const { records, tables } = await reconcileLoadRecords(workbook);
  const out: LoadedTable[] = [];
  for (const b of records.values()) {
    const shape = tables.get(b.table);
    // One streamed read of each table: the card says whether it still is what was loaded.
    const evidence = shape ? await evidenceState(workbook, b, shape).catch(() => undefined) : undefined;
    out.push({
      table: b.table,
      dataset: b.datasetId,
      environment: b.environment,
      source: b.source,
      loadedAt: b.loadedAt,
      rows: b.rowCount,
      sheet: shape ? `${shape.sheet}!${shape.topLeft}` : 'table not found in the workbook',
      ...(evidence ? { evidence } : {}),
    });
  }
  return out;
}

/** The Tables screen's first read, as a value: an Excel error becomes a message, never a pane stuck reading. */
export async function readTablesOrError(workbook: WorkbookPort): Promise<{ ok: true; tables: LoadedTable[] } | { ok: false; message: string }> {
  try {
    return { ok: true, tables: await readLoadedTables(workbook) };
  } catch (e) {
    return { ok: false, message: `The workbook could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}
