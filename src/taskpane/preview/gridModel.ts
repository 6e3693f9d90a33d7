import { serialToIso } from '../../sheet';
import { parseCell } from '../../workbook/address';
import type { WorkbookSnapshot } from '../../workbook/memory';
import type { Cell, ColumnFormat, MarkKind } from '../../workbook/port';

/** One visible cell of the preview: the raw value Excel would hold and what its number format shows. */
export interface GridCell {
  raw: Cell;
  display: string;
  format?: ColumnFormat;
  header?: boolean;
  table?: string;
  mark?: MarkKind;
  note?: string;
}

export interface GridView {
  /** First sheet row drawn (0-based): a multiple of the page size. */
  top: number;
  /** Sheet rows in use: the last used row + 1 (every table row counted, drawn or not). */
  usedRows: number;
  /** Sheet columns in use, up to the column cap. */
  columns: number;
  /** By "row,col", 0-based sheet coordinates; only cells of the drawn rows. */
  cells: Map<string, GridCell>;
  /**
   * Column captions for a table whose header row is above the drawn rows, by column: as Excel shows a
   * table's header names in place of the column letters once the header has scrolled away.
   */
  columnNames: Map<number, string>;
  /** Sheet columns a table keeps hidden (the write-back's Row key): drawn as a thin strip, as Excel marks them. */
  hiddenColumns: Set<number>;
  /** Column widths in CSS pixels where a table set them (a loaded report's widths, given in points). */
  widths: Map<number, number>;
  /** Sheet rows frozen at the top (a loaded report's header): they stay in view while the grid scrolls. */
  frozenRows: number;
}

/**
 * What a cell shows, as Excel draws it: by its number format only, never the raw value beside it. Dates
 * and date-times as the date (a serial Excel cannot show as a date is "#####"); "0" rounds half away from
 * zero; General shows at most 15 significant digits (0.1 + 0.2 shows 0.3) with an upper-case exponent;
 * booleans as TRUE/FALSE; text as it is.
 */
export function displayOf(raw: Cell, format?: ColumnFormat): string {
  if (raw === null) return '';
  if (typeof raw === 'boolean') return raw ? 'TRUE' : 'FALSE';
  if (typeof raw !== 'number') return raw;
  if (format === 'date' || format === 'datetime') {
    const iso = serialToIso(raw, format);
    return iso ? iso.replace('T', ' ').slice(0, format === 'date' ? 10 : 16) : '#####';
  }
  if (format === 'integer') return String(Math.sign(raw) * Math.round(Math.abs(raw)) || 0);
  return general(raw);
}

function general(n: number): string {
  if (!Number.isFinite(n)) return '#NUM!';
  return String(Number(n.toPrecision(15))).replace('e', 'E');
}

export interface GridWindow {
  /** First sheet row to draw; rounded down to a page boundary. */
  top?: number;
  /** Rows per page. */
  rows?: number;
  columns?: number;
}

export const PAGE_ROWS = 200;

/**
 * The part of one sheet the preview draws: one page of sheet rows from `top` (every table's header and body
 * rows and loose cells that fall in it). A 200,000-row table stays in memory; only the page's rows are
 * visited, so paging through it costs the same on any page.
 */
export function gridOf(snapshot: WorkbookSnapshot, sheet: string, window: GridWindow = {}): GridView {
  const page = window.rows ?? PAGE_ROWS;
  const maxColumns = window.columns ?? 60;
  const requested = Math.max(0, window.top ?? 0);
  const cells = new Map<string, GridCell>();
  const columnNames = new Map<number, string>();
  const hiddenColumns = new Set<number>();
  const widths = new Map<number, number>();
  let usedRows = 0;
  let columns = 0;
  const extend = (row: number, col: number) => {
    usedRows = Math.max(usedRows, row + 1);
    columns = Math.max(columns, col + 1);
  };
  const tables = snapshot.tables.filter((t) => t.sheet === sheet);
  const looseCells = Object.entries(snapshot.sheets.find((s) => s.name === sheet)?.cells ?? {}).map(([address, raw]) => ({ ...parseCell(address), raw }));
  for (const c of looseCells) extend(c.row, c.col);
  for (const t of tables) {
    const at = parseCell(t.topLeft);
    extend(at.row + t.rows.length, at.col + t.columns.length - 1);
  }
  // A page past the end (the table shrank on refresh) falls back to the last page.
  const lastTop = Math.max(0, Math.floor(Math.max(usedRows - 1, 0) / page) * page);
  const top = Math.min(Math.floor(requested / page) * page, lastTop);
  const bottom = top + page;
  const put = (row: number, col: number, cell: GridCell) => {
    if (row >= top && row < bottom && col < maxColumns) cells.set(`${row},${col}`, cell);
  };
  for (const c of looseCells) put(c.row, c.col, { raw: c.raw, display: displayOf(c.raw) });
  for (const t of tables) {
    const at = parseCell(t.topLeft);
    t.specs.forEach((spec, c) => spec.hidden && hiddenColumns.add(at.col + c));
    t.specs.forEach((spec, c) => spec.width !== undefined && widths.set(at.col + c, Math.round((spec.width * 4) / 3)));
    t.columns.forEach((name, c) => put(at.row, at.col + c, { raw: name, display: name, header: true, table: t.name }));
    const first = Math.max(0, top - at.row - 1);
    const last = Math.min(t.rows.length, bottom - at.row - 1);
    if (at.row < top && first < last) t.columns.forEach((name, c) => at.col + c < maxColumns && columnNames.set(at.col + c, name));
    if (first >= last) continue;
    const marks = new Map(t.marks.map((m) => [`${m.row},${m.column}`, m]));
    for (let r = first; r < last; r++) {
      const row = t.rows[r]!;
      t.columns.forEach((name, c) => {
        const format = t.specs[c]?.format;
        const raw = row[c] ?? null;
        const mark = marks.get(`${r},${name}`);
        put(at.row + 1 + r, at.col + c, { raw, display: displayOf(raw, format), format, table: t.name, mark: mark?.kind, note: mark?.note });
      });
    }
  }
  const frozenRows = snapshot.sheets.find((s) => s.name === sheet)?.frozenRows ?? 0;
  return { top, usedRows, columns: Math.min(columns, maxColumns), cells, columnNames, hiddenColumns, widths, frozenRows };
}

/** The "rows 1-200 of 200,001" line: what part of the sheet's used rows the page shows. */
export function pageCaption(view: GridView, page = PAGE_ROWS): string {
  if (view.usedRows === 0) return 'Empty sheet';
  const last = Math.min(view.top + page, view.usedRows);
  // Sheet rows as the row headers number them (a table's header row is one of them), never a count of records.
  if (view.top === 0 && last === view.usedRows) return view.usedRows === 1 ? 'Row 1' : `Rows 1–${view.usedRows.toLocaleString('en-US')}`;
  return `Showing rows ${(view.top + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${view.usedRows.toLocaleString('en-US')}`;
}

/** A cell's tooltip: its address and value (an empty cell says so in words), its format and note. */
export function cellTitle(address: string, c: GridCell): string {
  // An empty cell says so in words; text is quoted, so a number stored as text is told from a number.
  const parts = [`${address}: ${c.raw === null || c.raw === '' ? 'empty' : JSON.stringify(c.raw)}`];
  if (c.format) parts.push(`format ${c.format}`);
  if (c.note) parts.push(c.note);
  return parts.join(' · ');
}
