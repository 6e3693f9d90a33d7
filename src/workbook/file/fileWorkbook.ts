import { closeSync, openSync, readSync } from 'node:fs';
import { cellAddress, parseCell, quoteSheet, rangeAddress } from '../address';
import { WorkbookError, cleanSheetName, uniqueName } from '../errors';
import type { Cell, ColumnSpec, TableShape, TargetInfo, WorkbookPort, WriteStats } from '../port';
import { columnPicker } from '../columns';
import { blankAsNull } from '../find-row';
import { ADDIN_ID, DEFAULT_STORE, isOurPart, readProperties, type AddinStore } from './addin';
import { readBody, readPivotCaches, readSharedStrings, readSheets, readTables, scanBody, scanSheet, scanSheetAsync, sheetProtected, usedCells, type ColumnModel, type PivotCacheModel, type SheetModel, type SheetScan, type TableModel } from './model';
import { Package } from './package';
import { HeldRows } from './held';
import { FileProblem } from './problem';
import { savePackage, type SaveReport } from './save';
import { attr, child, childrenOf, parseXml } from './xml';
import { ZipReader } from './zip';

export interface FileWorkbookOptions {
  /** The add-in whose settings part is read and written (the manifest's Id). */
  addinId?: string;
  /** Where Excel finds the add-in when a workbook that did not have its part gets one. */
  store?: AddinStore;
  /** Deflate level of rewritten parts (fflate, 0-9). */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
}

export interface FileWorkbook extends WorkbookPort {
  readonly host: 'file';
  readonly path: string;
  /** Writes the package with every change to `target` (never the file it was opened from); see save.ts. */
  saveTo(target: string, options?: { onRow?(): void }): SaveReport;
  /** Rows the saved file will hold in the changed tables: what a progress line counts towards. */
  rowsToWrite(): number;
  close(): void;
}

export interface FileState {
  pkg: Package;
  workbookPath: string;
  sheets: SheetModel[];
  pivots: PivotCacheModel[];
  definedNames: string[];
  /** The add-in's web extension part, when the file has one. */
  settingsPart: string | null;
  /** The id of the part a save adds when the file has none: the same for every save of the session. */
  newPartId?: string;
  settings: Map<string, string>;
  settingsChanged: boolean;
  reserved: Set<string>;
  /** The sheet to show when the file opens, when a new one was activated. */
  activate?: string;
  sharedStrings: () => readonly string[];
  options: FileWorkbookOptions & { store: AddinStore };
}

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Refuses, with what to do, the files that are not an .xlsx package: encrypted workbooks and old .xls files are OLE compound files. */
function refuseOle(path: string): void {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(1 << 16);
    const n = readSync(fd, head, 0, head.length, 0);
    if (n < 8 || !head.subarray(0, 8).equals(OLE)) return;
    // The stream names are in the compound file's directory ([MS-CFB] 2.6), whose first sector the
    // header names; in a big file it lies far from the start.
    const sectorSize = 1 << head.readUInt16LE(30);
    const directory = Buffer.alloc(sectorSize * 4);
    readSync(fd, directory, 0, directory.length, (head.readUInt32LE(48) + 1) * sectorSize);
    const names = Buffer.concat([head.subarray(0, n), directory]);
    if (names.includes(Buffer.from('EncryptedPackage', 'utf16le')) || names.includes(Buffer.from('EncryptionInfo', 'utf16le'))) {
      throw new FileProblem('encrypted', 'The workbook is encrypted with a password (File > Info > Protect Workbook > Encrypt with Password), so it cannot be read without Excel. Save an unencrypted copy for the scheduled refresh, and keep it where only the right people can read it.');
    }
    throw new FileProblem('not-a-workbook', 'The file is an Excel 97-2003 workbook (.xls), not an .xlsx package. Open it in Excel and save it as "Excel Workbook (*.xlsx)".');
  } finally {
    closeSync(fd);
  }
}

