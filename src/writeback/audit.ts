import type { Cell, ColumnSpec, WorkbookPort } from '../workbook/port';
import type { RunSummary } from './post';
import { timeCell } from './rows/resulttime';
import { AUDIT_HEAD_KEY, chained, ENTRY_HASH, PREVIOUS_HASH } from './auditchain';
import { NO_WRITE } from './post/receipts';

/**
 * The audit trail of write-back runs, on its own sheet: one row per row outcome, with who ran it (the
 * signed-in person when the relay holds the key; and always a fingerprint of the key's identifier, never
 * the key itself), where, and when. Rows are only appended. The service itself records every write as the key's
 * owner: the person is known to the relay and to this sheet only, and the last column says so.
 */
export const AUDIT_SHEET = 'Write-back audit';
export const AUDIT_TABLE = 'GrcWritebackAudit';
export const RELAY_RECEIPT = 'Relay receipt';
export const SENT_BODIES = 'Sent body SHA-256';

const KEY_FINGERPRINT = 'Key fingerprint';

/** Who ran it first: the signed-in person's name, else (a personal key: no person is known) the key's fingerprint. */
const columns: ColumnSpec[] = [
  // Date cells (local time, as Result time): they sort and filter as dates.
  { name: 'Run started', format: 'datetime' },
  { name: 'Run finished', format: 'datetime' },
  { name: 'Who', format: 'text' },
  { name: 'Environment', format: 'text' },
  { name: 'Flow', format: 'text' },
  { name: 'Table', format: 'text' },
  { name: 'Sheet row', format: 'integer' },
  { name: 'Result', format: 'text' },
  { name: 'GUID', format: 'text' },
  { name: 'Message', format: 'text' },
  // The run's choice for text that begins like a formula (checks/csv-injection): "as typed", "neutralised",
  // or blank when the run had none.
  { name: 'Formula-like text', format: 'text' },
  // Signed in through the relay (relay-held key): the token's subject. Blank with a personal key.
  { name: 'Person ID', format: 'text' },
  // The key the service saw, by a fingerprint that does not reveal it (keyFingerprint).
  { name: KEY_FINGERPRINT, format: 'text' },
  { name: 'The service records', format: 'text' },
  // The relay's signed receipts of the row's writes (post/receipts.ts), inside the chain. Audit tables
  // chained before it keep their layout: their rows are written without it.
  { name: RELAY_RECEIPT, format: 'text' },
  // The SHA-256 of each body the row sent and the write's reference (post/receipts.ts), inside the chain:
  // what a receipt's bodySha256 and writeRef are checked against, so a receipt moved from another row (or
  // another workbook) does not pass, even one of an identical body. Audit tables made before it keep
  // their layout, as above.
  { name: SENT_BODIES, format: 'text' },
  // The hash chain (auditchain.ts): always the last two columns.
  { name: PREVIOUS_HASH, format: 'text' },
  { name: ENTRY_HASH, format: 'text' },
];

/**
 * The columns of audit tables made before the person's name came first: Who held the key's fingerprint and
 * the name was in Signed-in person. Such a table goes on in its own layout (columns it lacks added at its
 * right end, as before), so every entry already chained keeps its cells and its hash.
 */
const earlierColumns: ColumnSpec[] = [
  ...columns.slice(0, 11),
  { name: 'Signed-in person', format: 'text' },
  { name: 'Person ID', format: 'text' },
  { name: 'The service records', format: 'text' },
  { name: PREVIOUS_HASH, format: 'text' },
  { name: ENTRY_HASH, format: 'text' },
];

/** The layout of an audit table: this version's, or the earlier one of a table made before it. */
const layoutOf = (existing: readonly string[] | null) => (!existing || existing.includes(KEY_FINGERPRINT) ? columns : earlierColumns);

/** The signed-in person who ran a post (the token's subject and display name). */
export interface Actor {
  subject: string;
  name: string;
}

const SERVICE_RECORDS = "the key's owner, not the person";

/** The entries' cells left of the chain, in the order of `names` (the table's own columns: an older table may lack some). */
export function auditRows(summary: RunSummary, key: string, actor?: Actor, layout: readonly ColumnSpec[] = columns, names: readonly string[] = layout.slice(0, -2).map((c) => c.name)): Cell[][] {
  const earlier = layout === earlierColumns;
  return summary.outcomes.map((o) => {
    const cells: Record<string, Cell> = {
      'Run started': timeCell(summary.startedAt),
      'Run finished': timeCell(summary.finishedAt),
      Who: earlier ? key : (actor?.name ?? key),
      Environment: summary.environment,
      Flow: summary.flow,
      Table: summary.table,
      // The row number Excel shows on the posted table's sheet, the header row counted.
      'Sheet row': summary.firstRow + o.row,
      Result: o.status,
      GUID: o.guid,
      Message: o.message,
      'Formula-like text': summary.formulaText ?? '',
      'Signed-in person': actor?.name ?? '',
      'Person ID': actor?.subject ?? '',
      [KEY_FINGERPRINT]: key,
      'The service records': SERVICE_RECORDS,
      [RELAY_RECEIPT]: o.receipt?.receipts ?? NO_WRITE,
      [SENT_BODIES]: o.receipt?.sentBodies ?? '',
    };
    return names.map((n) => cells[n] ?? '');
  });
}

export async function writeAudit(workbook: WorkbookPort, summary: RunSummary, who: string, actor?: Actor): Promise<number> {
  let table = await workbook.findTable(AUDIT_TABLE);
  const layout = layoutOf(table?.columns ?? null);
  if (!table) {
    const sheet = await workbook.addSheet(AUDIT_SHEET);
    table = await workbook.createTable({ name: AUDIT_TABLE, sheet, anchor: 'A1', columns });
  }
  // Audit tables made before a column was added get it at the right end, where the rows put it.
  const missing = layout.slice(table.columns.length);
  if (missing.length && missing.every((c) => !table!.columns.includes(c.name)))
    table = await workbook.addColumns(AUDIT_TABLE, missing);
  const chainAt = table.columns.indexOf(PREVIOUS_HASH);
  const rows = auditRows(summary, who, actor, layout, chainAt < 0 ? undefined : table.columns.slice(0, chainAt));
  if (!rows.length) return 0;
  // The chain goes on from the last entry's hash; an audit table from before the chain starts it.
  const last = table.rowCount ? (await workbook.readRows(AUDIT_TABLE, table.rowCount - 1, 1)).rows[0] : undefined;
  const previous = last ? String(last[table.columns.indexOf(ENTRY_HASH)] ?? '') : '';
  const linked = await chained(rows, previous);
  await workbook.writeRows(AUDIT_TABLE, table.rowCount, linked);
  // The chain's head, kept apart from the sheet: entries cut off at the end leave no break in the chain.
  await workbook.setSetting(AUDIT_HEAD_KEY, { entries: table.rowCount + rows.length, hash: linked[linked.length - 1]!.at(-1) });
  return rows.length;
}
