import { cellAddress, parseCell } from '../../workbook/address';

/** Where the selection may go: the drawn columns and the sheet's used rows plus a little room below. */
export interface GridBounds {
  lastRow: number;
  lastColumn: number;
  /** Rows a PageUp/PageDown moves: one page of the preview. */
  page: number;
  /** The last used cell, for Ctrl+End. */
  lastUsed: { row: number; col: number };
}

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

/**
 * The cell a key moves the selection to, as in Excel's grid: arrows by one cell, PageUp/PageDown by a page,
 * Home to column A, Ctrl+Home to A1, Ctrl+End to the last used cell. Null for keys the grid leaves alone.
 */
export function nextCell(address: string, press: KeyPress, bounds: GridBounds): string | null {
  const { row, col } = parseCell(address);
  const ctrl = press.ctrlKey || press.metaKey;
  const clamp = (r: number, c: number) => cellAddress(Math.min(Math.max(r, 0), bounds.lastRow), Math.min(Math.max(c, 0), bounds.lastColumn));
  switch (press.key) {
    case 'ArrowUp':
      return clamp(ctrl ? 0 : row - 1, col);
    case 'ArrowDown':
      return clamp(ctrl ? bounds.lastUsed.row : row + 1, col);
    case 'ArrowLeft':
      return clamp(row, ctrl ? 0 : col - 1);
    case 'ArrowRight':
      return clamp(row, ctrl ? bounds.lastUsed.col : col + 1);
    case 'PageUp':
      return clamp(row - bounds.page, col);
    case 'PageDown':
      return clamp(row + bounds.page, col);
    case 'Home':
      return ctrl ? clamp(0, 0) : clamp(row, 0);
    case 'End':
      return ctrl ? clamp(bounds.lastUsed.row, bounds.lastUsed.col) : clamp(row, bounds.lastUsed.col);
    default:
      return null;
  }
}