export function openFileWorkbook(path: string, options: FileWorkbookOptions = {}): FileWorkbook {
  refuseOle(path);
  const zip = ZipReader.open(path);
  try {
    const pkg = new Package(zip);
    const workbookPath = pkg.workbookPath();
    const wb = parseXml(pkg.text(workbookPath), workbookPath);
    const names = child(wb, 'definedNames');
    const sheets = readSheets(pkg, workbookPath);
    for (const s of sheets) s.tables = readTables(pkg, s);
    const addinId = options.addinId ?? ADDIN_ID;
    const settingsPart = [...zip.entries.keys()].filter((n) => /^xl\/webextensions\/webextension\d+\.xml$/.test(n)).find((n) => isOurPart(pkg.text(n), n, addinId)) ?? null;
    let strings: string[] | null = null;
    const state: FileState = {
      pkg,
      workbookPath,
      sheets,
      pivots: readPivotCaches(pkg, workbookPath),
      definedNames: names ? childrenOf(names, 'definedName').map((n) => attr(n, 'name') ?? '') : [],
      settingsPart,
      settings: settingsPart ? readProperties(pkg.text(settingsPart), settingsPart) : new Map(),
      settingsChanged: false,
      reserved: new Set(),
      sharedStrings: () => (strings ??= readSharedStrings(pkg, workbookPath)),
      options: { ...options, store: options.store ?? DEFAULT_STORE },
    };
    return fileWorkbook(path, state);
  } catch (e) {
    zip.close();
    throw e;
  }
}

const NOT_HERE = (what: string) =>
  new WorkbookError('host', `${what} is not done on a saved workbook file by grc-sheets yet; open the workbook in Excel and use the add-in for it.`);

/** The smallest area holding the cells, as an A1 range; null for none. A loop, not Math.min(...): a strip may hold millions. */
function usedArea(cells: readonly { row: number; col: number }[]): string | null {
  if (!cells.length) return null;
  let r0 = Infinity;
  let c0 = Infinity;
  let r1 = -1;
  let c1 = -1;
  for (const { row, col } of cells) {
    if (row < r0) r0 = row;
    if (row > r1) r1 = row;
    if (col < c0) c0 = col;
    if (col > c1) c1 = col;
  }
  return rangeAddress(r0, c0, r1 - r0 + 1, c1 - c0 + 1);
}

