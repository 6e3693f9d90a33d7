import type { MarkKind } from '../port';
import { parseCell } from '../address';
import type { Cell, ColumnSpec } from '../port';
import { NUMBER_FORMAT } from '../formats';
import { cellValue, rowValues, stringItemText } from './cells';
import type { Package } from './package';
import { FileProblem } from './problem';
import { cellsWithin, plainRow, sheetPieces, sheetPiecesAsync, splitRow, styleOf, type SheetPiece } from './rows';
import { attr, child, childrenOf, parseXml, relId } from './xml';

/** What the adapter knows of a saved workbook: sheets, tables, pivot caches, settings; read once on open. */

export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const REL_WORKSHEET = `${REL}/worksheet`;
export const REL_TABLE = `${REL}/table`;
export const CT_WORKSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
export const CT_TABLE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml';

/** Rows written in this session, held until the save: table column c of body row `offset + i` is `rows[i][at[c]]` where at[c] >= 0. */
export interface Block {
  offset: number;
  at: Int32Array;
  rows: readonly (readonly Cell[])[];
}

/**
 * A session of many small writes saved again and again (a post's journal): what one save leaves the next.
 * `index`: which block last wrote each cell of a row (`cells`), and the last block that covers each row
 * (`last`), for blocks [0, seen) of `blocks` (blocks are only ever added). `rows`: each body row as the
 * last save wrote it, with the last block over it then, made under the table-wide inputs `key` says.
 */
export interface SavedRows {
  index: { blocks: readonly Block[]; seen: number; cells: Map<number, Int32Array>; last: Map<number, number> };
  key: string;
  rows: Map<number, { last: number; xml: string }>;
  chars: number;
}

export interface ColumnModel {
  name: string;
  id: number;
  formula?: string;
  /** For columns added in this session: how to dress their cells. */
  spec?: ColumnSpec;
}

export interface TableModel {
  path: string;
  isNew: boolean;
  id: string;
  name: string;
  sheet: SheetModel;
  row: number;
  col: number;
  columns: ColumnModel[];
  oldWidth: number;
  /** Body rows in the file as written (an empty table keeps one blank row). */
  oldPhysical: number;
  rowCount: number;
  totals: number;
  blocks: Block[];
  changed: boolean;
  /**
   * Counts the changes made to the table in this session (fileWorkbook.ts `changed`, the one place that makes
   * them): rows the adapter keeps in memory between calls are good only while this is what it was.
   */
  version: number;
  /** What saves of this session keep between them (save.ts): the blocks indexed by row, the rows last written. */
  saved?: SavedRows;
  /** Fills of marked cells (write-back problems and results), by `bodyRow:column`; 'none' takes a fill off. */
  marks?: Map<string, MarkKind>;
  /**
   * Marked in this session (a validation or a refresh's highlights, which set every mark that applies): the
   * save takes the marks' fills off every other cell of the body. The list of cells to clear that the
   * add-in keeps in its settings is gone from a file an outside program saved (openpyxl drops the part),
   * and the fills are the add-in's own colours on a plain cell, so nothing a person chose is touched.
   */
  remarked?: boolean;
}

export interface SheetScan {
  protected: boolean;
  password: boolean;
  /** Per table: the style of each column's first body cell, and of its header cells. */
  bodyStyles: Map<TableModel, (number | undefined)[]>;
  headerStyles: Map<TableModel, (number | undefined)[]>;
  /** Per table with a total row: each total row's cells (XML) by table column, to move under the new last body row. */
  totalRows: Map<TableModel, Map<number, string>[]>;
  /** Tables whose one body row is blank: Excel's empty table. */
  blank: Set<TableModel>;
  /** Tables with a formula somewhere in their rows. */
  formulas: Set<TableModel>;
  /** The first row's values by column (the lookup sheet's list headers). */
  firstRow: Map<number, Cell>;
}

/**
 * A sheet as a whole read of one table's rows left it, less the cells of the columns that read asked for
 * (a refresh rewrites those): what a save streams instead of reading the sheet again, when every cell
 * left out is written anew. A row with anything more (a height, a style, a cell beside the table) is kept
 * whole.
 */
