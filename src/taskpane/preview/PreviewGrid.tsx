import { Button, Caption1, Tab, TabList, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { MemoryWorkbook, WorkbookSnapshot } from '../../workbook/memory';
import { MAX_ROWS, cellAddress, columnLetters, parseCell } from '../../workbook/address';
import type { Cell } from '../../workbook/port';
import { blockAddress, blockOf, clearedBlock, editText, editorKey, moveBy, parseClipboard, pastedCells, selectionKey, stepBy, targetOf, typedCell, type Editing, type TabRun } from './gridEdit';
import { nextCell, type GridBounds } from './gridKeys';
import { ListPopup } from './ListPopup';
import { PAGE_ROWS, gridOf, pageCaption, type GridCell } from './gridModel';

/**
 * Text cut at a box's right edge. Clipped, not hidden: a box with `overflow: hidden` can still be scrolled
 * (by a script, by the browser's find in page), which leaves a long text (a 64-digit hash) showing its end
 * cut from the left; `clip` never scrolls, so the text always shows from its start, as Excel draws it.
 * `hidden` is the fallback for a webview without `clip`.
 */
const CLIPPED = ['hidden', 'clip'];

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 },
  bar: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXS,
    paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXS,
    flexWrap: 'wrap',
  },
  title: { color: tokens.colorNeutralForeground2 },
  pager: { marginInlineStart: 'auto', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  caption: { color: tokens.colorNeutralForeground2, fontVariantNumeric: 'tabular-nums' },
  // The name box: the selected cell's address and value, also announced to screen readers.
  nameBox: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'baseline',
    minWidth: 0,
    paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXXS,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground1,
  },
  nameAddress: { fontWeight: tokens.fontWeightSemibold, minWidth: '4em', fontVariantNumeric: 'tabular-nums' },
  blank: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  nameValue: { overflow: CLIPPED, textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  // Stacked under the taskpane (a narrow window) the page scrolls, not the preview: the grid keeps a height
  // of its own so its column and row headers stay in sight while its cells scroll under them.
  // The keyboard's ring goes round the box the grid scrolls in: drawn on the table, wider than that box, it
  // showed as one stray black line at the table's edge.
  scroll: {
    flex: '1 1 auto',
    overflow: 'auto',
    '@media (max-width: 720px)': { maxHeight: '75vh' },
    ':has(> table:focus-visible)': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  // Separate borders: with collapsed ones, sticky header cells let the scrolled cells show through.
  grid: {
    borderCollapse: 'separate',
    borderSpacing: 0,
    fontSize: tokens.fontSizeBase200,
    fontFamily: tokens.fontFamilyBase,
    ':focus': { outline: 'none' },
  },
  // Stacked under a narrow taskpane, a sheet just shown (a load's, a template's) may be far below: this
  // takes the reader to it.
  jump: { position: 'fixed', insetInlineEnd: tokens.spacingHorizontalM, bottom: tokens.spacingVerticalM, zIndex: 4, boxShadow: tokens.shadow8 },
  head: {
    position: 'sticky',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightRegular,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    paddingInline: tokens.spacingHorizontalXS,
    whiteSpace: 'nowrap',
  },
  colHead: { top: 0, zIndex: 2, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  columnName: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorNeutralForeground1, maxWidth: '220px', overflow: CLIPPED, textOverflow: 'ellipsis' },
  rowHead: { left: 0, zIndex: 1, textAlign: 'end', fontVariantNumeric: 'tabular-nums', borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  corner: { top: 0, left: 0, zIndex: 3, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`, borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  // A frozen row (a loaded report's header) stays under the column letters while the cells scroll; `top` is
  // the letters' row height, measured.
  frozen: { position: 'sticky', zIndex: 1, boxShadow: `0 ${tokens.strokeWidthThin} 0 ${tokens.colorNeutralStroke1}` },
  frozenHead: { zIndex: 2 },
  hiddenColumn: { minWidth: '3px', width: '3px', maxWidth: '3px', padding: 0, overflow: 'hidden', fontSize: 0, backgroundColor: tokens.colorNeutralBackground3 },
  cell: {
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingInline: tokens.spacingHorizontalXS,
    verticalAlign: 'top',
    minWidth: '48px',
    maxWidth: '220px',
    overflow: CLIPPED,
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    cursor: 'cell',
    color: tokens.colorNeutralForeground1,
    // Keeps a cell reached by keyboard clear of the sticky column and row headers.
    scrollMarginTop: '28px',
    scrollMarginLeft: '56px',
  },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  header: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorNeutralForeground1, fontWeight: tokens.fontWeightSemibold },
  table: { backgroundColor: tokens.colorNeutralBackground1 },
  selected: { outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px' },
  error: { backgroundColor: tokens.colorPaletteRedBackground2 },
  warning: { backgroundColor: tokens.colorPaletteYellowBackground2 },
  ok: { backgroundColor: tokens.colorPaletteGreenBackground2 },
  editing: { padding: 0, overflow: 'visible' },
  inBlock: { backgroundColor: tokens.colorBrandBackground2Hover },
  editor: {
    boxSizing: 'border-box',
    width: '100%',
    minWidth: '120px',
    font: 'inherit',
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    border: 'none',
    outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    outlineOffset: '-2px',
    paddingInline: tokens.spacingHorizontalXS,
  },
  // The dropdown arrow on a cell with a validation list, as Excel shows it on the selected cell.
  arrow: {
    float: 'right',
    marginInlineStart: tokens.spacingHorizontalXXS,
    minWidth: 0,
    height: '16px',
    paddingInline: '2px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase100,
    lineHeight: '12px',
    cursor: 'pointer',
  },
  alert: { paddingInline: tokens.spacingHorizontalS, paddingBlock: tokens.spacingVerticalXXS, color: tokens.colorPaletteRedForeground1, backgroundColor: tokens.colorPaletteRedBackground1 },
});

export interface Props {
  workbook: MemoryWorkbook;
}

const TABSTER_OWN_TAB = JSON.stringify({ focusable: { ignoreKeydown: { Tab: true } } });

function cellTitle(address: string, c: GridCell): string {
  // An empty cell says so in words; text is quoted, so a number stored as text is told from a number.
  const parts = [`${address}: ${c.raw === null || c.raw === '' ? 'empty' : JSON.stringify(c.raw)}`];
  if (c.format) parts.push(`format ${c.format}`);
  if (c.note) parts.push(c.note);
  return parts.join(' · ');
}

/**
 * A cell selected from outside the grid in the last few columns of its table (a post's Result, with Result
 * GUID, message and time right of it) brings as much of the table's end in beside it as fits, the cell
 * staying in view: the Result columns are read together. Elsewhere the nearest scroll keeps the columns
 * left of the cell (the row's name) in sight.
 */
const NEAR_END_COLUMNS = 5;

function showTableEnd(grid: HTMLTableElement, cell: Element, tables: WorkbookSnapshot['tables'], sheet: string) {
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

/**
 * The preview's stand-in for Excel's grid: the in-memory workbook's sheets, one page of rows at a time, each
 * cell drawn by its number format only (a date shows as the date; its serial number is in the cell's
 * tooltip), marks as fills. A cell is selected by click or, with the grid focused, by the arrow keys and Tab
 * (as in Excel), for "load at the selected cell"; the name box above the grid shows and announces it.
 */
export function PreviewGrid({ workbook }: Props) {
  const s = useStyles();
  const id = useId();
  const gridRef = useRef<HTMLTableElement>(null);
  const snapshot = useSyncExternalStore(workbook.subscribe, workbook.snapshot);
  const visible = snapshot.sheets.filter((sh) => !sh.hidden);
  // A sheet tab the user picked stays shown until the selection moves to another sheet (a load into a new
  // sheet), which is then shown, as Excel activates the sheet it loads into.
  const [chosen, setChosen] = useState<{ name: string; whileSelected: string } | null>(null);
  const stillChosen = chosen && chosen.whileSelected === snapshot.selection.sheet ? chosen.name : null;
  const sheet = visible.find((sh) => sh.name === stillChosen)?.name ?? snapshot.selection.sheet;
  const [tops, setTops] = useState<Record<string, number>>({});
  const view = useMemo(() => gridOf(snapshot, sheet, { top: tops[sheet] ?? 0 }), [snapshot, sheet, tops]);
  const headRow = useRef<HTMLTableRowElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  useLayoutEffect(() => setHeadHeight(headRow.current?.offsetHeight ?? 0), [view]);
  /** A column's width as the table set it (width, min and max alike, so long text is cut as in Excel). */
  const widthOf = (c: number) => {
    const w = view.widths.get(c);
    return w === undefined || view.hiddenColumns.has(c) ? undefined : { width: w, minWidth: w, maxWidth: w };
  };
  const isFrozen = (r: number) => r < view.frozenRows;
  const lastPage = view.top + PAGE_ROWS >= view.usedRows;
  // The last page also draws a little room below the data, as a sheet has, to select a cell under a table.
  const drawnRows = lastPage ? Math.max(view.usedRows - view.top + 2, 12) : PAGE_ROWS;
  const columns = Math.max(view.columns + 1, 8);
  const selected = snapshot.selection.sheet === sheet ? snapshot.selection.address : null;
  const selectedAt = selected ? parseCell(selected) : null;
  const selectedCell = selectedAt ? view.cells.get(`${selectedAt.row},${selectedAt.col}`) : undefined;
  const cellId = (address: string) => `${id}-${address}`;
  const selectedDrawn = selectedAt !== null && selectedAt.row >= view.top && selectedAt.row < view.top + drawnRows && selectedAt.col < columns;

  const bounds: GridBounds = {
    lastRow: Math.min(Math.max(view.usedRows + 1, 11), MAX_ROWS - 1),
    lastColumn: columns - 1,
    page: PAGE_ROWS,
    lastUsed: { row: Math.max(view.usedRows - 1, 0), col: Math.max(view.columns - 1, 0) },
  };

  const showPage = (top: number) => setTops((t) => ({ ...t, [sheet]: Math.max(0, top) }));
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
  }, [focusTo]);

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

  // The grid follows the workbook's selection wherever it is set (workbook.select, e.g. a problem picked in
  // the write-back list): its page is shown. Paging by the buttons afterwards is left alone.
  const selectedRow = selectedAt?.row;
  useEffect(() => {
    if (selectedRow === undefined) return;
    const page = Math.floor(selectedRow / PAGE_ROWS) * PAGE_ROWS;
    setTops((t) => ((t[sheet] ?? 0) === page ? t : { ...t, [sheet]: page }));
  }, [sheet, selectedRow]);

  // Keep the selected cell in sight when it was selected (a key or click in the grid, a problem picked in
  // the write-back list, the Result of a post), as Excel's Range.select scrolls to the range: the grid and,
  // when the pane is stacked above the grid, the page. A load activating its new sheet is not a select, so
  // it never scrolls the page under the user's mouse. Runs again once the cell's page is drawn.
  // Each sheet keeps its own scroll, as each of Excel's sheets does: one shown for the first time starts at A1.
  const scrollRef = useRef<HTMLDivElement>(null);
  const scrolls = useRef(new Map<string, { left: number; top: number }>());
  const shownSheet = useRef(sheet);
  // Kept as it happens: by the time another sheet is drawn, the box may have clamped the old scroll.
  const keepScroll = () => {
    const box = scrollRef.current;
    if (box) scrolls.current.set(shownSheet.current, { left: box.scrollLeft, top: box.scrollTop });
  };
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box || shownSheet.current === sheet) return;
    shownSheet.current = sheet;
    const back = scrolls.current.get(sheet) ?? { left: 0, top: 0 };
    box.scrollLeft = back.left;
    box.scrollTop = back.top;
  }, [sheet]);

  // A sheet shown while the grid is out of sight below a stacked taskpane: a button at the window's foot
  // goes to it, until the grid has been seen. (The page is not scrolled unasked: the user may be reading.)
  const rootRef = useRef<HTMLDivElement>(null);
  const [away, setAway] = useState<string | null>(null);
  useEffect(() => {
    const root = rootRef.current;
    if (!root || typeof IntersectionObserver !== 'function') return;
    const watch = new IntersectionObserver(([e]) => e && setAway((a) => (e.isIntersecting ? null : e.boundingClientRect.top > window.innerHeight ? a : null)));
    watch.observe(root);
    return () => watch.disconnect();
  }, []);
  const firstSheet = useRef(sheet);
  useEffect(() => {
    if (firstSheet.current === sheet) return;
    firstSheet.current = sheet;
    const top = rootRef.current?.getBoundingClientRect().top;
    if (top !== undefined && top > window.innerHeight) setAway(sheet);
  }, [sheet]);

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
  }, [selected, view.top, snapshot.selects]);


  return (
    <div className={s.root} data-testid="preview-grid" ref={rootRef}>
      {away === sheet && (
        <Button className={s.jump} appearance="primary" size="small" onClick={() => rootRef.current?.scrollIntoView({ block: 'start' })} data-testid="grid-jump">
          Show sheet {sheet} ↓
        </Button>
      )}
      <div className={s.bar}>
        <Caption1 className={s.title}>Preview workbook (in memory)</Caption1>
        <TabList size="small" selectedValue={sheet} onTabSelect={(_, d) => setChosen({ name: String(d.value), whileSelected: snapshot.selection.sheet })} aria-label="Sheets">
          {visible.map((sh) => (
            <Tab key={sh.name} value={sh.name} data-testid={`sheet-${sh.name}`}>
              {sh.name}
            </Tab>
          ))}
        </TabList>
        <div className={s.pager} role="group" aria-label="Rows shown">
          <Caption1 className={s.caption} data-testid="grid-rows">
            {pageCaption(view)}
          </Caption1>
          {view.usedRows > PAGE_ROWS && (
            <>
              <Button size="small" appearance="subtle" disabled={view.top === 0} onClick={() => showPage(0)}>
                First
              </Button>
              <Button size="small" appearance="subtle" disabled={view.top === 0} onClick={() => showPage(view.top - PAGE_ROWS)}>
                Previous
              </Button>
              <Button size="small" appearance="subtle" disabled={lastPage} onClick={() => showPage(view.top + PAGE_ROWS)} data-testid="grid-next">
                Next
              </Button>
              <Button size="small" appearance="subtle" disabled={lastPage} onClick={() => showPage(view.usedRows - 1)}>
                Last
              </Button>
            </>
          )}
        </div>
      </div>
      <div className={s.nameBox} role="status" aria-live="polite" data-testid="grid-name-box">
        {selected && <Caption1 className={s.nameAddress}>{block && corner ? blockAddress(block) : selected}</Caption1>}
        {selected && selectedCell?.display ? (
          <Caption1 className={s.nameValue}>{selectedCell.display}</Caption1>
        ) : (
          <Caption1 className={mergeClasses(s.nameValue, s.blank)}>{selected ? '(empty)' : `No cell selected on ${sheet}`}</Caption1>
        )}
      </div>
      {problem && (
        <div className={s.alert} role="alert" data-testid="grid-problem">
          {problem}
        </div>
      )}
      {list && listValues && target.spec && (
        <ListPopup
          column={target.spec.name}
          values={listValues}
          current={editing?.text ?? (selectedCell ? editText(selectedCell.raw, selectedCell.display) : '')}
          at={list}
          onPick={pick}
          onClose={(reason) => {
            setList(null);
            if (reason === 'key') setFocusTo((f) => ({ to: editing ? 'editor' : 'grid', n: (f?.n ?? 0) + 1 }));
          }}
        />
      )}
      <div className={s.scroll} ref={scrollRef} onScroll={keepScroll}>
        <table
          ref={gridRef}
          className={s.grid}
          role="grid"
          aria-label={`Sheet ${sheet}. Arrow keys move the selected cell; type or F2 to edit it, Delete to clear it, Alt+Down for its list.`}
          aria-rowcount={Math.max(view.usedRows, view.top + drawnRows) + 1}
          aria-colcount={columns + 1}
          aria-activedescendant={selected && selectedDrawn ? cellId(selected) : undefined}
          tabIndex={0}
          // Fluent's focus manager (Tabster) moves focus on Tab before any handler of ours runs; in the cell
          // editor Tab belongs to the grid (commit and move right), so Tabster leaves Tab alone in here.
          data-tabster={TABSTER_OWN_TAB}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        >
          <thead>
            <tr aria-rowindex={1} ref={headRow}>
              <th className={mergeClasses(s.head, s.corner)} aria-label="Row and column headers" />
              {Array.from({ length: columns }, (_, c) => {
                const name = view.columnNames.get(c);
                return (
                  <th
                    key={c}
                    className={mergeClasses(s.head, s.colHead, name !== undefined && s.columnName, view.hiddenColumns.has(c) && s.hiddenColumn)}
                    scope="col"
                    style={widthOf(c)}
                    data-hidden-column={view.hiddenColumns.has(c) || undefined}
                    title={view.hiddenColumns.has(c) ? `Column ${columnLetters(c)} (hidden)` : name !== undefined ? `Column ${columnLetters(c)}` : undefined}
                  >
                    {name ?? columnLetters(c)}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: drawnRows }, (_, i) => {
              const r = view.top + i;
              return (
                <tr key={r} aria-rowindex={r + 2} data-frozen={isFrozen(r) || undefined}>
                  <th className={mergeClasses(s.head, s.rowHead, isFrozen(r) && s.frozen, isFrozen(r) && s.frozenHead)} style={isFrozen(r) ? { top: headHeight } : undefined} scope="row">
                    {r + 1}
                  </th>
                  {Array.from({ length: columns }, (_, c) => {
                    const address = cellAddress(r, c);
                    const cell = view.cells.get(`${r},${c}`);
                    const isSelected = selected === address;
                    const isEditing = editing?.address === address;
                    return (
                      <td
                        key={c}
                        id={isSelected ? cellId(address) : undefined}
                        role="gridcell"
                        aria-selected={isSelected || inBlock(r, c)}
                        className={mergeClasses(
                          s.cell,
                          cell?.table && s.table,
                          cell?.header && s.header,
                          typeof cell?.raw === 'number' && s.number,
                          cell?.mark === 'error' && s.error,
                          cell?.mark === 'warning' && s.warning,
                          cell?.mark === 'ok' && s.ok,
                          inBlock(r, c) && !isSelected && s.inBlock,
                          isSelected && s.selected,
                          isEditing && s.editing,
                          view.hiddenColumns.has(c) && s.hiddenColumn,
                          isFrozen(r) && s.frozen,
                        )}
                        style={isFrozen(r) ? { ...widthOf(c), top: headHeight } : widthOf(c)}
                        data-cell={address}
                        data-raw={cell ? JSON.stringify(cell.raw) : undefined}
                        title={cell ? cellTitle(address, cell) : undefined}
                        onMouseDown={() => {
                          // A click on another cell ends the edit with what was typed, as in Excel.
                          if (editing && !isEditing) commit(0, 0);
                        }}
                        onClick={(e) => {
                          if (isEditing) return;
                          tabRun.current = null;
                          if (e.shiftKey && selected) setStretch({ anchor: selected, corner: address });
                          else {
                            setStretch(null);
                            workbook.select(sheet, address);
                          }
                        }}
                        onDoubleClick={() => {
                          workbook.select(sheet, address);
                          startEdit(address, null, 'edit');
                        }}
                      >
                        {isEditing ? (
                          <input
                            className={s.editor}
                            aria-label={`Edit ${address}`}
                            value={editing.text}
                            autoFocus
                            // The caret after what is there, to type on (Chrome may put it first).
                            onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
                            onChange={(e) => setEditing({ ...editing, text: e.target.value })}
                            onKeyDown={onEditorKeyDown}
                            onBlur={(e) => {
                              // Leaving the cell (a click elsewhere) keeps what was typed, as Excel does; the list keeps the edit open.
                              if (!list && !gridRef.current?.contains(e.relatedTarget as Node | null)) commit(0, 0, false);
                            }}
                            data-testid="grid-editor"
                          />
                        ) : (
                          <>
                            {isSelected && listValues && (
                              <button
                                type="button"
                                tabIndex={-1}
                                className={s.arrow}
                                aria-label={`Choose a value for ${target.spec!.name}`}
                                aria-haspopup="listbox"
                                aria-expanded={list !== null}
                                onClick={(e) => {
                                  e.stopPropagation();
                                  openList();
                                }}
                                data-testid="grid-list-open"
                              >
                                ▾
                              </button>
                            )}
                            {cell?.display}
                          </>
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
