import {
  blockAddress,
  blockOf,
  clearedBlock,
  editText,
  editorKey,
  moveBy,
  parseClipboard,
  pastedCells,
  selectionKey,
  stepBy,
  targetOf,
  typedCell,
} from '../../../src/taskpane/preview/gridEdit';
import { createMemoryWorkbook } from '../../../src/workbook/memory';
import type { ColumnSpec } from '../../../src/workbook/port';

const level: ColumnSpec = {
  name: 'Level',
  format: 'text',
  list: { sheet: 'Lists', values: ['Low', 'High'] },
};
const types: ColumnSpec = {
  name: 'Types',
  format: 'text',
  list: { sheet: 'Lists', values: ['A', 'B'], allowOther: true },
};

describe('keys on the selected cell', () => {
  test('a printable key starts typing over the cell; F2 edits what is there; Backspace starts empty', () => {
    expect(selectionKey({ key: 'x' })).toEqual({ type: 'edit', text: 'x', mode: 'enter', keepText: false });
    expect(selectionKey({ key: '7' })).toEqual({ type: 'edit', text: '7', mode: 'enter', keepText: false });
    expect(selectionKey({ key: 'é' })).toEqual({ type: 'edit', text: 'é', mode: 'enter', keepText: false });
    expect(selectionKey({ key: 'F2' })).toEqual({ type: 'edit', text: '', mode: 'edit', keepText: true });
    expect(selectionKey({ key: 'Backspace' })).toEqual({
      type: 'edit',
      text: '',
      mode: 'enter',
      keepText: false,
    });
  });

  test('Delete clears, Enter moves down (Shift up), Tab right (Shift left; the grid lets Tab leave at its edges), Alt+Down opens the list; shortcuts and arrows are not edits', () => {
    expect(selectionKey({ key: 'Delete' })).toEqual({ type: 'clear' });
    expect(selectionKey({ key: 'Enter' })).toEqual({ type: 'move', rows: 1, cols: 0 });
    expect(selectionKey({ key: 'Enter', shiftKey: true })).toEqual({ type: 'move', rows: -1, cols: 0 });
    expect(selectionKey({ key: 'Tab' })).toEqual({ type: 'move', rows: 0, cols: 1 });
    expect(selectionKey({ key: 'Tab', shiftKey: true })).toEqual({ type: 'move', rows: 0, cols: -1 });
    expect(selectionKey({ key: 'ArrowDown', altKey: true })).toEqual({ type: 'open-list' });
    expect(selectionKey({ key: 'v', ctrlKey: true })).toBeNull();
    expect(selectionKey({ key: 'c', metaKey: true })).toBeNull();
    expect(selectionKey({ key: 'ArrowDown' })).toBeNull();
  });
});

describe('keys in the cell editor', () => {
  test('Enter commits and moves down, Tab right, Shift the other way; Escape cancels', () => {
    expect(editorKey({ key: 'Enter' }, 'edit')).toEqual({ type: 'commit', rows: 1, cols: 0 });
    expect(editorKey({ key: 'Enter', shiftKey: true }, 'edit')).toEqual({
      type: 'commit',
      rows: -1,
      cols: 0,
    });
    expect(editorKey({ key: 'Tab' }, 'edit')).toEqual({ type: 'commit', rows: 0, cols: 1 });
    expect(editorKey({ key: 'Tab', shiftKey: true }, 'enter')).toEqual({ type: 'commit', rows: 0, cols: -1 });
    expect(editorKey({ key: 'Escape' }, 'enter')).toEqual({ type: 'cancel' });
    expect(editorKey({ key: 'ArrowDown', altKey: true }, 'edit')).toEqual({ type: 'open-list' });
  });

  test('arrows commit and move after typing over a cell, and move the caret after F2', () => {
    expect(editorKey({ key: 'ArrowRight' }, 'enter')).toEqual({ type: 'commit', rows: 0, cols: 1 });
    expect(editorKey({ key: 'ArrowUp' }, 'enter')).toEqual({ type: 'commit', rows: -1, cols: 0 });
    expect(editorKey({ key: 'ArrowRight' }, 'edit')).toBeNull();
    expect(editorKey({ key: 'a' }, 'enter')).toBeNull();
  });
});

test('moving stays on the sheet', () => {
  expect(moveBy('B2', 1, 0, { row: 10, col: 5 })).toBe('B3');
  expect(moveBy('A1', -1, -1, { row: 10, col: 5 })).toBe('A1');
  expect(moveBy('F11', 1, 1, { row: 10, col: 5 })).toBe('F11');
});