export interface Residue {
  table: TableModel;
  pieces: SheetPiece[];
  /** The table columns (0-based) whose body cells were left out. */
  columns: number[];
}

/** Past this much text kept, the residue is dropped and a save reads the sheet again (mostly loose cells). */
const RESIDUE_LIMIT = 32 << 20;

export interface SheetModel {
  name: string;
  path: string;
  hidden: boolean;
  isNew: boolean;
  tables: TableModel[];
  loose: Map<number, Map<number, Cell>>;
  /** New sheets only: column widths (points) and hidden columns, data validation lists. */
  cols: Map<number, { width?: number; hidden?: boolean }>;
  /** New sheets only: rows frozen at the top (a loaded table's header). */
  frozenRows?: number;
  validations: { sqref: string; source: string; allowOther: boolean }[];
  scan?: SheetScan;
  /** Whether the sheet is protected, read alone (sheetProtected) before the scan was needed; null: not told so. */
  protection?: boolean | null;
  residue?: Residue;
  /** The sheet's pieces as read, kept for the saves of a session of many small writes (the file read does not change). */
  pieces?: SheetPiece[];
}

export interface PivotCacheModel {
  path: string;
  sourceName?: string;
  sourceSheet?: string;
  sourceRef?: string;
}

/** Number format of a column added in this session; an existing column keeps its cells' style. */
export const formatOf = (c: ColumnModel): string => NUMBER_FORMAT[c.spec?.format ?? 'general'];

export function readSheets(pkg: Package, workbookPath: string): SheetModel[] {
  const wb = parseXml(pkg.text(workbookPath), workbookPath);
  const rels = new Map(pkg.rels(workbookPath).map((r) => [r.id, r]));
  const sheets = child(wb, 'sheets');
  if (!sheets) throw new FileProblem('not-a-workbook', 'The workbook part lists no sheets: the file is damaged.');
  return childrenOf(sheets, 'sheet').flatMap((s) => {
    const rel = rels.get(relId(s) ?? '');
    // Chart sheets and dialog sheets have no cells and no tables.
    if (!rel || !rel.type.endsWith('/worksheet')) return [];
    return [
      {
        name: attr(s, 'name') ?? '',
        path: rel.target,
        hidden: (attr(s, 'state') ?? 'visible') !== 'visible',
        isNew: false,
        tables: [],
        loose: new Map(),
        cols: new Map(),
        validations: [],
      },
    ];
  });
}

export function readTables(pkg: Package, sheet: SheetModel): TableModel[] {
  return pkg
    .rels(sheet.path)
    .filter((r) => r.type === REL_TABLE && !r.external && pkg.has(r.target))
    .map((r) => {
      const root = parseXml(pkg.text(r.target), r.target);
      const ref = attr(root, 'ref') ?? 'A1';
      const [a, b = a] = ref.split(':');
      const start = parseCell(a!);
      const end = parseCell(b!);
      const totals = Number(attr(root, 'totalsRowCount') ?? 0);
      const columns = childrenOf(child(root, 'tableColumns') ?? root, 'tableColumn').map((c) => {
        const f = child(c, 'calculatedColumnFormula');
        return { name: attr(c, 'name') ?? '', id: Number(attr(c, 'id') ?? 0), ...(f ? { formula: f.text } : {}) };
      });
      const physical = end.row - start.row - totals;
      return {
        path: r.target,
        isNew: false,
        id: attr(root, 'id') ?? '',
        name: attr(root, 'displayName') ?? attr(root, 'name') ?? '',
        sheet,
        row: start.row,
        col: start.col,
        columns,
        oldWidth: columns.length,
        oldPhysical: physical,
        rowCount: physical,
        totals,
        blocks: [],
        changed: false,
        version: 0,
      };
    });
}

