import type { Cell, ColumnSpec, WorkbookPort } from '../workbook/port';
import type { RunSummary } from './post';
import { timeCell } from './rows/resulttime';
import { AUDIT_HEAD_KEY, chained, ENTRY_HASH, PREVIOUS_HASH } from './auditchain';
import { NO_WRITE } from './post/receipts';

/**
 * The audit trail of write-back runs, on its own sheet: one row per row outcome, with who ran it (a
 * fingerprint of the key's identifier, never the key itself, and the signed-in person when the relay holds
 * the key), where, and when. Rows are only appended. The service itself records every write as the key's
 * owner: the person is known to the relay and to this sheet only, and the last column says so.
 */
export const AUDIT_SHEET = 'Write-back audit';
export const AUDIT_TABLE = 'GrcWritebackAudit';
export const RELAY_RECEIPT = 'Relay receipt';

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
  // Signed in through the relay (relay-held key): who the person is. Blank with a personal key.
  { name: 'Signed-in person', format: 'text' },
  { name: 'Person ID', format: 'text' },
  { name: 'The service records', format: 'text' },
  // The relay's signed receipts of the row's writes (post/receipts.ts), inside the chain. Audit tables
  // chained before it keep their layout: their rows are written without it.
  { name: RELAY_RECEIPT, format: 'text' },
  // The hash chain (auditchain.ts): always the last two columns.
  { name: PREVIOUS_HASH, format: 'text' },
  { name: ENTRY_HASH, format: 'text' },
];

/** The signed-in person who ran a post (the token's subject and display name). */
export interface Actor {
  subject: string;
  name: string;
}

const SERVICE_RECORDS = "the key's owner, not the person";

/** A short SHA-256 fingerprint of a key identifier: tells runs by different keys apart without revealing the key. */
export async function keyFingerprint(identifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(identifier));
  return `key:${[...new Uint8Array(digest)]
    .slice(0, 6)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')}`;
}

export function auditRows(summary: RunSummary, who: string, actor?: Actor): Cell[][] {
  // The row number Excel shows on the posted table's sheet, the header row counted.
  return summary.outcomes.map((o) => [
    timeCell(summary.startedAt),
    timeCell(summary.finishedAt),
    who,
    summary.environment,
    summary.flow,
    summary.table,
    summary.firstRow + o.row,
    o.status,
    o.guid,
    o.message,
    summary.formulaText ?? '',
    actor?.name ?? '',
    actor?.subject ?? '',
    SERVICE_RECORDS,
    o.receipt ?? NO_WRITE,
  ]);
}

export async function writeAudit(workbook: WorkbookPort, summary: RunSummary, who: string, actor?: Actor): Promise<number> {
  let table = await workbook.findTable(AUDIT_TABLE);
  if (!table) {
    const sheet = await workbook.addSheet(AUDIT_SHEET);
    table = await workbook.createTable({ name: AUDIT_TABLE, sheet, anchor: 'A1', columns });
  }
  // Audit tables made before a column was added get it at the right end, where the rows put it.
  const missing = columns.slice(table.columns.length);
  if (missing.length && missing.every((c) => !table!.columns.includes(c.name)))
    table = await workbook.addColumns(AUDIT_TABLE, missing);
  // Cells by column name, laid out as this table has its columns (an older table may lack some).
  const names = columns.map((c) => c.name);
  const chainAt = table.columns.indexOf(PREVIOUS_HASH);
  const at = (chainAt < 0 ? names.slice(0, -2) : table.columns.slice(0, chainAt)).map((n) => names.indexOf(n));
  const rows = auditRows(summary, who, actor).map((r) => at.map((i) => (i < 0 ? '' : r[i]!)));
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