describe('typed text as a cell', () => {
  test('as Excel stores typing: numbers, booleans, ISO dates in date columns as serials, text columns keep text', () => {
    expect(typedCell('  ')).toEqual({ ok: true, cell: null });
    expect(typedCell('2500')).toEqual({ ok: true, cell: 2500 });
    expect(typedCell('-2.5', { name: 'n', format: 'number' })).toEqual({ ok: true, cell: -2.5 });
    expect(typedCell('true')).toEqual({ ok: true, cell: true });
    expect(typedCell('2025-03-04', { name: 'd', format: 'date' })).toEqual({ ok: true, cell: 45720 });
    expect(typedCell('2025-03-04', { name: 'g', format: 'general' })).toEqual({
      ok: true,
      cell: '2025-03-04',
    });
    expect(typedCell('2025-02-30', { name: 'd', format: 'date' })).toEqual({ ok: true, cell: '2025-02-30' });
    expect(typedCell('03/04/2025', { name: 'd', format: 'date' })).toEqual({ ok: true, cell: '03/04/2025' });
    expect(typedCell('007', { name: 't', format: 'text' })).toEqual({ ok: true, cell: '007' });
  });

  test('a strict list refuses a typed value not on it, naming the column and the way out; a list with allowOther takes it', () => {
    expect(typedCell('high', level)).toEqual({ ok: true, cell: 'high' });
    const refused = typedCell('Huge', level);
    expect(refused).toEqual({
      ok: false,
      message: '"Huge" is not on the list of Level; pick one from the dropdown (Alt+Down).',
    });
    expect(typedCell('A; B', types)).toEqual({ ok: true, cell: 'A; B' });
  });

  test('an edit starts from what the formula bar shows: the date for a date cell', () => {
    expect(editText(45720, '2025-03-04')).toBe('2025-03-04');
    expect(editText(12, '12')).toBe('12');
    expect(editText(null, '')).toBe('');
    expect(editText(false, 'FALSE')).toBe('false');
  });
});

describe('pasting', () => {
  test('tab-separated lines; the last line break is no row; Excel-quoted cells keep tabs, breaks and quotes', () => {
    expect(parseClipboard('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseClipboard('a\t\tc')).toEqual([['a', '', 'c']]);
    expect(parseClipboard('"two\nlines"\t"say ""hi"""\nx')).toEqual([['two\nlines', 'say "hi"'], ['x']]);
    expect(parseClipboard('5" screen\tb')).toEqual([['5" screen', 'b']]);
    expect(parseClipboard('')).toEqual([]);
  });

  test('pasted text is typed into each column, and a value off a strict list is pasted anyway (Excel does not check pastes)', () => {
    const specs = [{ name: 'Date', format: 'date' } as ColumnSpec, level];
    expect(
      pastedCells(
        [
          ['2025-03-04', 'Huge'],
          ['', 'Low'],
        ],
        (_, c) => specs[c],
      ),
    ).toEqual([
      [45720, 'Huge'],
      [null, 'Low'],
    ]);
  });
});

test('a cell knows its table column (and list), the row right below the table too, and the header row', async () => {
  const wb = createMemoryWorkbook();
  await wb.createTable({
    name: 'tbl',
    sheet: 'Sheet1',
    anchor: 'B2',
    columns: [{ name: 'Name', format: 'text' }, level],
  });
  const snap = wb.snapshot();
  expect(targetOf(snap, 'Sheet1', 'C2')).toEqual({ table: 'tbl', header: true });
  expect(targetOf(snap, 'Sheet1', 'C3')).toEqual({ table: 'tbl', spec: level });
  expect(targetOf(snap, 'Sheet1', 'C4')).toEqual({});
  expect(targetOf(snap, 'Sheet1', 'A3')).toEqual({});
});

test('a stretched selection is the rectangle between its corners, whichever way it was stretched; Delete writes empties over it', () => {
  const b = blockOf('C4', 'B2');
  expect(b).toEqual({ top: 1, left: 1, bottom: 3, right: 2 });
  expect(blockAddress(b)).toBe('B2:C4');
  expect(blockAddress(blockOf('B2', 'B2'))).toBe('B2');
  expect(clearedBlock(b)).toEqual([
    [null, null],
    [null, null],
    [null, null],
  ]);
});

test("Tab, Tab, Enter goes to the next row under where the Tabs began, as in Excel; any other move ends the run", () => {
  const last = { row: 100, col: 20 };
  let step = stepBy('B2', 'Tab', 0, 1, last, null);
  expect(step).toEqual({ to: 'C2', run: { row: 1, col: 1 } });
  step = stepBy(step.to, 'Tab', 0, 1, last, step.run);
  expect(step).toEqual({ to: 'D2', run: { row: 1, col: 1 } });
  expect(stepBy(step.to, 'Enter', 1, 0, last, step.run)).toEqual({ to: 'B3', run: null });
  // Shift+Enter goes up as usual; an arrow key ends the run; a run from another row does not count.
  expect(stepBy('D2', 'Enter', -1, 0, last, step.run)).toEqual({ to: 'D1', run: null });
  expect(stepBy('D2', 'ArrowRight', 0, 1, last, step.run)).toEqual({ to: 'E2', run: null });
  expect(stepBy('D5', 'Enter', 1, 0, last, step.run)).toEqual({ to: 'D6', run: null });
  expect(stepBy('D2', 'Enter', 1, 0, last, null)).toEqual({ to: 'D3', run: null });
});