export function readPivotCaches(pkg: Package, workbookPath: string): PivotCacheModel[] {
  return pkg
    .rels(workbookPath)
    .filter((r) => r.type.endsWith('/pivotCacheDefinition') && pkg.has(r.target))
    .map((r) => {
      const cacheSource = child(parseXml(pkg.text(r.target), r.target), 'cacheSource');
      const source = cacheSource && child(cacheSource, 'worksheetSource');
      const name = source && attr(source, 'name');
      const sheet = source && attr(source, 'sheet');
      const ref = source && attr(source, 'ref');
      return { path: r.target, ...(name ? { sourceName: name } : {}), ...(sheet ? { sourceSheet: sheet } : {}), ...(ref ? { sourceRef: ref } : {}) };
    });
}

export function readSharedStrings(pkg: Package, workbookPath: string): string[] {
  const rel = pkg.rels(workbookPath).find((r) => r.type.endsWith('/sharedStrings'));
  if (!rel || !pkg.has(rel.target)) return [];
  const text = pkg.text(rel.target);
  const out: string[] = [];
  const re = /<si>([\s\S]*?)<\/si>|<si\/>/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ? stringItemText(m[1]) : '');
  return out;
}

/**
 * One pass over a sheet for what the port needs to know before writing: protection, styles, blank tables.
 * `scanSheetAsync` reads it inflating off the main thread; both take each piece through `scanPiece`.
 */
export function scanSheet(pkg: Package, sheet: SheetModel, sharedStrings: () => readonly string[]): SheetScan {
  const scan = emptyScan();
  if (sheet.isNew || !pkg.has(sheet.path)) return scan;
  for (const piece of sheetPieces(pkg.zip.textChunks(sheet.path))) scanPiece(scan, piece, sheet, sharedStrings);
  return scanned(scan, sheet);
}

export async function scanSheetAsync(pkg: Package, sheet: SheetModel, sharedStrings: () => readonly string[]): Promise<SheetScan> {
  const scan = emptyScan();
  if (sheet.isNew || !pkg.has(sheet.path)) return scan;
  for await (const piece of sheetPiecesAsync(pkg.zip.textChunksAsync(sheet.path))) scanPiece(scan, piece, sheet, sharedStrings);
  return scanned(scan, sheet);
}

const emptyScan = (): SheetScan => ({ protected: false, password: false, bodyStyles: new Map(), headerStyles: new Map(), totalRows: new Map(), blank: new Set(), formulas: new Set(), firstRow: new Map() });

function scanned(scan: SheetScan, sheet: SheetModel): SheetScan {
  for (const t of sheet.tables) if (t.oldPhysical === 1 && !scan.bodyStyles.has(t)) scan.blank.add(t);
  return scan;
}

