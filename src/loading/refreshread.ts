import { WorkbookError } from '../workbook/errors';
import type { Cell, TableShape, WorkbookPort } from '../workbook/port';
import * as changes from './changes';
import { ChangeCollector, matchRows, own, type ChangeSummary, type FieldChange, type TableRows } from './changes';
import { editSuspects, findEdits, keyedRowPrinter, rowPrints, type CellPrint, type EditedCell, type RowPrints, type SameRow, type TextDigest } from './tableprint';

// Called per cell of the scan: copied into a module constant, not read through CommonJS's getter (cells.ts).
const { plainCell } = changes;

/**
 * What a refresh reads of the table before it replaces the rows: the cells edited by hand since the last
 * load, and what changes record by record. Read in streamed passes over the table (`scanRows`), so the
 * old table is never held (a second refresh of 200,000 rows used to hold both tables):
 * 1. every row's key and digests: over the compared fields, and over the columns of the stored cell
 *    print (the same digests when those agree, as they do unless the dataset's fields changed);
 * 2. only the rows that matter: rows in buckets whose hash differs from the stored print (hand edits), and
 *    the old rows that differ from the incoming row with their key, when more than KEPT_ROWS did (fewer
 *    are kept from the first pass, the rows to write being known by then).
 * Without hand edits, the table is read once.
 */
export interface BeforeRefresh {
  /** Cells edited by hand since the last load; null when the table matches its cell print (or none was asked). */
  edits: { cells: EditedCell[]; countNow: number } | null;
  compared: { summary: ChangeSummary; changes: FieldChange[]; truncated: boolean };
}

export interface ReadBefore {
  workbook: WorkbookPort;
  table: TableShape;
  /** The rows the refresh is about to write, and their prints over all their columns with `dates` (the new cell print's). */
  incoming: TableRows;
  incomingPrints: RowPrints;
  keyColumns: readonly string[];
  /** The incoming's date and date-time columns, compared at the millisecond (tableprint.ts, method 2). */
  dates?: readonly string[];
  /** Check for hand edits against this print over these fields (the load record's columns). */
  stored?: { print: CellPrint; fields: readonly string[] };
  digest?: TextDigest;
  limit: number;
  /** Changed rows kept from the first pass (KEPT_ROWS); a test sets it low to take the second pass. */
  keep?: number;
}

