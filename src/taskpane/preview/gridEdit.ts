import { isoToSerial } from '../../sheet';
import { cellAddress, parseCell } from '../../workbook/address';
import type { WorkbookSnapshot } from '../../workbook/memory';
import type { Cell, ColumnFormat, ColumnSpec } from '../../workbook/port';
import type { KeyPress } from './gridKeys';

/**
 * Editing the preview grid as one edits a sheet, without React: what a key does while a cell is selected
 * or being edited, what typed text becomes in a cell, how a pasted block is split. PreviewGrid only wires
 * these to the DOM and to the memory workbook.
 */

/**
 * `enter`: the user started typing over the cell, so the arrow keys finish the edit and move, as in
 * Excel's Enter mode. `edit`: F2 or a double-click, the arrow keys move the caret in the text.
 */
export type EditMode = 'enter' | 'edit';

export interface Editing {
  address: string;
  text: string;
  mode: EditMode;
}

export interface KeyInfo extends KeyPress {
  shiftKey?: boolean;
  altKey?: boolean;
}

/** What a key does on the selected cell (not editing). Null: the grid's movement keys or nothing. */
export type SelectionAction =
  | { type: 'edit'; text: string; mode: EditMode; keepText: boolean }
  | { type: 'clear' }
  | { type: 'open-list' }
  | { type: 'move'; rows: number; cols: number };

export function selectionKey(press: KeyInfo): SelectionAction | null {
  const ctrl = press.ctrlKey || press.metaKey;
  if (press.altKey && press.key === 'ArrowDown') return { type: 'open-list' };
  if (ctrl || press.altKey) return null;
  switch (press.key) {
    case 'F2':
      return { type: 'edit', text: '', mode: 'edit', keepText: true };
    case 'Delete':
      return { type: 'clear' };
    // Backspace clears the cell and starts typing in it, as in Excel.
    case 'Backspace':
      return { type: 'edit', text: '', mode: 'enter', keepText: false };
    case 'Enter':
      return { type: 'move', rows: press.shiftKey ? -1 : 1, cols: 0 };
    // Tab moves right (Shift+Tab left), as in Excel; at the grid's edge PreviewGrid lets it leave the grid.
    case 'Tab':
      return { type: 'move', rows: 0, cols: press.shiftKey ? -1 : 1 };
  }
  // One printable character (a letter, a digit, a space, punctuation) starts typing over the cell.
  if ([...press.key].length === 1) return { type: 'edit', text: press.key, mode: 'enter', keepText: false };
  return null;
}

/** What a key does in the cell editor. Null: the editor's own text handling. */
export type EditorAction =
  { type: 'commit'; rows: number; cols: number } | { type: 'cancel' } | { type: 'open-list' };

export function editorKey(press: KeyInfo, mode: EditMode): EditorAction | null {
  if (press.altKey && press.key === 'ArrowDown') return { type: 'open-list' };
  switch (press.key) {
    case 'Enter':
      return { type: 'commit', rows: press.shiftKey ? -1 : 1, cols: 0 };
    case 'Tab':
      return { type: 'commit', rows: 0, cols: press.shiftKey ? -1 : 1 };
    case 'Escape':
      return { type: 'cancel' };
  }
  if (mode === 'enter' && !press.ctrlKey && !press.metaKey) {
    const step: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const s = step[press.key];
    if (s) return { type: 'commit', rows: s[0], cols: s[1] };
  }
  return null;
}

/** The cell `rows` down and `cols` right of `address`, kept on the sheet (row 1, column A at least). */
export function moveBy(
  address: string,
  rows: number,
  cols: number,
  last: { row: number; col: number },
): string {
  const { row, col } = parseCell(address);
  return cellAddress(
    Math.min(Math.max(row + rows, 0), last.row),
    Math.min(Math.max(col + cols, 0), last.col),
  );
}

/** Where a run of Tabs along a row began: Enter goes back under it, one row down. */
export interface TabRun {
  row: number;
  col: number;
}

/**
 * The cell a move by Enter or Tab goes to, as in Excel: Tab moves right and remembers where the run of Tabs
 * began on this row; Enter after such a run goes to the next row under that first cell (fill a row with
 * Tab, Enter, and the next row starts in the same column), otherwise down. Any other move ends the run.
 */
export function stepBy(
  from: string,
  key: string,
  rows: number,
  cols: number,
  last: { row: number; col: number },
  run: TabRun | null,
): { to: string; run: TabRun | null } {
  const at = parseCell(from);
  if (key === 'Tab') return { to: moveBy(from, rows, cols, last), run: run?.row === at.row ? run : { row: at.row, col: at.col } };
  if (key === 'Enter' && rows === 1 && run?.row === at.row) return { to: cellAddress(Math.min(at.row + 1, last.row), run.col), run: null };
  return { to: moveBy(from, rows, cols, last), run: null };
}

