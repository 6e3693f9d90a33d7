/**
 * The port between the logic and a spreadsheet. `excel/` implements it with Office.js, `memory/` in memory
 * (tests, benchmarks and the taskpane's preview mode). Everything above this file is host-free.
 *
 * Rows and columns are 0-based positions in a table's body (the header row is not counted).
 */

import type { Cell, ColumnSpec } from '../sheet/cell-types';

export type { Cell, ColumnFormat, ColumnSpec } from '../sheet/cell-types';

export interface TableShape {
  /**
   * The host's id of the table (Excel's `Table.id`, ExcelApi 1.1): it survives a rename, so bindings
   * follow a table by it; the name is kept for display.
   */
  id?: string;
  name: string;
  sheet: string;
  /** Header cell of the first column, A1 style without the sheet, e.g. "B3". */
  topLeft: string;
  columns: string[];
  rowCount: number;
}

export type MarkKind = 'error' | 'warning' | 'ok' | 'none';
export interface CellMark {
  row: number;
  column: string;
  kind: MarkKind;
  /** Shown as a cell note where the host supports notes (ExcelApi 1.18); otherwise only the fill shows. */
  note?: string;
}

/** What lies where a new table would go, read before a long download so a load is refused early. */
export interface TargetInfo {
  /** The sheet is protected: Excel would refuse every write to it. */
  protected: boolean;
  /** Non-empty cells in the table's columns from the anchor down, as an A1 area without the sheet; null when empty. */
  used: string | null;
  /** Tables overlapping the table's columns from the anchor down. */
  tables: string[];
  /** The workbook's defined names: they share one namespace with table names. */
  names: string[];
}

export interface WriteStats {
  /** One per host round trip (context.sync in Excel). */
  syncs: number;
  /** The largest estimated request payload of one sync, in bytes. */
  maxPayloadBytes: number;
}

/**
 * A write to the row found by its cells at the moment of writing, not by a position read earlier: the
 * user may sort, filter, insert or delete rows at any time between two calls.
 */
export interface RowUpdate {
  /** Column name -> the value the row's cell must hold (null: an empty cell). */
  where: Readonly<Record<string, Cell>>;
  /** Cells written from this column index on. */
  firstColumn: number;
  cells: readonly Cell[];
}

/** How a new table is laid out once its rows are in (src/loading/layout.ts). */
export interface TableLayout {
  /** Width in points of each table column, from the first. */
  widths: readonly number[];
  /** Freezes the sheet's rows down to the table's header row, so the header stays in view. */
  freezeHeader: boolean;
}

export interface WorkbookPort {
  readonly host: 'excel' | 'memory' | 'file';
  readonly capabilities: { notes: boolean; dataValidation: boolean };
  sheetNames(): Promise<string[]>;
  /** Adds a sheet (a unique name is derived when taken) and returns its name. */
  addSheet(name: string, options?: { hidden?: boolean; activate?: boolean }): Promise<string>;
  /** The selected cell: where "load at the selection" puts a table. */
  selection(): Promise<{ sheet: string; address: string }>;
  /** Selects a cell (A1 style, no sheet), showing its sheet: where a problem in the taskpane points. */
  select(sheet: string, address: string): Promise<void>;
  listTables(): Promise<TableShape[]>;
  /** A table by its name or its id. */
  findTable(nameOrId: string): Promise<TableShape | null>;
  /** A table with a header row and no body rows at sheet!anchor, columns formatted before any data lands. */
  createTable(options: { name: string; sheet: string; anchor: string; columns: readonly ColumnSpec[] }): Promise<TableShape>;
  /** What is at sheet!anchor and below it, `width` columns wide (see TargetInfo). */
  inspectTarget(sheet: string, anchor: string, width: number): Promise<TargetInfo>;
  /** Adds columns at the right end of a table (result columns of a write-back, new dataset fields). */
  addColumns(table: string, columns: readonly ColumnSpec[]): Promise<TableShape>;
  /**
   * Writes rows into the body from row `offset`, column `firstColumn` on, growing the table as needed;
   * with an array, each cell goes to the table column at its place (a refresh's dataset columns around
   * a column the user added), so the caller need not copy its rows into runs of adjacent columns.
   * Splits the write into chunks that stay under the host's request limit, one round trip per chunk.
   */
  writeRows(table: string, offset: number, rows: readonly (readonly Cell[])[], firstColumn?: number | readonly number[]): Promise<WriteStats>;
  /** Column widths and the frozen header of a table just loaded; the user's own changes are never redone. */
  arrangeTable(table: string, layout: TableLayout): Promise<void>;
  /** Sets the number of body rows; shrinking removes rows at the end, columns to the right are kept. */
  setRowCount(table: string, rowCount: number): Promise<void>;
  /** Removes a table and clears its cells (a cancelled first load). */
  deleteTable(table: string): Promise<void>;
  /** Removes a sheet (one the add-in created for a load that did not complete). */
  deleteSheet(sheet: string): Promise<void>;
  /**
   * Applies updates in order, each to the first row matching its `where` once the earlier ones are applied
   * (so two updates with the same `where` that also write one of its cells land on two rows). Locating
   * and writing are one step for the user: no sort, insert or delete falls between them. Returns each
   * update's row position, or null when no row matched (deleted or edited): nothing is written for it.
   */
  updateRows(table: string, updates: readonly RowUpdate[]): Promise<(number | null)[]>;
  /**
   * Makes everything written so far survive a crash, where the host can (the command line saves its file;
   * Excel keeps its own workbook): a post awaits it after marking rows "sending" and before sending them.
   * A workbook that persists is one no person edits while it posts: the post marks rows a batch ahead there.
   */
  persist?(): Promise<void>;
  readRows(table: string, offset?: number, count?: number): Promise<{ columns: string[]; rows: Cell[][] }>;
  /**
   * Visits the body rows in order without holding the table (a refresh and `grc-sheets verify` read big
   * tables this way): `cells` holds the named `columns` of the row (null for a column the table lacks) and
   * is reused from one row to the next, so copy what you keep. With `wanted`, only the rows it accepts
   * are visited, and a host skips reading the others where it can. Returns the number of body rows.
   */
  scanRows(table: string, columns: readonly string[], visit: (cells: readonly Cell[], row: number) => void, wanted?: (row: number) => boolean): Promise<number>;
  markCells(table: string, marks: readonly CellMark[]): Promise<void>;
  /** Per-workbook, per-add-in settings that travel with the file: never credentials. */
  getSetting<T = unknown>(key: string): Promise<T | undefined>;
  setSetting(key: string, value: unknown): Promise<void>;
}