function fileWorkbook(path: string, state: FileState): FileWorkbook {
  const { pkg } = state;
  const lower = (s: string) => s.toLowerCase();
  let selection: { sheet: string; address: string } | null = null;
  const sheetOf = (name: string): SheetModel => {
    const s = state.sheets.find((x) => x.name === name);
    if (!s) throw new WorkbookError('sheet-not-found', `There is no sheet named ${name}.`);
    return s;
  };
  const allTables = () => state.sheets.flatMap((s) => s.tables);
  const findModel = (nameOrId: string) => allTables().find((t) => lower(t.name) === lower(nameOrId));
  const tableOf = (name: string): TableModel => {
    const t = findModel(name);
    if (!t) throw new WorkbookError('table-not-found', `There is no table named ${name} in this workbook.`);
    return t;
  };
  const scanOf = (s: SheetModel): SheetScan => (s.scan ??= scanSheet(pkg, s, state.sharedStrings));
  /** The scan a save needs of a sheet about to change, read inflating off the main thread (scanOf reads it in line). */
  const scanned = async (s: SheetModel): Promise<void> => {
    s.scan ??= await scanSheetAsync(pkg, s, state.sharedStrings);
  };
  const rowCountOf = (t: TableModel) => (!t.changed && t.oldPhysical === 1 && scanOf(t.sheet).blank.has(t) ? 0 : t.rowCount);
  /** Every change to a table's columns, rows or cells is marked here, and nowhere else: it makes the rows held for it stale. */
  const changed = (t: TableModel) => {
    t.changed = true;
    t.version++;
  };
  /**
   * A table's rows as readRows gives them, kept between calls of updateRows (a post's journal and results
   * come a row at a time, and reading the sheet again for each cost the square of the rows): good while
   * the table's version is the one they were read or written at. updateRows writes through them, and
   * anything else that changes the table moves its version on, so the next updateRows reads it again.
   */
  const held = new WeakMap<TableModel, HeldRows>();
  /** Body rows [offset, offset + count) as a save would write them: the file's, under every block written since. */
  const rowsOf = (t: TableModel, offset: number, count: number | undefined): Cell[][] => {
    const total = t.changed ? t.rowCount : rowCountOf(t);
    const end = count === undefined ? total : Math.min(total, offset + count);
    const h = held.get(t);
    if (h && h.version === t.version) return h.rows.slice(offset, Math.max(offset, end)).map((r) => r.slice());
    const rows = readBody(pkg, t, offset, Math.min(end, t.oldPhysical), state.sharedStrings);
    while (rows.length < end - offset) rows.push([]);
    for (const r of rows) while (r.length < t.columns.length) r.push(null);
    for (const b of t.blocks) {
      for (let i = Math.max(b.offset, offset); i < Math.min(b.offset + b.rows.length, end); i++) {
        const from = b.rows[i - b.offset]!;
        b.at.forEach((k, c) => k >= 0 && (rows[i - offset]![c] = from[k] ?? null));
      }
    }
    return rows;
  };
  const heldRows = (t: TableModel): HeldRows => {
    const h = held.get(t);
    if (h && h.version === t.version) return h;
    const fresh = new HeldRows(t.version, rowsOf(t, 0, undefined));
    held.set(t, fresh);
    return fresh;
  };
  /** Writes rows (cells by `positions`, table columns) as a block: the save writes them. Needs the sheet's scan. */
  const addBlock = (t: TableModel, offset: number, rows: readonly (readonly Cell[])[], positions: readonly number[]) => {
    if (!t.changed) t.rowCount = rowCountOf(t);
    // Held by reference, not copied: the rows are written out once, when the file is saved.
    const at = new Int32Array(t.columns.length).fill(-1);
    positions.forEach((p, i) => (at[p] = i));
    t.blocks.push({ offset, at, rows });
    t.rowCount = Math.max(t.rowCount, offset + rows.length);
    changed(t);
  };
  const shape = (t: TableModel): TableShape => ({
    name: t.name,
    sheet: t.sheet.name,
    topLeft: cellAddress(t.row, t.col),
    columns: t.columns.map((c) => c.name),
    rowCount: rowCountOf(t),
  });
  const freePath = (prefix: string, suffix: string) => {
    for (let n = 1; ; n++) {
      const p = `${prefix}${n}${suffix}`;
      if (!pkg.has(p) && !state.reserved.has(p)) {
        state.reserved.add(p);
        return p;
      }
    }
  };
  const addSheetModel = (name: string, hidden: boolean): SheetModel => {
    const s: SheetModel = { name, path: freePath('xl/worksheets/sheet', '.xml'), hidden, isNew: true, tables: [], loose: new Map(), cols: new Map(), validations: [] };
    state.sheets.push(s);
    return s;
  };
  const setLoose = (s: SheetModel, row: number, col: number, value: Cell) => {
    let r = s.loose.get(row);
    if (!r) s.loose.set(row, (r = new Map()));
    r.set(col, value);
  };
  /** The dropdown list on the lookup sheet (made hidden when missing); the list's source reference. */
  const writeList = (spec: ColumnSpec & { list: NonNullable<ColumnSpec['list']> }): string => {
    const lookup = state.sheets.find((s) => s.name === spec.list.sheet) ?? addSheetModel(spec.list.sheet, true);
    const key = spec.list.key ?? spec.name;
    const header = (c: number) => (lookup.loose.get(0)?.has(c) ? lookup.loose.get(0)!.get(c) : scanOf(lookup).firstRow.get(c)) ?? null;
    let col = 0;
    while (header(col) !== null && header(col) !== '' && header(col) !== key) col++;
    setLoose(lookup, 0, col, key);
    spec.list.values.forEach((v, i) => setLoose(lookup, i + 1, col, v));
    const first = rangeAddress(1, col, Math.max(spec.list.values.length, 1), 1).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2');
    return `${quoteSheet(spec.list.sheet)}!${first}`;
  };
  const dress = (t: TableModel, from: number, specs: readonly ColumnSpec[]) => {
    specs.forEach((spec, i) => {
      const col = t.col + from + i;
      if (spec.width !== undefined || spec.hidden) {
        if (!t.sheet.isNew) throw NOT_HERE('Setting column widths on an existing sheet');
        t.sheet.cols.set(col, { ...(spec.width !== undefined ? { width: spec.width } : {}), ...(spec.hidden ? { hidden: true } : {}) });
      }
      if (spec.list) {
        if (!t.sheet.isNew) throw NOT_HERE('Adding a dropdown list on an existing sheet');
        const source = writeList({ ...spec, list: spec.list });
        t.sheet.validations.push({ sqref: `${cellAddress(t.row + 1, col)}:${cellAddress(t.row + Math.max(t.rowCount, 1), col)}`, source, allowOther: !!spec.list.allowOther });
      }
    });
  };

  const workbook: FileWorkbook = {
    host: 'file',
    path,
    capabilities: { notes: false, dataValidation: true },

    async sheetNames() {
      return state.sheets.map((s) => s.name);
    },

    async addSheet(name, opts = {}) {
      const unique = uniqueName(cleanSheetName(name), (n) => state.sheets.some((s) => lower(s.name) === lower(n)), 31);
      addSheetModel(unique, !!opts.hidden);
      if (opts.activate) {
        selection = { sheet: unique, address: 'A1' };
        state.activate = unique;
      }
      return unique;
    },

    async selection() {
      return selection ?? { sheet: (state.sheets.find((s) => !s.hidden) ?? state.sheets[0])?.name ?? 'Sheet1', address: 'A1' };
    },

    async select(sheet, address) {
      sheetOf(sheet);
      parseCell(address);
      selection = { sheet, address };
    },

    async listTables() {
      return allTables().map(shape);
    },

    async findTable(nameOrId) {
      const t = findModel(nameOrId);
      return t ? shape(t) : null;
    },

    async createTable({ name, sheet, anchor, columns }) {
      const s = sheetOf(sheet);
      if (!s.isNew) throw NOT_HERE(`Making a table on the existing sheet ${sheet}`);
      if (!columns.length) throw new WorkbookError('bad-argument', 'A table needs at least one column.');
      if (findModel(name) || state.definedNames.some((n) => lower(n) === lower(name))) throw new WorkbookError('bad-argument', `A table named ${name} already exists.`);
      const { row, col } = parseCell(anchor);
      if (s.tables.some((t) => col < t.col + t.columns.length && t.col < col + columns.length)) {
        throw new WorkbookError('overlap', `A table at ${sheet}!${anchor} would overlap another table; pick an empty area.`);
      }
      const id = String(Math.max(0, ...allTables().map((t) => Number(t.id) || 0)) + 1);
      const t: TableModel = {
        path: freePath('xl/tables/table', '.xml'),
        isNew: true,
        id,
        name,
        sheet: s,
        row,
        col,
        columns: columns.map((c, i): ColumnModel => ({ name: c.name, id: i + 1, spec: c, ...(c.formula ? { formula: c.formula.replace(/^=/, '') } : {}) })),
        oldWidth: 0,
        oldPhysical: 0,
        rowCount: 0,
        totals: 0,
        blocks: [],
        changed: true,
        version: 0,
      };
      s.tables.push(t);
      dress(t, 0, columns);
      return shape(t);
    },

    async inspectTarget(sheet, anchor, width): Promise<TargetInfo> {
      const s = sheetOf(sheet);
      // Only the protection is needed here: the rest of the scan comes with the first whole read of the
      // table (a refresh's scanRows) or the first write, whichever is first.
      if (!s.scan && s.protection === undefined && (s.protection = await sheetProtected(pkg, s)) === null) await scanned(s);
      const locked = s.scan ? s.scan.protected : !!s.protection;
      const { row, col } = parseCell(anchor);
      const blocking = s.tables.filter((t) => t.col < col + width && col < t.col + t.columns.length && t.row + t.rowCount + t.totals >= row);
      let used: string | null | undefined;
      return {
        protected: locked,
        tables: blocking.map((t) => t.name),
        names: [...state.definedNames],
        // Found only when asked (a first load asks; a refresh, whose strip is its own table, does not):
        // it reads every cell of the strip.
        get used() {
          if (used === undefined) used = usedArea(usedCells(pkg, s, row, col, width, state.sharedStrings));
          return used;
        },
      };
    },

    async addColumns(name, columns) {
      const t = tableOf(name);
      await scanned(t.sheet);
      const from = t.columns.length;
      // Excel would shift cells beside the table to the right (and adjust every reference to them); a
      // saved file cannot do that safely, so a new column refuses to land on anything the user has there.
      const last = t.row + Math.max(t.rowCount, t.oldPhysical, 1) + t.totals;
      const inTheWay = usedCells(pkg, t.sheet, t.row, t.col + from, columns.length, state.sharedStrings).filter((u) => u.row <= last);
      if (inTheWay.length) {
        const first = inTheWay[0]!;
        throw new WorkbookError(
          'overlap',
          `Table ${t.name} needs ${columns.length} more column(s) for the dataset's new fields, but ${t.sheet.name}!${cellAddress(first.row, first.col)} and the cells beside the table hold data. Move those cells at least ${columns.length} column(s) further right (or the table elsewhere) in Excel, save, and refresh again; the file was not changed.`,
        );
      }
      let id = Math.max(0, ...t.columns.map((c) => c.id));
      for (const c of columns) t.columns.push({ name: c.name, id: ++id, spec: c, ...(c.formula ? { formula: c.formula.replace(/^=/, '') } : {}) });
      changed(t);
      dress(t, from, columns);
      return shape(t);
    },

    // Widths and panes are written with a sheet this session made; an existing sheet's are the user's and
    // its XML is kept as it is (the table there is someone's report already laid out).
    async arrangeTable(name, { widths, freezeHeader }) {
      const t = tableOf(name);
      if (!t.sheet.isNew) return;
      widths.forEach((w, i) => t.sheet.cols.set(t.col + i, { ...t.sheet.cols.get(t.col + i), width: w }));
      if (freezeHeader) t.sheet.frozenRows = t.row + 1;
    },

    async writeRows(name, offset, rows, columns = 0): Promise<WriteStats> {
      const t = tableOf(name);
      await scanned(t.sheet);
      if (!rows.length) return { syncs: 0, maxPayloadBytes: 0 };
      const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
      const positions = typeof columns === 'number' ? Array.from({ length: width }, (_, i) => columns + i) : columns.slice(0, width);
      const beyond = positions.find((p) => p < 0 || p >= t.columns.length);
      if (beyond !== undefined || positions.length < width) {
        throw new WorkbookError('bad-argument', `Rows of ${width} cells do not fit the ${t.columns.length} columns of ${name} (column ${beyond ?? positions.length}).`);
      }
      addBlock(t, offset, rows, positions);
      return { syncs: 1, maxPayloadBytes: 0 };
    },

    async setRowCount(name, rowCount) {
      const t = tableOf(name);
      await scanned(t.sheet);
      t.rowCount = rowCount;
      changed(t);
    },

    async deleteTable(name) {
      const t = tableOf(name);
      if (!t.isNew) throw NOT_HERE(`Deleting table ${name}`);
      changed(t);
      t.sheet.tables.splice(t.sheet.tables.indexOf(t), 1);
      state.reserved.delete(t.path);
    },

    async deleteSheet(sheet) {
      const s = sheetOf(sheet);
      if (!s.isNew) throw NOT_HERE(`Deleting sheet ${sheet}`);
      state.sheets.splice(state.sheets.indexOf(s), 1);
      state.reserved.delete(s.path);
      for (const t of s.tables) state.reserved.delete(t.path);
    },

    async updateRows(name, updates) {
      const t = tableOf(name);
      await scanned(t.sheet);
      // No await from here on, as in the memory adapter: nothing comes between finding a row and writing it.
      const index = new Map<string, number>();
      const at = (column: string) => {
        let i = index.get(column);
        if (i === undefined) index.set(column, (i = t.columns.findIndex((c) => lower(c.name) === lower(column))));
        return i;
      };
      const rows = heldRows(t);
      const out: (number | null)[] = [];
      for (const u of updates) {
        const where = Object.entries(u.where).map(([c, v]) => [at(c), blankAsNull(v)] as const);
        if (u.firstColumn < 0 || u.firstColumn + u.cells.length > t.columns.length || where.some(([i]) => i < 0)) {
          throw new WorkbookError('bad-argument', `An update of ${name} names a column the table does not have.`);
        }
        const row = rows.find(where);
        out.push(row < 0 ? null : row);
        if (row < 0) continue;
        const cells = u.cells.map((c) => c ?? null);
        addBlock(t, row, [cells], cells.map((_, k) => u.firstColumn + k));
        // The held rows take the same write, and so stay what a read of the table at its new version gives.
        rows.write(row, u.firstColumn, cells);
        rows.version = t.version;
      }
      return out;
    },

    async markCells(name, marks) {
      const t = tableOf(name);
      await scanned(t.sheet);
      for (const m of marks) {
        const c = t.columns.findIndex((x) => lower(x.name) === lower(m.column));
        if (c < 0) throw new WorkbookError('bad-argument', `Table ${name} has no column ${m.column} to mark.`);
        (t.marks ??= new Map()).set(`${m.row}:${c}`, m.kind);
      }
      t.remarked = true;
      if (!t.changed) t.rowCount = rowCountOf(t);
      changed(t);
    },

    async readRows(name, offset = 0, count) {
      const t = tableOf(name);
      return { columns: t.columns.map((c) => c.name), rows: rowsOf(t, offset, count) };
    },

    async scanRows(name, columns, visit, wanted) {
      const t = tableOf(name);
      const total = t.changed ? t.rowCount : rowCountOf(t);
      const pick = columnPicker(t.columns.map((c) => c.name), columns);
      const each = (cells: readonly (Cell | undefined)[], row: number) => visit(pick(cells), row);
      if (t.blocks.length) {
        // Rows written in this session are held until the save: read with them (a write-back template,
        // never a refresh, which scans before it writes).
        (await workbook.readRows(name)).rows.forEach((r, i) => (!wanted || wanted(i)) && each(r, i));
        return total;
      }
      const inFile = Math.min(total, t.oldPhysical);
      // A whole read of a table not changed yet keeps what the save needs of the rest of the sheet, so a
      // refresh reads the sheet once more at most (for the rows that changed), not once more to save it.
      const residueOf = !wanted && !t.changed ? columns.map((c) => t.columns.findIndex((x) => x.name === c)).filter((i) => i >= 0) : undefined;
      const { residue, scan } = await scanBody(pkg, t, inFile, each, { ...(wanted ? { wanted } : {}), ...(residueOf ? { residueOf } : {}), sharedStrings: state.sharedStrings });
      if (residueOf) t.sheet.residue = residue ?? undefined;
      if (scan) t.sheet.scan ??= scan;
      for (let i = inFile; i < total; i++) if (!wanted || wanted(i)) each([], i);
      return total;
    },

    async getSetting<T>(key: string) {
      const raw = state.settings.get(key);
      if (raw === undefined) return undefined;
      // Office writes each setting as JSON; the add-in's settings hold JSON text (excel/settings.ts), so two layers.
      const outer: unknown = JSON.parse(raw);
      return (typeof outer === 'string' ? JSON.parse(outer) : outer) as T;
    },

    async setSetting(key, value) {
      if (value === undefined) state.settings.delete(key);
      else state.settings.set(key, JSON.stringify(JSON.stringify(value)));
      state.settingsChanged = true;
    },

    rowsToWrite() {
      return allTables().filter((t) => t.changed).reduce((n, t) => n + t.rowCount, 0);
    },

    saveTo(target, options = {}) {
      for (const s of state.sheets) if (!s.isNew && s.tables.some((t) => t.changed)) scanOf(s);
      return savePackage(state, target, options);
    },

    close() {
      pkg.zip.close();
    },
  };
  return workbook;
}
