import { cellAddress, parseCell, rangeAddress } from '../address';
import { planChunks, jsonBytes, type ChunkOptions } from '../chunks';
import { WorkbookError, cleanSheetName, uniqueName } from '../errors';
import { NUMBER_FORMAT } from '../formats';
import type { Cell, CellMark, ColumnSpec, TableShape, WorkbookPort, WriteStats } from '../port';
import { columnPicker, writeByRuns } from '../columns';
import { blankAsNull, findRow } from '../find-row';

/** What the preview grid renders. Read-only: valid until the next change, then replaced by a new one. */
export interface WorkbookSnapshot {
  /** Increases with every change. */
  version: number;
  /** `cells`: what sits outside tables, by A1 address (the lookup lists behind dropdowns). */
  sheets: readonly { name: string; hidden: boolean; cells: Readonly<Record<string, Cell>>; frozenRows?: number }[];
  tables: readonly TableSnapshot[];
  selection: { sheet: string; address: string };
  /**
   * How many times `select` was called: the grid brings the selected cell into view each time, as Excel's
   * Range.select scrolls to the range (a sheet a load activates is not a `select`, so a load never scrolls).
   */
  selects: number;
}

export interface TableSnapshot extends TableShape {
  specs: readonly ColumnSpec[];
  numberFormats: readonly string[];
  rows: readonly (readonly Cell[])[];
  marks: readonly CellMark[];
}

export interface MemoryWorkbook extends WorkbookPort {
  readonly host: 'memory';
  snapshot(): WorkbookSnapshot;
  /** Calls `listener` after every change (each written chunk included); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** What a user can do to a table's rows at any moment, a post running or not (marks move with rows). */
  sortRows(table: string, column: string, order?: 'ascending' | 'descending'): void;
  /** Inserts rows before body row `at` (blank rows when `rows` is a number). */
  insertRows(table: string, at: number, rows: number | readonly (readonly Cell[])[]): void;
  deleteRows(table: string, at: number, count?: number): void;
  /** Hides the rows the predicate refuses (null shows all again). Hidden rows keep their place and cells. */
  filterRows(table: string, keep: ((row: readonly Cell[]) => boolean) | null): void;
  /** Body row positions hidden by the filter. */
  hiddenRows(table: string): number[];
  /** Protects a sheet, as a user would from Review > Protect Sheet: loads are refused there. */
  protectSheet(sheet: string): void;
  /** Renames a table, as a user typing a new name in Table Design would (its id stays). */
  renameTable(name: string, newName: string): void;
  /** Adds a defined name, as a user would in Formulas > Name Manager: it shares the tables' namespace. */
  defineName(name: string): void;
  /**
   * Puts values into the sheet from `address` on, as a user typing or pasting would: cells of a table's
   * body change in place; a block that reaches the row right below a table, within its columns, grows the
   * table to hold it (Excel's AutoExpand); other cells sit on the sheet outside tables. A block that would
   * write over a table's header row is refused (the column names are the template's). null clears a cell.
   */
  setCells(sheet: string, address: string, values: readonly (readonly Cell[])[]): void;
}

export interface MemoryWorkbookOptions extends ChunkOptions {
  /** Sheets the new workbook starts with; default one named Sheet1. */
  sheets?: string[];
  capabilities?: { notes: boolean; dataValidation: boolean };
}

/**
 * A copy the caller cannot change afterwards. Like Excel, the memory workbook does not check written
 * values against a list: a list column, strict or with `allowOther`, stores what it is given; the list
 * itself lands on the lookup sheet.
 */
const copySpec = (c: ColumnSpec): ColumnSpec => ({ ...c, ...(c.list ? { list: { ...c.list, values: [...c.list.values] } } : {}) });

interface MemTable {
  id: string;
  name: string;
  sheet: string;
  row: number;
  col: number;
  specs: ColumnSpec[];
  rows: Cell[][];
  marks: Map<string, CellMark>;
  hidden: Set<Cell[]>;
}

interface MemSheet {
  name: string;
  hidden: boolean;
  /** Cells outside tables (the lookup lists of data validation), by A1 address. */
  cells: Map<string, Cell>;
  /** Rows frozen at the top (Freeze Panes): the preview keeps them in view. */
  frozenRows?: number;
}

