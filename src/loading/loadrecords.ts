import { z } from 'zod';
import type { TableShape, WorkbookPort } from '../workbook/port';
import { updateSetting } from '../workbook/settings';
import { fingerprint } from './fingerprint';
import { cellPrint } from './tableprint';
import { tableEvidence } from '../evidence/record';

/**
 * What each loaded table holds, stored in the workbook's settings so a refresh (by anyone who opens the
 * file) knows where the data came from: the table's load record. Settings travel with the file: a load record
 * never holds a secret. The setting's key keeps its first name (`grc-sheets.bindings`): workbooks saved before
 * the rename still refresh.
 */
export const LOAD_RECORDS_KEY = 'grc-sheets.bindings';

// Strict objects: a field we did not plan for (a password someone added) is refused, not carried along.
export const loadRecord = z.strictObject({
  /** The table's name when last seen, for display; the record follows the table by `tableId`. */
  table: z.string().min(1),
  /** Excel's `Table.id`: unchanged by a rename. Missing in records stored before it was kept. */
  tableId: z.string().min(1).optional(),
  /** The environment's name as the relay lists it (ACC, PRD, sandbox ...). */
  environment: z.string().min(1),
  /** Where it was fetched through, for people reading the file: e.g. "relay https://relay.example.com". */
  source: z.string(),
  datasetId: z.string().min(1),
  params: z.strictObject({ guid: z.string().optional() }),
  loadedAt: z.iso.datetime(),
  rowCount: z.number().int().nonnegative(),
  /** The dataset's columns (their headers), in table order; columns a user added are not listed. */
  columns: z.array(z.string()),
  /**
   * The record field of each of `columns`, same order (columnplan.ts). Missing in a table loaded before
   * headers in words: its headers are the field names, and stay so.
   */
  fields: z.array(z.string()).optional(),
  /** Fields the user left out when choosing the columns: a refresh does not add them back. */
  omitted: z.array(z.string()).optional(),
  /** What the last load or refresh received (fingerprint.ts); missing where the host made none. */
  fingerprint: fingerprint.optional(),
  /** What the table's cells held after it (tableprint.ts): hand edits since are found against it. */
  cells: cellPrint.optional(),
  /** Control totals and the relay's signed statement of the last load or refresh (src/evidence/record.ts). */
  evidence: tableEvidence.optional(),
});
export type LoadRecord = z.infer<typeof loadRecord>;

const stored = z.object({ version: z.literal(1), tables: z.record(z.string(), z.unknown()) });

const SECRET_VALUE = /^(basic|bearer|digest)\s+\S|:\/\/[^/@\s]*:[^/@\s]*@/i;

/** Names a credential-looking string in a load record (an Authorization value, a URL with user:password@). */
function secretIn(b: LoadRecord): string | null {
  const strings: [string, string][] = [
    ['environment', b.environment],
    ['source', b.source],
    ['datasetId', b.datasetId],
    ['table', b.table],
    ...Object.entries(b.params).map(([k, v]) => [`params.${k}`, String(v)] as [string, string]),
    ...b.columns.map((c, i) => [`columns[${i}]`, c] as [string, string]),
    ...(b.fields ?? []).map((c, i) => [`fields[${i}]`, c] as [string, string]),
  ];
  return strings.find(([, v]) => SECRET_VALUE.test(v))?.[0] ?? null;
}

export type LoadRecordCheck = { ok: true; record: LoadRecord } | { ok: false; code: 'binding-refused'; message: string };

/** Checks a load record before it is stored: known fields only, and nothing that looks like a credential. */
export function checkLoadRecord(value: unknown): LoadRecordCheck {
  const parsed = loadRecord.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    return { ok: false, code: 'binding-refused', message: `Not stored in the workbook: the table's load record has a field that does not belong there (${where}).` };
  }
  const secret = secretIn(parsed.data);
  if (secret) {
    return { ok: false, code: 'binding-refused', message: `Not stored in the workbook: ${secret} looks like a credential, and the workbook travels with the file.` };
  }
  return { ok: true, record: parsed.data };
}

/** The load records stored in the workbook, by table name. Entries that do not check out are left out. */
export async function readLoadRecords(workbook: WorkbookPort): Promise<Map<string, LoadRecord>> {
  return loadRecordsIn(await workbook.getSetting(LOAD_RECORDS_KEY));
}

function loadRecordsIn(setting: unknown): Map<string, LoadRecord> {
  const parsed = stored.safeParse(setting);
  const out = new Map<string, LoadRecord>();
  if (!parsed.success) return out;
  for (const [table, value] of Object.entries(parsed.data.tables)) {
    const check = checkLoadRecord(value);
    if (check.ok && check.record.table === table) out.set(table, check.record);
  }
  return out;
}

/** Changes the stored load records through the settings queue, so concurrent changes keep each other's entries. */
async function changeLoadRecords(workbook: WorkbookPort, change: (all: Map<string, LoadRecord>) => void): Promise<void> {
  await updateSetting(workbook, LOAD_RECORDS_KEY, (current) => {
    const all = loadRecordsIn(current);
    change(all);
    return { version: 1, tables: Object.fromEntries(all) };
  });
}

export async function saveLoadRecord(workbook: WorkbookPort, value: LoadRecord): Promise<LoadRecordCheck> {
  const check = checkLoadRecord(value);
  if (!check.ok) return check;
  await changeLoadRecords(workbook, (all) => all.set(check.record.table, check.record));
  return check;
}

export async function removeLoadRecord(workbook: WorkbookPort, table: string): Promise<void> {
  await changeLoadRecords(workbook, (all) => all.delete(table));
}

/**
 * The stored load records matched with the workbook's tables, stored again when that changes something: a
 * table renamed since its load keeps its record under the new name (found by `tableId`); a record
 * stored before ids were kept gets the id of the table of its name; a record whose table is gone (the
 * user deleted it) is removed, so it drops out of Tables and Refresh all.
 */
export async function reconcileLoadRecords(workbook: WorkbookPort): Promise<{ records: Map<string, LoadRecord>; tables: Map<string, TableShape>; removed: LoadRecord[] }> {
  const tables = await workbook.listTables();
  const byId = new Map(tables.filter((t) => t.id).map((t) => [t.id!, t]));
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  // By id, then by name. Office.js keeps a table's id for the session, not across sessions (as it does not
  // keep worksheet ids), and a saved file holds no Table.id at all (the file adapter gives none): in a
  // workbook opened again, or headless, a record's id finds nothing and its name is all there is. A table
  // another record holds by id is not taken by name.
  let claimed = new Set<string>();
  const find = (b: LoadRecord) => (b.tableId ? byId.get(b.tableId) : undefined) ?? [byName.get(b.table.toLowerCase())].find((t) => t && !(t.id && claimed.has(t.id)));
  const removed: LoadRecord[] = [];
  let result = new Map<string, LoadRecord>();
  await changeLoadRecords(workbook, (all) => {
    claimed = new Set([...all.values()].flatMap((b) => (b.tableId && byId.has(b.tableId) ? [b.tableId] : [])));
    const next = new Map<string, LoadRecord>();
    removed.length = 0;
    for (const b of all.values()) {
      const t = find(b);
      if (!t) removed.push(b);
      else next.set(t.name, { ...b, table: t.name, ...(t.id ? { tableId: t.id } : {}) });
    }
    all.clear();
    for (const [k, v] of next) all.set(k, v);
    result = next;
  });
  return { records: result, tables: new Map(tables.map((t) => [t.name, t])), removed };
}
