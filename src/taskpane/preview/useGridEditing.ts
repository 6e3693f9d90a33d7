import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent, type RefObject } from 'react';
import type { MemoryWorkbook, WorkbookSnapshot } from '../../workbook/memory';
import { MAX_ROWS, cellAddress, parseCell } from '../../workbook/address';
import type { Cell } from '../../workbook/port';
import { blockOf, clearedBlock, editText, editorKey, moveBy, parseClipboard, pastedCells, selectionKey, stepBy, targetOf, typedCell, type Editing, type TabRun } from './gridEdit';
import { nextCell, type GridBounds } from './gridKeys';
import { PAGE_ROWS, type GridView } from './gridModel';

export interface GridEditingInput {
  workbook: MemoryWorkbook;
  snapshot: WorkbookSnapshot;
  sheet: string;
  view: GridView;
  /** The workbook's selected cell when it is on this sheet. */
  selected: string | null;
  bounds: GridBounds;
  gridRef: RefObject<HTMLTableElement | null>;
  showPage(top: number): void;
}

/**
 * Editing as in a sheet: the cell editor, the stretched selection, a column's list, the keys of the grid
 * and of the editor, paste; every change written through the memory workbook, a refusal shown as `problem`.
 */
export function useGridEditing({ workbook, snapshot, sheet, view, selected, bounds, gridRef, showPage }: GridEditingInput) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [list, setList] = useState<{ left: number; top: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Shift+arrows or Shift+click stretch the selection from the selected cell (the anchor) to a corner; it
  // holds only while the anchor is still the workbook's selection.
  const [stretch, setStretch] = useState<{ anchor: string; corner: string } | null>(null);
  const corner = stretch && selected && stretch.anchor === selected ? stretch.corner : null;
  const block = selected ? blockOf(selected, corner ?? selected) : null;
  const inBlock = (r: number, c: number) => block !== null && r >= block.top && r <= block.bottom && c >= block.left && c <= block.right;
  const target = selected ? targetOf(snapshot, sheet, selected) : {};
  const listValues = target.spec?.list?.values;

  const moveTo = (to: string) => {
    showPage(Math.floor(parseCell(to).row / PAGE_ROWS) * PAGE_ROWS);
    workbook.select(sheet, to);
  };
  // Focus goes back to the grid (or the cell editor) once React has removed what had it (the list, the
  // editor): focusing before that lets the unmount drop focus on the page, where keys go nowhere.
  const [focusTo, setFocusTo] = useState<{ to: 'grid' | 'editor'; n: number } | null>(null);
  const focusGrid = () => setFocusTo((f) => ({ to: 'grid', n: (f?.n ?? 0) + 1 }));
  useEffect(() => {
    if (!focusTo) return;
    const grid = gridRef.current;
    const editor = grid?.querySelector<HTMLInputElement>('[data-testid="grid-editor"]');
    if (focusTo.to === 'editor' && editor) editor.focus();
    else grid?.focus();
  }, [gridRef, focusTo]);

  /** Writes through the memory workbook, as Excel would hold it; a refusal is shown, not thrown. */
  function put(address: string, values: Cell[][]): boolean {
    try {
      workbook.setCells(sheet, address, values);
      setProblem(null);
      return true;
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
      return false;
    }
  }

  function startEdit(address: string, text: string | null, mode: Editing['mode']) {
    if (targetOf(snapshot, sheet, address).header) {
      setProblem(`${address} holds a column name of the table; type in the rows below it.`);
      return;
    }
    const cell = view.cells.get(`${parseCell(address).row},${parseCell(address).col}`);
    setProblem(null);
    setEditing({ address, mode, text: text ?? (cell ? editText(cell.raw, cell.display) : '') });
  }

  // Where the current run of Tabs began (Excel's Tab, Tab, Enter: back to that column, one row down).
  const tabRun = useRef<TabRun | null>(null);
  /** Moves by a key (Enter, Tab, the arrows) from `from`, following and updating the run of Tabs. */
  function step(from: string, key: string, rows: number, cols: number, last: { row: number; col: number }) {
    const next = stepBy(from, key, rows, cols, last, tabRun.current);
    tabRun.current = next.run;
    moveTo(next.to);
  }

  /**
   * Ends the edit: puts the text in the cell (unless a strict list refuses it) and moves on by `key`.
   * `refocus` false: the edit ended because focus went elsewhere (the taskpane), which keeps it.
   */
  function commit(rows: number, cols: number, refocus = true, key = ''): void {
    if (!editing) return;
    const typed = typedCell(editing.text, targetOf(snapshot, sheet, editing.address).spec);
    if (!typed.ok) {
      setProblem(typed.message);
      return;
    }
    if (!put(editing.address, [[typed.cell]])) return;
    setEditing(null);
    if (rows || cols) step(editing.address, key, rows, cols, { row: MAX_ROWS - 1, col: bounds.lastColumn });
    if (refocus) focusGrid();
  }

  function openList() {
    if (!selected || !listValues) return;
    const box = gridRef.current?.querySelector(`[data-cell="${selected}"]`)?.getBoundingClientRect();
    setList(box ? { left: box.left, top: box.bottom } : { left: 0, top: 0 });
  }

  function pick(value: string) {
    setList(null);
    setEditing(null);
    const typed = typedCell(value, target.spec);
    if (selected) put(selected, [[typed.ok ? typed.cell : value]]);
    focusGrid();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTableElement>) {
    if (e.target !== gridRef.current) return; // the cell editor's and the arrow button's own keys
    const from = selected ?? cellAddress(view.top, 0);
    const action = selectionKey(e);
    // Tab at the grid's first or last column leaves the grid (the keyboard is never trapped in it).
    if (e.key === 'Tab' && action?.type === 'move' && moveBy(from, 0, action.cols, { row: bounds.lastRow, col: bounds.lastColumn }) === from) return;
    if (action) {
      e.preventDefault();
      if (action.type === 'edit') startEdit(from, action.keepText ? null : action.text, action.mode);
      else if (action.type === 'clear') put(block ? cellAddress(block.top, block.left) : from, block ? clearedBlock(block) : [[null]]);
      else if (action.type === 'open-list') openList();
      else step(from, e.key, action.rows, action.cols, { row: bounds.lastRow, col: bounds.lastColumn });
      return;
    }
    if (e.shiftKey) {
      const to = nextCell(corner ?? from, e, bounds);
      if (!to) return;
      e.preventDefault();
      showPage(Math.floor(parseCell(to).row / PAGE_ROWS) * PAGE_ROWS);
      setStretch({ anchor: from, corner: to });
      return;
    }
    const to = nextCell(from, e, bounds);
    if (!to) return;
    e.preventDefault();
    setProblem(null);
    setStretch(null);
    tabRun.current = null;
    moveTo(to);
  }

  function onEditorKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (!editing) return;
    const action = editorKey(e, editing.mode);
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    if (action.type === 'commit') commit(action.rows, action.cols, true, e.key);
    else if (action.type === 'open-list') openList();
    else {
      setEditing(null);
      setProblem(null);
      focusGrid();
    }
  }

  /** A tab-separated block pasted at the selected cell (Ctrl+V), growing a table it starts in or below. */
  function onPaste(e: ClipboardEvent<HTMLTableElement>) {
    if (e.target !== gridRef.current || !selected) return;
    const block = parseClipboard(e.clipboardData.getData('text/plain'));
    if (!block.length) return;
    e.preventDefault();
    const at = parseCell(selected);
    put(selected, pastedCells(block, (_, c) => targetOf(snapshot, sheet, cellAddress(at.row, at.col + c)).spec));
  }

  return { editing, setEditing, list, setList, listValues, target, problem, block, corner, inBlock, tabRun, setStretch, commit, startEdit, openList, pick, onKeyDown, onEditorKeyDown, onPaste, setFocusTo };
}
