import { WorkbookError } from '../workbook/errors';
import type { Cell, TableShape, WorkbookPort } from '../workbook/port';
import { ChangeCollector, matchRows, own, type ChangeSummary, type FieldChange, type TableRows } from './changes';
import { editSuspects, findEdits, rowPrinter, rowPrints, type CellPrint, type EditedCell, type RowPrints, type TextDigest } from './tableprint';

/**
 * What a refresh reads of the table before it replaces the rows: the cells edited by hand since the last
 * load, and what changes record by record. Read in two streamed passes over the table (`scanRows`), so
 * the old table is never held (a second refresh of 200,000 rows used to hold both tables):
 * 1. every row's key and digests: over the compared fields, and over the columns of the stored cell
 *    print (the same digests when those agree, as they do unless the dataset's fields changed);
 * 2. only the rows that matter: old rows whose digest differs from the incoming row with their key (their
 *    changed fields), and rows in buckets whose hash differs from the stored print (hand edits).
 * Nothing is read in the second pass when nothing changed and the print matches.
 */
export interface BeforeRefresh {
  /** Cells edited by hand since the last load; null when the table matches its cell print (or none was asked). */
  edits: { cells: EditedCell[]; countNow: number } | null;
  compared: { summary: ChangeSummary; changes: FieldChange[]; truncated: boolean };
}

export interface ReadBefore {
  workbook: WorkbookPort;
  table: TableShape;
  /** The rows the refresh is about to write, and their prints over all their columns (the new cell print's). */
  incoming: TableRows;
  incomingPrints: RowPrints;
  keyColumns: readonly string[];
  /** Check for hand edits against this print over these fields (the binding's columns). */
  stored?: { print: CellPrint; fields: readonly string[] };
  digest?: TextDigest;
  limit: number;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export async function readBeforeRefresh(o: ReadBefore): Promise<BeforeRefresh> {
  const { workbook, table, incoming, keyColumns, stored } = o;
  const fields = incoming.columns.filter((c) => table.columns.includes(c));
  const printFields = stored?.fields ?? [];
  const columns = [...new Set([...fields, ...keyColumns, ...printFields, ...(stored?.print.keys ?? [])])];
  const pick = (names: readonly string[]) => names.map((n) => columns.indexOf(n));

  // Pass 1: keys and digests. The stored print's digests are the compared ones when fields and keys agree.
  const compare = rowPrinter(columns, fields, keyColumns, o.digest, table.columns);
  const printSame = stored && same(printFields, fields) && same(stored.print.keys, keyColumns);
  const print = stored && !printSame ? rowPrinter(columns, printFields, stored.print.keys, o.digest, table.columns) : null;
  await workbook.scanRows(table.name, columns, (cells) => {
    compare.add(cells);
    print?.add(cells);
  });
  const before = compare.prints();
  const now = stored ? (print ? print.prints() : before) : null;
  const suspects = stored && now ? editSuspects(stored.print, now, o.digest) : null;

  const after = same(fields, incoming.columns) ? o.incomingPrints : rowPrints(incoming, fields, keyColumns, o.digest);
  const newAt = fields.map((f) => incoming.columns.indexOf(f));
  const collector = new ChangeCollector(matchRows(before, after), fields, (r, f) => incoming.rows[r]![newAt[f]!] ?? null, o.limit);

  // Pass 2: the changed rows' old cells, and the cells of rows that may hold hand edits (kept: few).
  const suspect = new Set(suspects ?? []);
  const kept = new Map<number, Cell[]>();
  const fieldsAt = pick(fields);
  const printAt = pick(printFields);
  const wanted = (r: number) => suspect.has(r) || collector.wants(r);
  // A row read again must be the row the first pass read: in Excel the user can sort, edit, insert or
  // delete rows between the two passes, and the rows at those places would then be other records.
  let moved = false;
  if (suspect.size || before.digests.some((_, r) => collector.wants(r))) {
    const count = await workbook.scanRows(
      table.name,
      columns,
      (cells, r) => {
        if (collector.wants(r)) {
          if (compare.digestOf(cells) !== before.digests[r]) moved = true;
          else collector.visit(r, fieldsAt.map((i) => cells[i]!));
        }
        if (suspect.has(r)) {
          if ((print ?? compare).digestOf(cells) !== now!.digests[r]) moved = true;
          else kept.set(r, printAt.map((i) => own(cells[i]!)));
        }
      },
      wanted,
    );
    if (count !== before.digests.length) moved = true;
  }
  if (moved) throw new WorkbookError('host', `Table ${table.name} changed while it was being read (rows sorted, edited, added or deleted in the meantime), so what the refresh changes cannot be told. Nothing was changed: refresh again.`);
  const edits = stored && now && suspects ? findEdits(stored.print, now, suspects, (r) => kept.get(r) ?? [], incoming, printFields, o.digest) : null;
  return { edits, compared: collector.result() };
}
