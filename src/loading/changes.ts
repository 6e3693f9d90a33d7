import type { Cell, ColumnSpec, WorkbookPort } from '../workbook/port';

/**
 * What changed in a table between two refreshes, by record key: records added, removed, and the fields
 * that changed with their old and new values. Rows are compared as the table holds them (typed cells), so
 * a change is what a reader of the table would see change.
 */
export interface FieldChange {
  key: string;
  column: string;
  old: Cell;
  new: Cell;
}

export interface ChangeReport {
  /** The column the records are matched by (the dataset's Id). */
  keyColumn: string;
  added: string[];
  removed: string[];
  changed: FieldChange[];
  /** Records with at least one changed field. */
  changedRecords: number;
}

/** The column a dataset's records are told apart by: Id (every DirectData record has one), else none. */
export const keyColumnOf = (columns: readonly string[]): string | null => (columns.includes('Id') ? 'Id' : null);

export function compareRows(
  before: { columns: readonly string[]; rows: readonly (readonly Cell[])[] },
  after: { columns: readonly string[]; rows: readonly (readonly Cell[])[] },
  keyColumn: string,
): ChangeReport {
  const oldKey = before.columns.indexOf(keyColumn);
  const newKey = after.columns.indexOf(keyColumn);
  const old = new Map<string, readonly Cell[]>();
  if (oldKey >= 0) for (const r of before.rows) if (r[oldKey] !== null && r[oldKey] !== undefined) old.set(String(r[oldKey]), r);
  // Columns both sides have, by name; a column only one side has is a change of the dataset, not of records.
  const shared = after.columns.flatMap((name, i) => {
    const j = before.columns.indexOf(name);
    return j >= 0 && name !== keyColumn ? [{ name, i, j }] : [];
  });
  const names = shared.map((c) => c.name);
  const is = shared.map((c) => c.i);
  const js = shared.map((c) => c.j);
  const report: ChangeReport = { keyColumn, added: [], removed: [], changed: [], changedRecords: 0 };
  const seen = new Set<string>();
  for (const r of after.rows) {
    const key = r[newKey];
    if (key === null || key === undefined) continue;
    const k = typeof key === 'string' ? key : String(key);
    seen.add(k);
    const prev = old.get(k);
    if (!prev) {
      report.added.push(k);
      continue;
    }
    let any = false;
    for (let n = 0; n < is.length; n++) {
      const a = prev[js[n]!] ?? null;
      const b = r[is[n]!] ?? null;
      // An empty cell and an empty text are the same to a reader.
      if (a === b || ((a === null || a === '') && (b === null || b === ''))) continue;
      report.changed.push({ key: k, column: names[n]!, old: a, new: b });
      any = true;
    }
    if (any) report.changedRecords++;
  }
  for (const k of old.keys()) if (!seen.has(k)) report.removed.push(k);
  return report;
}

/** "12 added, 3 removed, 40 changed": what the taskpane and the CLI say. */
export const describeChanges = (r: ChangeReport): string =>
  `${r.added.length.toLocaleString('en-US')} added, ${r.removed.length.toLocaleString('en-US')} removed, ${r.changedRecords.toLocaleString('en-US')} changed`;

export const CHANGES_SHEET = 'Changes';
export const CHANGES_TABLE = 'tbl_changes';
export const CHANGES_COLUMNS: readonly ColumnSpec[] = [
  { name: 'Table', format: 'text' },
  { name: 'Refreshed at', format: 'text' },
  { name: 'Key', format: 'text' },
  { name: 'Change', format: 'text' },
  { name: 'Column', format: 'text' },
  // Text, so an old or new value that looks like a formula stays text in Excel too.
  { name: 'Old', format: 'text' },
  { name: 'New', format: 'text' },
];

/** The rows of the Changes table for one refresh: one per changed field, one per added or removed record. */
export function changeRows(table: string, at: string, r: ChangeReport): Cell[][] {
  return [
    ...r.added.map((k): Cell[] => [table, at, k, 'added', null, null, null]),
    ...r.removed.map((k): Cell[] => [table, at, k, 'removed', null, null, null]),
    ...r.changed.map((c): Cell[] => [table, at, c.key, 'changed', c.column, c.old, c.new]),
  ];
}

/**
 * Puts one refresh's changes in the Changes table (made on its own sheet the first time): the rows of the
 * other tables stay, this table's rows are those of its latest refresh.
 */
export async function writeChanges(workbook: WorkbookPort, table: string, at: string, report: ChangeReport): Promise<void> {
  let shape = await workbook.findTable(CHANGES_TABLE);
  if (!shape) {
    const sheet = await workbook.addSheet(CHANGES_SHEET);
    shape = await workbook.createTable({ name: CHANGES_TABLE, sheet, anchor: 'A1', columns: CHANGES_COLUMNS });
  }
  const { rows } = await workbook.readRows(CHANGES_TABLE);
  const kept = rows.filter((r) => r[0] !== table).map((r) => r.slice(0, CHANGES_COLUMNS.length));
  const all = [...kept, ...changeRows(table, at, report)];
  if (all.length) await workbook.writeRows(CHANGES_TABLE, 0, all);
  await workbook.setRowCount(CHANGES_TABLE, all.length);
}
