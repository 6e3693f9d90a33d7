/**
 * The port between the logic and a spreadsheet. `excel/` implements it with Office.js, `memory/` in memory
 * (tests, benchmarks and the taskpane's preview mode). Everything above this file is host-free.
 *
 * Rows and columns are 0-based positions in a table's body (the header row is not counted).
 */

/** null leaves a cell empty. Dates are Excel serial numbers with a date format on the column. */
export type Cell = string | number | boolean | null;

export type ColumnFormat = 'text' | 'number' | 'integer' | 'date' | 'datetime' | 'boolean' | 'general';

export interface ColumnSpec {
  name: string;
  format: ColumnFormat;
  /**
   * A dropdown: a data-validation list whose source is a range on a (hidden) lookup sheet. `allowOther`
   * offers the list but accepts any typed value (no error alert), for cells that take several choices
   * such as "A; B", which a strict list would refuse while typing.
   */
  list?: { sheet: string; values: readonly string[]; allowOther?: boolean };
  /** A calculated column: every body row holds this formula (stored, evaluated by the host). */
  formula?: string;
}

export interface TableShape {
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

export interface WriteStats {
  /** One per host round trip (context.sync in Excel). */
  syncs: number;
  /** The largest estimated request payload of one sync, in bytes. */
  maxPayloadBytes: number;
}

export interface WorkbookPort {
  readonly host: 'excel' | 'memory';
  readonly capabilities: { notes: boolean; dataValidation: boolean };
  sheetNames(): Promise<string[]>;
  /** Adds a sheet (a unique name is derived when taken) and returns its name. */
  addSheet(name: string, options?: { hidden?: boolean; activate?: boolean }): Promise<string>;
  /** The selected cell: where "load at the selection" puts a table. */
  selection(): Promise<{ sheet: string; address: string }>;
  /** Selects a cell (A1 style, no sheet), showing its sheet: where a problem in the taskpane points. */
  select(sheet: string, address: string): Promise<void>;
  listTables(): Promise<TableShape[]>;
  findTable(name: string): Promise<TableShape | null>;
  /** A table with a header row and no body rows at sheet!anchor, columns formatted before any data lands. */
  createTable(options: { name: string; sheet: string; anchor: string; columns: readonly ColumnSpec[] }): Promise<TableShape>;
  /** Adds columns at the right end of a table (result columns of a write-back, new dataset fields). */
  addColumns(table: string, columns: readonly ColumnSpec[]): Promise<TableShape>;
  /**
   * Writes rows into the body from row `offset`, column `firstColumn` on, growing the table as needed.
   * Splits the write into chunks that stay under the host's request limit, one round trip per chunk.
   */
  writeRows(table: string, offset: number, rows: readonly (readonly Cell[])[], firstColumn?: number): Promise<WriteStats>;
  /** Sets the number of body rows; shrinking removes rows at the end, columns to the right are kept. */
  setRowCount(table: string, rowCount: number): Promise<void>;
  /** Removes a table and clears its cells (a cancelled first load). */
  deleteTable(table: string): Promise<void>;
  /** Removes a sheet (one the add-in created for a load that did not complete). */
  deleteSheet(sheet: string): Promise<void>;
  readRows(table: string, offset?: number, count?: number): Promise<{ columns: string[]; rows: Cell[][] }>;
  markCells(table: string, marks: readonly CellMark[]): Promise<void>;
  /** Per-workbook, per-add-in settings that travel with the file: never credentials. */
  getSetting<T = unknown>(key: string): Promise<T | undefined>;
  setSetting(key: string, value: unknown): Promise<void>;
}
