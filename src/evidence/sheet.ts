import type { StatementWho } from '../contracts/evidence';
import type { LoadRecord } from '../loading/loadrecords';
import { isoToSerial } from '../sheet/serial';
import type { Cell, ColumnSpec, WorkbookPort } from '../workbook/port';
import { leadStatement, partsAtLoad, statementClaims } from './record';

/**
 * The Evidence sheet: one group of rows per load or refresh, newest first. The group's first row is its
 * record count; the rows under it are its other control totals. Each row has the total as recorded at the
 * load beside a live Excel formula over the table's column (`In Excel now`) and whether they agree, so a
 * reviewer sees in Excel itself whether the table still adds up. The formula is one calculated column for
 * the whole sheet (the same in every row, which all three hosts keep and extend): it reads the row's
 * structured reference (`Reference`, e.g. `tbl_incidents[Amount]`) through INDIRECT and applies
 * ROWS, SUBTOTAL(109,…), COUNTA, MIN or MAX as the row's total says.
 */
export const EVIDENCE_SHEET = 'Evidence';
export const EVIDENCE_TABLE = 'GrcEvidence';

const NOW = 'In Excel now';
// The file format's spelling of "this row" ([@Total] is Excel's display of it, not stored in files).
const at = (column: string) => `${EVIDENCE_TABLE}[[#This Row],[${column}]]`;
export type Measure = 'records' | 'sum' | 'non-empty' | 'earliest' | 'latest';
const ref = `INDIRECT(${at('Reference')})`;
const NOW_FORMULA = `=IFERROR(CHOOSE(MATCH(${at('Total')},{"records","sum","non-empty","earliest","latest"},0),ROWS(${ref}),SUBTOTAL(109,${ref}),COUNTA(${ref}),MIN(${ref}),MAX(${ref})),"column not found")`;
// Dates agree to the millisecond (1e-7 of a day is 8.6 ms); sums to 9 significant digits (Excel adds in
// doubles, the recorded sum is exact).
const SAME_FORMULA = `=IF(ISNUMBER(${at(NOW)}),IF(ABS(${at(NOW)}-${at('Recorded')})<=IF(OR(${at('Total')}="earliest",${at('Total')}="latest"),0.0000001,0.000000001*MAX(1,ABS(${at('Recorded')}))),"yes","NO"),"NO")`;

export const EVIDENCE_COLUMNS: ColumnSpec[] = [
  { name: 'Time', format: 'datetime', width: 120 },
  { name: 'Table', format: 'text' },
  { name: 'Dataset', format: 'text' },
  { name: 'Environment', format: 'text' },
  { name: 'Who', format: 'text' },
  { name: 'Signature', format: 'text', width: 200 },
  { name: 'Request id', format: 'text' },
  { name: 'Total', format: 'text' },
  { name: 'Column', format: 'text' },
  { name: 'Recorded', format: 'general' },
  { name: 'Recorded exactly', format: 'text', headerNote: 'The total as docs/evidence.md defines it: exact decimal sums, dates to the millisecond.' },
  { name: 'Reference', format: 'text', hidden: true },
  { name: NOW, format: 'general', formula: NOW_FORMULA },
  { name: 'Adds up', format: 'text', formula: SAME_FORMULA },
];
/** The columns a group's rows write; the formula columns follow them. */
const WRITTEN = EVIDENCE_COLUMNS.findIndex((c) => c.formula);

export function whoText(who: StatementWho): string {
  if (who.kind === 'person') return who.name ? `${who.name} (${who.subject})` : who.subject;
  if (who.kind === 'client') return `service client ${who.clientId}`;
  return `key ${who.fingerprint}`;
}

/** A structured reference to a table column, with Excel's escapes for [ ] # ' in the name. */
export const columnReference = (table: string, column: string): string => `${table}[${column.replace(/['[\]#]/g, (c) => `'${c}`)}]`;

