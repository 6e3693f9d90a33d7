import type { WorkbookSnapshot } from '../../workbook/memory';
import { cellAddress, parseCell } from '../../workbook/address';

/**
 * A cell selected from outside the grid in the last few columns of its table (a post's Result, with Result
 * GUID, message and time right of it) brings as much of the table's end in beside it as fits, the cell
 * staying in view: the Result columns are read together. Elsewhere the nearest scroll keeps the columns
 * left of the cell (the row's name) in sight.
 */
const NEAR_END_COLUMNS = 5;

export function showTableEnd(grid: HTMLTableElement, cell: Element, tables: WorkbookSnapshot['tables'], sheet: string) {
  const at = parseCell(cell.getAttribute('data-cell')!);
  const table = tables.find((t) => {
    const o = parseCell(t.topLeft);
    return t.sheet === sheet && at.col >= o.col && at.col < o.col + t.columns.length && at.row >= o.row && at.row <= o.row + t.rows.length;
  });
  if (!table) return;
  // The table's end as a person reads it: its hidden columns (a post's row key and row state) do not count.
  const shown = table.specs.findLastIndex((c) => !c.hidden);
  const last = parseCell(table.topLeft).col + (shown < 0 ? table.columns.length - 1 : shown);
  if (last - at.col >= NEAR_END_COLUMNS) return;
  const end = grid.querySelector(`[data-cell="${cellAddress(at.row, last)}"]`);
  const scroller = grid.parentElement;
  if (!end || !scroller) return;
  const pane = scroller.getBoundingClientRect();
  const rowHeader = grid.querySelector('tbody th')?.getBoundingClientRect().width ?? 0;
  const room = cell.getBoundingClientRect().left - (pane.left + rowHeader);
  const right = end.getBoundingClientRect().right;
  if (right > pane.right && room > 0) scroller.scrollLeft += Math.min(right - pane.right, room);
}