/**
 * The workbook port in memory: for tests, benchmarks and the taskpane's preview mode. It is faithful to
 * what the logic can observe of Excel: unique sheet and table names, header rows, number formats per
 * column, calculated columns kept (not evaluated), lookup sheets for dropdowns, marks and notes, settings
 * stored as JSON text, and the same chunk plan and WriteStats as the Excel adapter.
 */
export function createMemoryWorkbook(options: MemoryWorkbookOptions = {}): MemoryWorkbook {
  const sheets = new Map<string, MemSheet>();
  for (const name of options.sheets ?? ['Sheet1']) sheets.set(name, { name, hidden: false, cells: new Map() });
  const tables = new Map<string, MemTable>();
  const protectedSheets = new Set<string>();
  const settings = new Map<string, string>();
  const listeners = new Set<() => void>();
  let selection = { sheet: [...sheets.keys()][0] ?? 'Sheet1', address: 'A1' };
  let selects = 0;
  let version = 0;
  let cached: WorkbookSnapshot | null = null;

  const changed = () => {
    version++;
    cached = null;
    for (const l of [...listeners]) l();
  };
  const lower = (s: string) => s.toLowerCase();
  const sheetTaken = (n: string) => [...sheets.keys()].some((s) => lower(s) === lower(n));
  // Excel table names share one namespace per workbook, case-insensitively.
  const findMem = (name: string) => [...tables.values()].find((t) => lower(t.name) === lower(name) || t.id === name);
  let nextTableId = 1;
  const definedNames: string[] = [];
  const table = (name: string): MemTable => {
    const t = findMem(name);
    if (!t) throw new WorkbookError('table-not-found', `There is no table named ${name} in this workbook.`);
    return t;
  };
  const shape = (t: MemTable): TableShape => ({
    id: t.id,
    name: t.name,
    sheet: t.sheet,
    topLeft: cellAddress(t.row, t.col),
    columns: t.specs.map((s) => s.name),
    rowCount: t.rows.length,
  });
  const blankRow = (t: MemTable): Cell[] => t.specs.map((s) => (s.formula ? s.formula : null));
  const overlaps = (sheet: string, row: number, col: number, width: number, except?: MemTable) =>
    [...tables.values()].some(
      (t) => t !== except && t.sheet === sheet && col < t.col + t.specs.length && t.col < col + width && row <= t.row + t.rows.length && t.row <= row,
    );
  const writeList = (spec: ColumnSpec) => {
    if (!spec.list) return;
    let lookup = sheets.get(spec.list.sheet);
    if (!lookup) {
      lookup = { name: spec.list.sheet, hidden: true, cells: new Map() };
      sheets.set(lookup.name, lookup);
    }
    // One lookup column per list, found by its header: a re-added list reuses its column.
    const key = spec.list.key ?? spec.name;
    let col = 0;
    while (lookup.cells.has(cellAddress(0, col)) && lookup.cells.get(cellAddress(0, col)) !== key) col++;
    lookup.cells.set(cellAddress(0, col), key);
    spec.list.values.forEach((v, i) => lookup.cells.set(cellAddress(i + 1, col), v));
  };
  // Rows move as whole arrays, so marks follow their row through a sort, insert or delete.
  const reorder = (t: MemTable, rows: Cell[][]) => {
    const moved = new Map<Cell[], number>(rows.map((r, i) => [r, i]));
    const marks = new Map<string, CellMark>();
    for (const m of t.marks.values()) {
      const to = moved.get(t.rows[m.row]!);
      if (to !== undefined) marks.set(`${to}:${m.column}`, { ...m, row: to });
    }
    for (const r of t.hidden) if (!moved.has(r)) t.hidden.delete(r);
    t.rows = rows;
    t.marks = marks;
    changed();
  };
  const compare = (a: Cell, b: Cell): number => {
    // Excel sorts numbers before text before booleans, and empty cells last either way.
    const rank = (c: Cell) => (typeof c === 'number' ? 0 : typeof c === 'string' ? 1 : 2);
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b, undefined, { sensitivity: 'base' });
    return Number(a) - Number(b);
  };
  const rowOverhead = (t: MemTable, from: number, width: number) =>
    jsonBytes(t.specs.slice(from, from + width).map((s) => NUMBER_FORMAT[s.format])) + 1;

  const workbook: MemoryWorkbook = {
    host: 'memory',
    capabilities: options.capabilities ?? { notes: true, dataValidation: true },

    async sheetNames() {
      return [...sheets.keys()];
    },

    async addSheet(name, opts = {}) {
      const unique = uniqueName(cleanSheetName(name), sheetTaken, 31);
      sheets.set(unique, { name: unique, hidden: opts.hidden ?? false, cells: new Map() });
      if (opts.activate) selection = { sheet: unique, address: 'A1' };
      changed();
      return unique;
    },

    async selection() {
      return { ...selection };
    },

    async listTables() {
      return [...tables.values()].map(shape);
    },

    async findTable(name) {
      const t = findMem(name);
      return t ? shape(t) : null;
    },

    async createTable({ name, sheet, anchor, columns }) {
      if (!sheets.has(sheet)) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
      if (findMem(name)) throw new WorkbookError('bad-argument', `A table named ${name} already exists.`);
      if (!columns.length) throw new WorkbookError('bad-argument', 'A table needs at least one column.');
      const { row, col } = parseCell(anchor);
      if (overlaps(sheet, row, col, columns.length)) {
        throw new WorkbookError('overlap', `A table at ${sheet}!${anchor} would overlap another table; pick an empty area.`);
      }
      const t: MemTable = { id: `{mem-${nextTableId++}}`, name, sheet, row, col, specs: columns.map(copySpec), rows: [], marks: new Map(), hidden: new Set() };
      t.specs.forEach(writeList);
      tables.set(name, t);
      changed();
      return shape(t);
    },

    async inspectTarget(sheet, anchor, width) {
      const s = sheets.get(sheet);
      if (!s) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
      const { row, col } = parseCell(anchor);
      const inStrip = (r: number, c: number) => r >= row && c >= col && c < col + width;
      const used = [...s.cells.entries()].filter(([a, v]) => v !== null && v !== '' && inStrip(parseCell(a).row, parseCell(a).col)).map(([a]) => parseCell(a));
      const area = used.length
        ? rangeAddress(
            Math.min(...used.map((u) => u.row)),
            Math.min(...used.map((u) => u.col)),
            Math.max(...used.map((u) => u.row)) - Math.min(...used.map((u) => u.row)) + 1,
            Math.max(...used.map((u) => u.col)) - Math.min(...used.map((u) => u.col)) + 1,
          )
        : null;
      const blocking = [...tables.values()].filter((t) => t.sheet === sheet && t.col < col + width && col < t.col + t.specs.length && t.row + t.rows.length >= row);
      return { protected: protectedSheets.has(sheet), used: area, tables: blocking.map((t) => t.name), names: [...definedNames] };
    },

    async arrangeTable(name, { widths, freezeHeader }) {
      const t = table(name);
      t.specs = t.specs.map((spec, i) => (widths[i] === undefined ? spec : { ...spec, width: widths[i] }));
      if (freezeHeader) sheets.get(t.sheet)!.frozenRows = t.row + 1;
      changed();
    },

    async addColumns(name, columns) {
      const t = table(name);
      for (const c of columns) {
        const spec = copySpec(c);
        t.specs.push(spec);
        writeList(spec);
        for (const r of t.rows) r.push(spec.formula ?? null);
      }
      changed();
      return shape(t);
    },

    async writeRows(name, offset, rows, at = 0) {
      if (typeof at !== 'number') return writeByRuns(rows, at, (r, first) => workbook.writeRows(name, offset, r, first));
      const firstColumn = at;
      const t = table(name);
      const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
      if (firstColumn + width > t.specs.length) {
        throw new WorkbookError('bad-argument', `Rows of ${width} cells from column ${firstColumn} do not fit the ${t.specs.length} columns of ${name}.`);
      }
      const stats: WriteStats = { syncs: 0, maxPayloadBytes: 0 };
      const chunks = planChunks(rows, width, { ...options, rowOverheadBytes: rowOverhead(t, firstColumn, width) });
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0)); // let a preview render between chunks
        while (t.rows.length < offset + chunk.rowEnd) t.rows.push(blankRow(t));
        for (let r = chunk.rowStart; r < chunk.rowEnd; r++) {
          const target = t.rows[offset + r]!;
          const src = rows[r]!;
          for (let c = chunk.colStart; c < chunk.colEnd; c++) target[firstColumn + c] = src[c] ?? null;
        }
        stats.syncs++;
        stats.maxPayloadBytes = Math.max(stats.maxPayloadBytes, chunk.bytes);
        changed();
      }
      return stats;
    },

    async setRowCount(name, rowCount) {
      const t = table(name);
      if (rowCount < t.rows.length) {
        t.rows.length = rowCount;
        for (const [k, m] of t.marks) if (m.row >= rowCount) t.marks.delete(k);
      } else while (t.rows.length < rowCount) t.rows.push(blankRow(t));
      changed();
    },

    async deleteTable(name) {
      tables.delete(table(name).name);
      changed();
    },

    async deleteSheet(sheet) {
      if (!sheets.delete(sheet)) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
      for (const [k, t] of tables) if (t.sheet === sheet) tables.delete(k);
      if (selection.sheet === sheet) selection = { sheet: [...sheets.keys()][0] ?? 'Sheet1', address: 'A1' };
      changed();
    },

    async updateRows(name, updates) {
      const t = table(name);
      // Each column name resolved once per call, not once per update: a post keys a thousand rows in one call.
      const index = new Map<string, number>();
      const at = (column: string) => {
        let i = index.get(column);
        if (i === undefined) index.set(column, (i = t.specs.findIndex((s) => lower(s.name) === lower(column))));
        return i;
      };
      const out: (number | null)[] = [];
      // No await in here: in one JavaScript turn nothing else (a user's sort) can come between find and write.
      for (const u of updates) {
        const where = Object.entries(u.where).map(([c, v]) => [at(c), blankAsNull(v)] as const);
        if (u.firstColumn + u.cells.length > t.specs.length || where.some(([i]) => i < 0)) {
          throw new WorkbookError('bad-argument', `An update of ${name} names a column the table does not have.`);
        }
        const row = where.length ? findRow(t.rows, where) : -1;
        out.push(row < 0 ? null : row);
        if (row >= 0) u.cells.forEach((c, k) => (t.rows[row]![u.firstColumn + k] = c));
      }
      if (out.some((r) => r !== null)) changed();
      return out;
    },

    sortRows(name, column, order = 'ascending') {
      const t = table(name);
      const i = t.specs.findIndex((s) => lower(s.name) === lower(column));
      if (i < 0) throw new WorkbookError('bad-argument', `Table ${name} has no column ${column}.`);
      const sign = order === 'ascending' ? 1 : -1;
      const blank = (c: Cell) => c === null || c === '';
      reorder(t, [...t.rows].sort((a, b) => {
        const x = a[i] ?? null, y = b[i] ?? null;
        if (blank(x) || blank(y)) return Number(blank(x)) - Number(blank(y));
        return sign * compare(x, y);
      }));
    },

    insertRows(name, at, rows) {
      const t = table(name);
      const added = typeof rows === 'number' ? Array.from({ length: rows }, () => blankRow(t)) : rows.map((r) => t.specs.map((_, c) => r[c] ?? null));
      reorder(t, [...t.rows.slice(0, at), ...added, ...t.rows.slice(at)]);
    },

    deleteRows(name, at, count = 1) {
      const t = table(name);
      reorder(t, [...t.rows.slice(0, at), ...t.rows.slice(at + count)]);
    },

    filterRows(name, keep) {
      const t = table(name);
      t.hidden = new Set(keep ? t.rows.filter((r) => !keep(r)) : []);
      changed();
    },

    defineName(name) {
      if (findMem(name) || definedNames.some((n) => lower(n) === lower(name))) throw new WorkbookError('bad-argument', `The name ${name} is taken.`);
      definedNames.push(name);
    },

    hiddenRows(name) {
      const t = table(name);
      return t.rows.flatMap((r, i) => (t.hidden.has(r) ? [i] : []));
    },

    async readRows(name, offset = 0, count) {
      const t = table(name);
      const end = count === undefined ? t.rows.length : Math.min(t.rows.length, offset + count);
      return { columns: t.specs.map((s) => s.name), rows: t.rows.slice(offset, end).map((r) => [...r]) };
    },

    async scanRows(name, columns, visit, wanted) {
      const t = table(name);
      const pick = columnPicker(t.specs.map((s) => s.name), columns);
      t.rows.forEach((r, i) => {
        if (!wanted || wanted(i)) visit(pick(r), i);
      });
      return t.rows.length;
    },

    async markCells(name, marks) {
      const t = table(name);
      for (const m of marks) {
        if (!t.specs.some((s) => s.name === m.column)) throw new WorkbookError('bad-argument', `Table ${name} has no column ${m.column}.`);
        const key = `${m.row}:${m.column}`;
        if (m.kind === 'none') t.marks.delete(key);
        else t.marks.set(key, workbook.capabilities.notes ? { ...m } : { row: m.row, column: m.column, kind: m.kind });
      }
      changed();
    },

    async getSetting<T>(key: string) {
      const raw = settings.get(key);
      return raw === undefined ? undefined : (JSON.parse(raw) as T);
    },

    async setSetting(key, value) {
      if (value === undefined) settings.delete(key);
      else settings.set(key, JSON.stringify(value));
      changed();
    },

    protectSheet(sheet) {
      protectedSheets.add(sheet);
    },

    renameTable(name, newName) {
      const t = table(name);
      if (findMem(newName)) throw new WorkbookError('bad-argument', `A table named ${newName} already exists.`);
      tables.delete(t.name);
      t.name = newName;
      tables.set(newName, t);
      changed();
    },

    snapshot() {
      cached ??= {
        version,
        selection: { ...selection },
        selects,
        sheets: [...sheets.values()].map((s) => ({ name: s.name, hidden: s.hidden, cells: Object.fromEntries(s.cells), ...(s.frozenRows ? { frozenRows: s.frozenRows } : {}) })),
        tables: [...tables.values()].map((t) => ({
          ...shape(t),
          specs: t.specs.map(copySpec),
          numberFormats: t.specs.map((s) => NUMBER_FORMAT[s.format]),
          rows: t.rows,
          marks: [...t.marks.values()],
        })),
      };
      return cached;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    // The body runs at once (no await): the preview grid, which calls it without waiting, sees the move
    // in the same tick, as a user clicking a cell would.
    async select(sheet, address) {
      if (!sheets.has(sheet)) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
      parseCell(address);
      selection = { sheet, address };
      selects++;
      changed();
    },

    setCells(sheet, address, values) {
      const s = sheets.get(sheet);
      if (!s) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
      const at = parseCell(address);
      const height = values.length;
      const width = values.reduce((w, r) => Math.max(w, r.length), 0);
      const onSheet = [...tables.values()].filter((t) => t.sheet === sheet);
      const across = (t: MemTable) => at.col < t.col + t.specs.length && t.col < at.col + width;
      const header = onSheet.find((t) => across(t) && at.row <= t.row && t.row < at.row + height);
      if (header) {
        throw new WorkbookError('bad-argument', `Row ${header.row + 1} holds the column names of table ${header.name}; type in the rows below it.`);
      }
      // A block starting in a table's body or right below it grows that table down to its last row that
      // holds a value (clearing cells below a table does not grow it).
      const filled = values.reduce((last, row, r) => (row.some((v) => v !== null) ? r + 1 : last), 0);
      for (const t of onSheet) {
        if (across(t) && at.row > t.row && at.row <= t.row + t.rows.length + 1) {
          while (t.rows.length < at.row - t.row - 1 + filled) t.rows.push(blankRow(t));
        }
      }
      values.forEach((row, r) =>
        row.forEach((value, c) => {
          const rr = at.row + r;
          const cc = at.col + c;
          const t = onSheet.find((x) => rr > x.row && rr <= x.row + x.rows.length && cc >= x.col && cc < x.col + x.specs.length);
          if (t) t.rows[rr - t.row - 1]![cc - t.col] = value;
          else if (value === null) s.cells.delete(cellAddress(rr, cc));
          else s.cells.set(cellAddress(rr, cc), value);
        }),
      );
      changed();
    },
  };
  return workbook;
}