/** The rows of one load's group. `time` is the binding's loadedAt as a local-time serial. */
export function evidenceRows(b: LoadRecord, signature: string): Cell[][] {
  const totals = b.evidence?.totals;
  const lead = leadStatement(b.datasetId, b.evidence);
  const claims = lead ? statementClaims(lead) : null;
  const local = new Date(b.loadedAt);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const time = isoToSerial(`${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`);
  const head = [time, b.table, b.datasetId, b.environment, claims ? whoText(claims.who) : '', signature, claims?.requestId ?? ''];
  const first = b.columns[0] ?? '';
  const row = (measure: Measure, column: string, recorded: Cell, exactly: string): Cell[] => [...head, measure, column, recorded, exactly, columnReference(b.table, column)];
  const out: Cell[][] = [row('records', first, b.rowCount, String(totals?.records ?? b.rowCount))];
  for (const c of totals?.columns ?? []) {
    if (c.sum !== undefined) out.push(row('sum', c.name, Number(c.sum), c.sum));
    out.push(row('non-empty', c.name, c.nonEmpty, String(c.nonEmpty)));
    if (c.earliest !== undefined) out.push(row('earliest', c.name, isoToSerial(c.earliest), c.earliest));
    if (c.latest !== undefined) out.push(row('latest', c.name, isoToSerial(c.latest), c.latest));
  }
  return out;
}

/** Signature status in words, as the Evidence sheet and the Tables card show it at load time. */
export function signatureAtLoad(b: LoadRecord): string {
  const parts = b.evidence?.parts;
  if (parts) {
    const { signed, refused, unsigned } = partsAtLoad(parts);
    if (refused) return `NOT signed: ${refused.dataset}: ${refused.problem}`;
    const lead = leadStatement(b.datasetId, b.evidence);
    const claims = lead ? statementClaims(lead) : null;
    if (!signed) return 'not signed (the relay gave no statements)';
    const each = `each of the ${parts.length} datasets the register read (${parts.map((p) => p.dataset).join(', ')})`;
    return unsigned.length ? `partly signed: ${unsigned.join(', ')} not signed` : `signed by the relay ${claims?.time ?? ''}: ${each}`;
  }
  if (b.evidence?.problem) return `NOT signed: ${b.evidence.problem}`;
  if (!b.evidence?.statement) return 'not signed (the relay gave no statement)';
  const claims = statementClaims(b.evidence.statement);
  return claims ? `signed by the relay ${claims.time}` : 'statement unreadable';
}

/** Puts a load's group at the top of the Evidence sheet (made when missing). */
export async function writeEvidence(workbook: WorkbookPort, b: LoadRecord): Promise<void> {
  let table = await workbook.findTable(EVIDENCE_TABLE);
  if (!table) {
    const sheet = await workbook.addSheet(EVIDENCE_SHEET);
    table = await workbook.createTable({ name: EVIDENCE_TABLE, sheet, anchor: 'A1', columns: EVIDENCE_COLUMNS });
  }
  const group = evidenceRows(b, signatureAtLoad(b));
  const before = table.rowCount ? (await workbook.readRows(EVIDENCE_TABLE, 0, table.rowCount)).rows.map((r) => r.slice(0, WRITTEN)) : [];
  // A table made with no body row has one empty row in Excel: it is not a group.
  const kept = before.filter((r) => r.some((c) => c !== null && c !== ''));
  await workbook.writeRows(EVIDENCE_TABLE, 0, [...group, ...kept]);
  await workbook.setRowCount(EVIDENCE_TABLE, group.length + kept.length);
}

/**
 * The Evidence sheet's group for a load that succeeded. The table and its binding are in place by then: a
 * failure here does not undo the load, it is said (null: written).
 */
export async function recordEvidence(workbook: WorkbookPort, b: LoadRecord): Promise<string | null> {
  if (!b.evidence) return null;
  try {
    await writeEvidence(workbook, b);
    return null;
  } catch (e) {
    return `The Evidence sheet could not be updated for ${b.table}: ${(e as Error).message ?? String(e)}. The table's evidence is kept with it; grc-sheets verify checks it.`;
  }
}