/** What the text after a sheet's rows (from `</sheetData>` on) says of its protection. */
function protectionIn(tail: string): Pick<SheetScan, 'protected' | 'password'> {
  const protection = /<sheetProtection\b[^>]*>/.exec(tail)?.[0];
  return { protected: !!protection && /\ssheet="(1|true)"/.test(protection), password: !!protection && /\s(password|hashValue)="/.test(protection) };
}

const SHEET_DATA = Buffer.from('sheetData');

/** Where `</sheetData>` or `<sheetData/>` starts in b (wholly inside it), or -1. */
function rowsEnd(b: Buffer): number {
  for (let i = b.indexOf(SHEET_DATA); i >= 0; i = b.indexOf(SHEET_DATA, i + 1)) {
    if (b[i - 2] === 0x3c && b[i - 1] === 0x2f && b[i + 9] === 0x3e) return i - 2;
    if (b[i - 1] === 0x3c && b[i + 9] === 0x2f && b[i + 10] === 0x3e) return i - 1;
  }
  return -1;
}

/**
 * Whether the sheet is protected, as its scan says, read without the scan: the bytes inflated (off the
 * main thread) are searched for the end of the rows and only the text after it is decoded; null when no
 * end is found (a sheet written unlike Office's: the scan then tells). A refresh asks before it downloads,
 * and reads the rows with the scan (scanBody) once the download is complete, so a big sheet's rows are cut
 * into text once, not twice. Inside `<sheetData>` every `<` starts a tag, so the first `</sheetData>` (or
 * `<sheetData/>`) is where the rows end.
 */
export async function sheetProtected(pkg: Package, sheet: SheetModel): Promise<boolean | null> {
  if (sheet.isNew || !pkg.has(sheet.path)) return false;
  const MARK = 12;
  let carry = Buffer.alloc(0);
  const tail: Buffer[] = [];
  for await (const bytes of pkg.zip.bytesAsync(sheet.path)) {
    const out = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (tail.length) {
      tail.push(out);
      continue;
    }
    // An end that straddles two pieces lies wholly in the last piece's end and this one's start.
    const seam = Buffer.concat([carry, out.subarray(0, MARK - 1)]);
    const s = rowsEnd(seam);
    const i = s >= 0 ? -1 : rowsEnd(out);
    if (s >= 0) tail.push(seam.subarray(s, carry.length), out);
    else if (i >= 0) tail.push(out.subarray(i));
    else carry = Buffer.from((out.length >= MARK - 1 ? out : seam).subarray(-(MARK - 1)));
  }
  return tail.length ? protectionIn(Buffer.concat(tail).toString('utf8')).protected : null;
}

function scanPiece(scan: SheetScan, piece: SheetPiece, sheet: SheetModel, sharedStrings: () => readonly string[]): void {
  if (piece.kind === 'tail') {
    Object.assign(scan, protectionIn(piece.text));
    return;
  }
  if (piece.kind !== 'row') return;
  const r = piece.index;
  if (r === 0) for (const c of splitRow(piece.text).cells) scan.firstRow.set(c.col, cellValue(c.xml, sharedStrings));
  for (const t of sheet.tables) {
    const last = t.row + t.oldPhysical;
    if (r < t.row || r > last + t.totals) continue;
    if (piece.text.includes('<f')) scan.formulas.add(t);
    if (r > last) {
      const rows = scan.totalRows.get(t) ?? Array.from({ length: t.totals }, () => new Map<number, string>());
      scan.totalRows.set(t, rows);
      for (const c of splitRow(piece.text).cells) if (c.col >= t.col && c.col < t.col + t.oldWidth) rows[r - last - 1]!.set(c.col - t.col, c.xml);
      continue;
    }
    if (r !== t.row && r !== t.row + 1) continue;
    const styles: (number | undefined)[] = new Array(t.oldWidth);
    let filled = false;
    for (const c of splitRow(piece.text).cells) {
      if (c.col < t.col || c.col >= t.col + t.oldWidth) continue;
      styles[c.col - t.col] = styleOf(c.xml);
      if (cellValue(c.xml, sharedStrings) !== null || c.xml.includes('<f')) filled = true;
    }
    if (r === t.row) scan.headerStyles.set(t, styles);
    else {
      scan.bodyStyles.set(t, styles);
      if (t.oldPhysical === 1 && !filled) scan.blank.add(t);
    }
  }
}

/** The values of a table's body rows [from, to) as the file holds them. */
export function readBody(pkg: Package, t: TableModel, from: number, to: number, sharedStrings: () => readonly string[]): Cell[][] {
  const width = t.oldWidth;
  const out: Cell[][] = Array.from({ length: Math.max(0, to - from) }, () => new Array<Cell>(width).fill(null));
  if (t.isNew || !out.length) return out;
  for (const piece of sheetPieces(pkg.zip.textChunks(t.sheet.path))) {
    if (piece.kind !== 'row') continue;
    const body = piece.index - t.row - 1;
    if (body < from) continue;
    if (body >= to) break;
    rowValues(piece.text, t.col, width, out[body - from]!, sharedStrings);
  }
  return out;
}

/**
 * Visits the table's body rows [0, count) as the file holds them, in order and one at a time, so a sheet of
 * a million rows is never held: `cells` by column offset in the table, one array reused for every row.
 * Rows the file does not write (all empty) are visited as empty; rows `wanted` rejects are passed over
 * before their cells are read. With `residueOf` (table columns), the read goes on to the end of the sheet
 * and returns its residue without those columns' body cells (see Residue), or null when it is too big,
 * and the sheet's scan (scanSheet's), taken on the way.
 */
export async function scanBody(
  pkg: Package,
  t: TableModel,
  count: number,
  visit: (cells: readonly Cell[], row: number) => void,
  options: { wanted?: (row: number) => boolean; residueOf?: readonly number[]; sharedStrings: () => readonly string[] },
): Promise<{ residue: Residue | null; scan: SheetScan | null }> {
  const { wanted, residueOf, sharedStrings } = options;
  // A whole read (residueOf) goes through every piece of the sheet: the scan a save needs is taken on the way.
  const scan: SheetScan | null = residueOf ? emptyScan() : null;
  const width = t.oldWidth;
  const cells = new Array<Cell>(width).fill(null);
  const dropped = new Set(residueOf);
  const others = { columns: Uint8Array.from({ length: width }, (_, c) => (dropped.has(c) ? 0 : 1)), xml: [] as string[] };
  let residue: SheetPiece[] | null = residueOf ? [] : null;
  let kept = 0;
  // A copy: a slice would keep the whole 64 KiB piece of text it was cut from.
  const keep = (piece: SheetPiece, text = piece.text) => {
    if (!residue) return;
    if ((kept += text.length) > RESIDUE_LIMIT) residue = null;
    else residue.push({ ...piece, text: ` ${text}`.slice(1) });
  };
  let next = 0;
  const emptyUpTo = (end: number) => {
    for (; next < end; next++) {
      if (wanted && !wanted(next)) continue;
      cells.fill(null);
      visit(cells, next);
    }
  };
  if (!t.isNew && (count > 0 || residue)) {
    for await (const piece of sheetPiecesAsync(pkg.zip.textChunksAsync(t.sheet.path))) {
      if (scan) scanPiece(scan, piece, t.sheet, sharedStrings);
      if (piece.kind !== 'row') {
        keep(piece);
        continue;
      }
      const body = piece.index - t.row - 1;
      if (body < 0 || body >= count) {
        if (residue) keep(piece);
        else if (body >= count && !scan) break;
        continue;
      }
      emptyUpTo(body);
      next = body + 1;
      if (wanted && !wanted(body) && !residue) continue;
      others.xml.length = 0;
      rowValues(piece.text, t.col, width, cells, sharedStrings, residue ? others : undefined);
      if (residue) {
        if (!plainRow(piece.text) || !cellsWithin(piece.text, t.col, width)) keep(piece);
        else if (others.xml.length) keep(piece, `<row r="${piece.index + 1}">${others.xml.join('')}</row>`);
      }
      if (!wanted || wanted(body)) visit(cells, body);
    }
  }
  emptyUpTo(count);
  return { residue: residue ? { table: t, pieces: residue, columns: [...dropped] } : null, scan: scan && !t.isNew && pkg.has(t.sheet.path) ? scanned(scan, t.sheet) : null };
}

/** Every non-empty cell's position in columns [col, col + width) from row `row` down. */
export function usedCells(pkg: Package, sheet: SheetModel, row: number, col: number, width: number, sharedStrings: () => readonly string[]): { row: number; col: number }[] {
  const out: { row: number; col: number }[] = [];
  for (const [r, cells] of sheet.loose) for (const [c, v] of cells) if (r >= row && c >= col && c < col + width && v !== null && v !== '') out.push({ row: r, col: c });
  if (sheet.isNew) return out;
  for (const piece of sheetPieces(pkg.zip.textChunks(sheet.path))) {
    if (piece.kind !== 'row' || piece.index < row) continue;
    for (const c of splitRow(piece.text).cells) {
      if (c.col < col || c.col >= col + width) continue;
      const v = cellValue(c.xml, sharedStrings);
      if ((v !== null && v !== '') || c.xml.includes('<f')) out.push({ row: piece.index, col: c.col });
    }
  }
  return out;
}
