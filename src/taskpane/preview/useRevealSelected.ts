import { useEffect, useRef, type RefObject } from 'react';
import type { WorkbookSnapshot } from '../../workbook/memory';
import { showTableEnd } from './tableEnd';

/**
 * Keeps the selected cell in sight when it was selected (a key or click in the grid, a problem picked in
 * the write-back list, the Result of a post), as Excel's Range.select scrolls to the range. Runs again once
 * the cell's page (`top`) is drawn.
 */
export function useRevealSelected(gridRef: RefObject<HTMLTableElement | null>, snapshot: WorkbookSnapshot, sheet: string, selected: string | null, top: number) {
  const revealed = useRef(snapshot.selects);
  // Read when revealing, not a reason to reveal: a change elsewhere in the workbook leaves the view alone.
  const placed = useRef({ tables: snapshot.tables, sheet });
  placed.current = { tables: snapshot.tables, sheet };
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid || !selected) return;
    const asked = snapshot.selects !== revealed.current;
    if (!asked && grid.ownerDocument.activeElement !== grid) return;
    const cell = grid.querySelector(`[data-cell="${selected}"]`);
    if (!cell) return;
    revealed.current = snapshot.selects;
    cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (asked) showTableEnd(grid, cell, placed.current.tables, placed.current.sheet);
    // Selected from a control that hands over the keyboard (a problem in the write-back list): typing goes
    // in the cell, as after a click in it.
    if (asked && grid.ownerDocument.activeElement?.closest('[data-hands-keyboard]')) grid.focus({ preventScroll: true });
  }, [gridRef, selected, top, snapshot.selects]);
}