/** Old rows that differ from the incoming ones kept in the first pass; past this many, a second pass reads them. */
const KEPT_ROWS = 50_000;

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export async function readBeforeRefresh(o: ReadBefore): Promise<BeforeRefresh> {
  const { workbook, table, incoming, keyColumns, stored } = o;
  const fields = incoming.columns.filter((c) => table.columns.includes(c));
  const printFields = stored?.fields ?? [];
  const columns = [...new Set([...fields, ...keyColumns, ...printFields, ...(stored?.print.keys ?? [])])];
  const pick = (names: readonly string[]) => names.map((n) => columns.indexOf(n));

  // Pass 1: keys and digests. The stored print's digests are the compared ones when fields and keys agree.
  // The incoming rows are known by now, so a row that differs from the incoming row with its key is seen
  // here, and its old cells are kept (up to KEPT_ROWS): a refresh where little changed reads the table once.
  const dates = o.dates ?? [];
  const compare = keyedRowPrinter(columns, fields, keyColumns, table.columns, dates);
  const printSame = stored && same(printFields, fields) && same(stored.print.keys, keyColumns) && same(stored.print.dates ?? [], dates);
  const print = stored && !printSame ? keyedRowPrinter(columns, printFields, stored.print.keys, table.columns, stored.print.dates) : null;
  const after = same(fields, incoming.columns) ? o.incomingPrints : rowPrints(incoming, fields, keyColumns, dates);
  const newByKey = new Map<string, number>();
  // A key several incoming rows have (a typed "a #2" meets a numbered one): its old row is compared with each.
  const repeated = new Set<string>();
  after.keys.forEach((k, r) => {
    if (newByKey.has(k)) repeated.add(k);
    newByKey.set(k, r);
  });
  const fieldsAt = pick(fields);
  const newAt = fields.map((f) => incoming.columns.indexOf(f));
  // A row whose cells are the incoming row's with its key takes that row's digest rather than hashing its
  // own: the same values over the same fields, keys and dates make the same line. Equal values first (the
  // common case), then as the print sees them (`plainCell`: empty text, the inert-formula quote).
  const unchanged: SameRow = {
    digests: after.digests,
    row(key, cells) {
      const i = newByKey.get(key);
      if (i === undefined || repeated.has(key)) return -1;
      const row = incoming.rows[i]!;
      for (let f = 0; f < fieldsAt.length; f++) {
        const a = cells[fieldsAt[f]!];
        const b = row[newAt[f]!];
        if (a !== b && plainCell(a) !== plainCell(b)) return -1;
      }
      return i;
    },
  };
  // Per incoming row: the last old row with its key (what matchRows would find by a map of the old keys).
  const lastOld = new Int32Array(after.keys.length).fill(-1);
  let early: Map<number, Cell[]> | null = new Map();
  await workbook.scanRows(table.name, columns, (cells, r) => {
    compare.add(cells, unchanged);
    print?.add(cells);
    // The key as uniqueKeys numbers it: a key's second row is "key #2".
    const key = compare.key(r);
    const i = newByKey.get(key);
    if (i !== undefined) lastOld[i] = r;
    if (!early) return;
    if (i === undefined || (after.digests.same(i, compare.digests, r) && !repeated.has(key))) return;
    if (early.size < (o.keep ?? KEPT_ROWS)) early.set(r, fieldsAt.map((k) => own(cells[k]!)));
    else early = null;
  });
  const before = compare.prints();
  const now = stored ? (print ? print.prints() : before) : null;
  const suspects = stored && now ? editSuspects(stored.print, now, o.digest) : null;

  // Incoming rows with a repeated key find theirs through the key's last incoming row, which newByKey names.
  const lastOldOf = (r: number) => lastOld[repeated.size && repeated.has(after.keys[r]!) ? newByKey.get(after.keys[r]!)! : r]!;
  const matched = matchRows(before.keys, after.keys, (old, r) => !before.digests.same(old, after.digests, r), lastOldOf);
  const collector = new ChangeCollector(matched, fields, (r, f) => incoming.rows[r]![newAt[f]!] ?? null, o.limit);
  if (early) for (const [r, cells] of early) collector.visit(r, cells);

  // Pass 2, only for rows that may hold hand edits (kept: few), and for the changed rows when too many
  // changed to keep in pass 1.
  const suspect = new Set(suspects ?? []);
  const kept = new Map<number, Cell[]>();
  const printAt = pick(printFields);
  const changed = early ? () => false : (r: number) => collector.wants(r);
  // A row read again must be the row the first pass read: in Excel the user can sort, edit, insert or
  // delete rows between the two passes, and the rows at those places would then be other records.
  let moved = false;
  if (suspect.size || !early) {
    const count = await workbook.scanRows(
      table.name,
      columns,
      (cells, r) => {
        if (changed(r)) {
          if (!compare.matches(cells, r)) moved = true;
          else collector.visit(r, fieldsAt.map((i) => cells[i]!));
        }
        if (suspect.has(r)) {
          if (!(print ?? compare).matches(cells, r)) moved = true;
          else kept.set(r, printAt.map((i) => own(cells[i]!)));
        }
      },
      (r) => suspect.has(r) || changed(r),
    );
    if (count !== before.count) moved = true;
  }
  if (moved) throw new WorkbookError('host', `Table ${table.name} changed while it was being read (rows sorted, edited, added or deleted in the meantime), so what the refresh changes cannot be told. Nothing was changed: refresh again.`);
  const edits = stored && now && suspects ? findEdits(stored.print, now, suspects, (r) => kept.get(r) ?? [], incoming, printFields, o.digest) : null;
  return { edits, compared: collector.result() };
}
