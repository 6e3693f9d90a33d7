import { mergeClasses } from '@fluentui/react-components';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { MemoryWorkbook } from '../../workbook/memory';
import { MAX_ROWS, cellAddress, parseCell } from '../../workbook/address';
import { blockAddress, editText } from './gridEdit';
import { useGridEditing } from './useGridEditing';
import type { GridBounds } from './gridKeys';
import { ListPopup } from './ListPopup';
import { PAGE_ROWS, cellTitle, gridOf } from './gridModel';
import { useGridStyles } from './gridStyles';
import { useRevealSelected } from './useRevealSelected';
import { GridHead } from './GridHead';
import { useSheetScroll } from './useSheetScroll';
import { useGridInSight } from './useGridInSight';
import { GridBar } from './GridBar';
import { NameBox } from './NameBox';

export interface Props {
  workbook: MemoryWorkbook;
}

const TABSTER_OWN_TAB = JSON.stringify({ focusable: { ignoreKeydown: { Tab: true } } });

/**
 * The preview's stand-in for Excel's grid: the in-memory workbook's sheets, one page of rows at a time, each
 * cell drawn by its number format only (a date shows as the date; its serial number is in the cell's
 * tooltip), marks as fills. A cell is selected by click or, with the grid focused, by the arrow keys and Tab
 * (as in Excel), for "load at the selected cell"; the name box above the grid shows and announces it.
 */
export function PreviewGrid({ workbook }: Props) {
  const s = useGridStyles();
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
  const { editing, setEditing, list, setList, listValues, target, problem, block, corner, inBlock, tabRun, setStretch, commit, startEdit, openList, pick, onKeyDown, onEditorKeyDown, onPaste, setFocusTo } = useGridEditing({ workbook, snapshot, sheet, view, selected, bounds, gridRef, showPage });

  // The grid follows the workbook's selection wherever it is set (workbook.select, e.g. a problem picked in
  // the write-back list): its page is shown. Paging by the buttons afterwards is left alone.
  const selectedRow = selectedAt?.row;
  useEffect(() => {
    if (selectedRow === undefined) return;
    const page = Math.floor(selectedRow / PAGE_ROWS) * PAGE_ROWS;
    setTops((t) => ((t[sheet] ?? 0) === page ? t : { ...t, [sheet]: page }));
  }, [sheet, selectedRow]);

  const { scrollRef, keepScroll } = useSheetScroll(sheet);
  const { rootRef } = useGridInSight(sheet, snapshot.tables);
  // The grid and, when the pane is stacked above the grid, the page scroll to a selected cell. A load
  // activating its new sheet is not a select, so it never scrolls the page under the user's mouse.
  useRevealSelected(gridRef, snapshot, sheet, selected, view.top);


  return (
    <div className={s.root} data-testid="preview-grid" ref={rootRef}>
      <GridBar sheet={sheet} sheets={visible.map((sh) => sh.name)} onSheet={(name) => setChosen({ name, whileSelected: snapshot.selection.sheet })} view={view} onPage={showPage} />
      <NameBox sheet={sheet} selected={selected} shown={block && corner ? blockAddress(block) : selected} display={selectedCell?.display} />
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
          <GridHead view={view} columns={columns} widthOf={widthOf} rowRef={headRow} />
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
