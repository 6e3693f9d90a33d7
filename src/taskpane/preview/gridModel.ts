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
  rows: number;
  columns: number;
  /** By "row,col", 0-based sheet coordinates. */
  cells: Map<string, GridCell>;
  /** Rows of tables that are not drawn because of the row cap. */
  hiddenRows: number;
}

/** What a number format shows for a raw value: dates as the date, the rest as the value itself. */
export function displayOf(raw: Cell, format?: ColumnFormat): string {
  if (raw === null) return '';
  if (typeof raw === 'number' && (format === 'date' || format === 'datetime')) {
    const iso = serialToIso(raw, format);
    return iso ? iso.replace('T', ' ').slice(0, format === 'date' ? 10 : 16) : String(raw);
  }
  if (typeof raw === 'boolean') return raw ? 'TRUE' : 'FALSE';
  return String(raw);
}

/**
 * The part of one sheet the preview draws: every table's header and body, and loose cells, up to
 * `maxRows` sheet rows (a 200,000-row table is in memory; drawing it all would only slow the page).
 */
export function gridOf(snapshot: WorkbookSnapshot, sheet: string, maxRows = 200, maxColumns = 60): GridView {
  const cells = new Map<string, GridCell>();
  let rows = 0;
  let columns = 0;
  let hiddenRows = 0;
  const put = (row: number, col: number, cell: GridCell) => {
    rows = Math.max(rows, row + 1);
    columns = Math.max(columns, col + 1);
    if (row < maxRows && col < maxColumns) cells.set(`${row},${col}`, cell);
  };
  for (const [address, raw] of Object.entries(snapshot.sheets.find((s) => s.name === sheet)?.cells ?? {})) {
    const { row, col } = parseCell(address);
    put(row, col, { raw, display: displayOf(raw) });
  }
  for (const t of snapshot.tables) {
    if (t.sheet !== sheet) continue;
    const top = parseCell(t.topLeft);
    t.columns.forEach((name, c) => put(top.row, top.col + c, { raw: name, display: name, header: true, table: t.name }));
    const marks = new Map(t.marks.map((m) => [`${m.row},${m.column}`, m]));
    const drawn = Math.min(t.rows.length, Math.max(0, maxRows - top.row - 1));
    hiddenRows += t.rows.length - drawn;
    if (t.rows.length > drawn) put(top.row + t.rows.length, top.col, { raw: null, display: '', table: t.name });
    for (let r = 0; r < drawn; r++) {
      const row = t.rows[r]!;
      t.columns.forEach((name, c) => {
        const format = t.specs[c]?.format;
        const raw = row[c] ?? null;
        const mark = marks.get(`${r},${name}`);
        put(top.row + 1 + r, top.col + c, { raw, display: displayOf(raw, format), format, table: t.name, mark: mark?.kind, note: mark?.note });
      });
    }
  }
  return { rows: Math.min(rows, maxRows), columns: Math.min(columns, maxColumns), cells, hiddenRows };
}