/** What a cell means to an edit: its table column (with the dropdown list) or the header row it is in. */
export interface CellTarget {
  table?: string;
  /** The column of the table the cell is in, or right below (where typing grows the table). */
  spec?: ColumnSpec;
  header?: boolean;
}

export function targetOf(snapshot: WorkbookSnapshot, sheet: string, address: string): CellTarget {
  const { row, col } = parseCell(address);
  for (const t of snapshot.tables) {
    if (t.sheet !== sheet) continue;
    const at = parseCell(t.topLeft);
    if (col < at.col || col >= at.col + t.columns.length) continue;
    if (row === at.row) return { table: t.name, header: true };
    if (row > at.row && row <= at.row + t.rows.length + 1)
      return { table: t.name, spec: t.specs[col - at.col] };
  }
  return {};
}

export type Typed = { ok: true; cell: Cell } | { ok: false; message: string };

const ISO_TEXT = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;

/**
 * What typed text becomes in a cell, as Excel stores it: empty clears; in a text column ("@") it stays
 * text; elsewhere plain numbers become numbers, TRUE/FALSE booleans, and in a date column an ISO date
 * a serial date. Other text stays text (03/04/2025 too: validation says why it is refused). A column with
 * a strict dropdown list refuses a value that is not on it, as Excel's error alert does.
 */
export function typedCell(text: string, spec?: ColumnSpec): Typed {
  const raw = text.trim();
  if (raw === '') return { ok: true, cell: null };
  const list = spec?.list;
  if (list && !list.allowOther && !list.values.some((v) => v.toLowerCase() === raw.toLowerCase())) {
    return {
      ok: false,
      message: `"${raw}" is not on the list of ${spec.name}; pick one from the dropdown (Alt+Down).`,
    };
  }
  return { ok: true, cell: convert(raw, spec?.format ?? 'general') };
}

function convert(raw: string, format: ColumnFormat): Cell {
  if (format === 'text') return raw;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if ((format === 'date' || format === 'datetime') && ISO_TEXT.test(raw)) return isoToSerial(raw) ?? raw;
  return raw;
}

/** The text an edit starts from (F2): what the formula bar would show. */
export function editText(raw: Cell, display: string): string {
  if (raw === null) return '';
  return typeof raw === 'number' && display !== String(raw) ? display : String(raw);
}

/**
 * A pasted block: lines of tab-separated cells (what Excel and most tools put on the clipboard). A cell
 * in double quotes may hold tabs, line breaks and "" for a quote, as Excel writes them; the one line
 * break at the end is not a row.
 */
export function parseClipboard(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  const body = text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  if (body === '') return [];
  while (i < body.length) {
    const ch = body[i]!;
    if (ch === '"' && cell === '') {
      const end = quotedEnd(body, i);
      if (end > 0) {
        cell = body.slice(i + 1, end).replace(/""/g, '"');
        i = end + 1;
        continue;
      }
    }
    if (ch === '\t') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
    i++;
  }
  row.push(cell);
  rows.push(row);
  return rows;
}

/** The closing quote of a quoted cell starting at `start`, or -1 when the quote does not close a cell. */
function quotedEnd(body: string, start: number): number {
  for (let i = start + 1; i < body.length; i++) {
    if (body[i] !== '"') continue;
    if (body[i + 1] === '"') {
      i++;
      continue;
    }
    const next = body[i + 1];
    return next === undefined || next === '\t' || next === '\n' ? i : -1;
  }
  return -1;
}

/**
 * A pasted block as cells: each text as typed into its column. A value not on a strict list is pasted
 * anyway (Excel does not check pasted cells against data validation; the write-back validation does).
 */
export function pastedCells(
  block: readonly (readonly string[])[],
  specAt: (row: number, col: number) => ColumnSpec | undefined,
): Cell[][] {
  return block.map((line, r) =>
    line.map((text, c) => {
      const spec = specAt(r, c);
      const typed = typedCell(
        text,
        spec?.list ? { ...spec, list: { ...spec.list, allowOther: true } } : spec,
      );
      return typed.ok ? typed.cell : text;
    }),
  );
}

/** The rectangle between two corners of a selection, 0-based and inclusive. */
export interface Block {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function blockOf(anchor: string, corner: string): Block {
  const a = parseCell(anchor);
  const b = parseCell(corner);
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col),
  };
}

/** "B2:C4" for a block of several cells, "B2" for one. */
export function blockAddress(b: Block): string {
  const first = cellAddress(b.top, b.left);
  return b.top === b.bottom && b.left === b.right ? first : `${first}:${cellAddress(b.bottom, b.right)}`;
}

/** What Delete writes over a block: empty cells of its size. */
export function clearedBlock(b: Block): null[][] {
  return Array.from({ length: b.bottom - b.top + 1 }, () =>
    Array.from({ length: b.right - b.left + 1 }, () => null),
  );
}
