import type { LoadRecord } from '../loading/loadrecords';
import { makeCellPrint, rowPrinter, suspectRows, type TextDigest } from '../loading/tableprint';
import { parseCell, sheetCell } from '../workbook/address';
import type { TableShape, WorkbookPort } from '../workbook/port';
import { totalsFinding, totalsScanner, type TotalsFinding } from './totals-check';
import { leadStatement, partsAtLoad, statementClaims } from './record';

/**
 * A table's cells held against the evidence its last load kept, in one streamed scan: the cell print
 * (which rows differ) and the control totals recomputed. `grc-sheets verify`, the Tables card and a
 * headless refresh's report all read it from here.
 */
export interface EvidenceScan {
  /** The cell print: verified, edited, or absent (none kept). */
  cells: 'verified' | 'edited' | 'absent';
  /** edited: the sheet rows (Sheet!A1 of their first cell) in the buckets that differ. */
  rows: string[];
  /** The row count the print was made with, and now. */
  countThen: number;
  countNow: number;
  totals: TotalsFinding;
}

export async function scanEvidence(workbook: WorkbookPort, b: LoadRecord, shape: TableShape, digest?: TextDigest): Promise<EvidenceScan> {
  const keys = b.cells?.keys ?? [];
  const recorded = b.evidence?.totals;
  const columns = [...new Set([...b.columns, ...keys, ...(recorded?.columns.map((c) => c.name) ?? [])])];
  const printer = b.cells ? rowPrinter(columns, b.columns, keys, shape.columns, b.cells.dates) : null;
  const totals = recorded ? totalsScanner(recorded, columns, shape.columns) : null;
  const countNow = await workbook.scanRows(shape.name, columns, (cells) => {
    printer?.add(cells);
    totals?.add(cells);
  });
  const found = totalsFinding(b, totals?.done() ?? null, columns.filter((c) => !shape.columns.includes(c)));
  const now = printer?.prints();
  if (!b.cells || !now) return { cells: 'absent', rows: [], countThen: b.rowCount, countNow, totals: found };
  if (makeCellPrint(now, keys, digest, b.cells.dates).sha256 === b.cells.sha256) return { cells: 'verified', rows: [], countThen: b.cells.count, countNow, totals: found };
  const at = parseCell(shape.topLeft);
  const rows = suspectRows(b.cells, now, digest).rows.map((r) => sheetCell(shape.sheet, at.row + 1 + r, at.col));
  return { cells: 'edited', rows, countThen: b.cells.count, countNow, totals: found };
}

/** The scan in a sentence for people: "changed since load: ..." or "unchanged since". */
export function changedText(scan: EvidenceScan): string | null {
  const parts: string[] = [];
  if (scan.cells === 'edited') parts.push(`cells differ in ${scan.rows.length.toLocaleString('en-US')} rows starting ${scan.rows.slice(0, 3).join(', ')}${scan.rows.length > 3 ? ' ...' : ''}`);
  if (scan.countThen !== scan.countNow) parts.push(`${scan.countThen.toLocaleString('en-US')} rows then, ${scan.countNow.toLocaleString('en-US')} now`);
  if (scan.totals.status === 'differ') parts.push(scan.totals.message);
  return parts.length ? parts.join('; ') : null;
}

/** What the Tables card and a headless refresh say of a table's evidence. */
export interface EvidenceState {
  kind: 'unchanged' | 'changed' | 'none';
  text: string;
}

function signedText(b: LoadRecord): string {
  const parts = b.evidence?.parts ? partsAtLoad(b.evidence.parts) : null;
  if (parts?.refused) return `NOT signed: the relay's statement of ${parts.refused.dataset} did not check out at load (${parts.refused.problem})`;
  if (parts?.unsigned.length && parts.signed) return `Partly signed by the relay: ${parts.unsigned.join(', ')} not signed`;
  const lead = leadStatement(b.datasetId, b.evidence);
  const claims = lead ? statementClaims(lead) : null;
  if (claims && parts) return `Signed by the relay on ${new Date(claims.time).toLocaleString()}, each of the ${b.evidence!.parts!.length} datasets the register read`;
  if (claims) return `Signed by the relay on ${new Date(claims.time).toLocaleString()}`;
  if (b.evidence?.problem) return `NOT signed: the relay's statement did not check out at load (${b.evidence.problem})`;
  return `Not signed by a relay; loaded ${new Date(b.loadedAt).toLocaleString()}`;
}

/** The state right after a load or refresh wrote the table (what `grc-sheets refresh` reports): nothing to read. */
export function stateAfterLoad(b: LoadRecord): EvidenceState {
  return { kind: 'unchanged', text: `${signedText(b)}, unchanged since.` };
}

export async function evidenceState(workbook: WorkbookPort, b: LoadRecord, shape: TableShape, digest?: TextDigest): Promise<EvidenceState> {
  if (!b.cells && !b.evidence) return { kind: 'none', text: 'No evidence kept (loaded by an earlier version): refresh it once to keep some.' };
  const signed = signedText(b);
  const changed = changedText(await scanEvidence(workbook, b, shape, digest));
  return changed ? { kind: 'changed', text: `${signed}. Changed since load: ${changed}.` } : { kind: 'unchanged', text: `${signed}, unchanged since.` };
}
