import { MAX_COLUMNS, MAX_ROWS, cellAddress, parseCell, sheetCell } from '../workbook/address';
import { uniqueName } from '../workbook/errors';
import type { TableShape, TargetInfo, WorkbookPort } from '../workbook/port';
import { readLoadRecords } from './loadrecords';
import { Refusal } from './outcome';
import { counted } from '../words/count';

/** Where a table goes: the room on the sheet, the cells and names in the way, the table's name. */

/** Rows that fit below a header in `headerRow` (0-based). */
export const MAX_BODY_ROWS = (headerRow: number) => MAX_ROWS - headerRow - 1;
const n = (x: number) => x.toLocaleString('en-US');

/**
 * The refusal of a dataset with more rows than fit below its header row: the count, the room, and what
 * to do. The service sends no count before the rows (no paging, no total), so the count is what the
 * download counted to its end.
 */
export function tooManyRowsMessage(count: number, sheet: string, anchor: string): string {
  const header = parseCell(anchor).row;
  const room = MAX_BODY_ROWS(header);
  const what = `The dataset has ${n(count)} rows, more than the ${n(room)} that fit below ${sheet}!${anchor} (Excel's sheets end at row ${n(MAX_ROWS)}).`;
  if (count <= MAX_BODY_ROWS(0)) {
    return `${what} Select a cell in row ${n(MAX_ROWS - count)} or above, or load it into a new sheet.`;
  }
  return `${what} No sheet can hold it: take it outside the grid (Power Query into the Data Model through the relay's URL has no row limit), or ask the service's administrator for a smaller dataset.`;
}

/** Refuses, before the download, a place that cannot take the table or that holds data the user has not agreed to lose. */
export async function checkTarget(workbook: WorkbookPort, sheet: string, anchor: string, width: number, askBeforeOverwriting: boolean): Promise<TargetInfo> {
  const { col } = parseCell(anchor);
  if (col + width > MAX_COLUMNS) {
    throw new Refusal('target-refused', `A table of ${width} columns at ${sheet}!${anchor} would pass Excel's last column (XFD). Select a cell further left, or load into a new sheet.`);
  }
  const info = await workbook.inspectTarget(sheet, anchor, width);
  if (info.protected) {
    throw new Refusal('target-refused', `Sheet ${sheet} is protected, so the table cannot be written there. Unprotect it (Review > Unprotect Sheet), or load into a new sheet.`);
  }
  if (info.tables.length) {
    throw new Refusal('target-refused', `Table ${info.tables.join(', ')} is in the way: a table at ${sheet}!${anchor} would run into it as it grows. Select a cell below or beside it with free columns, or load into a new sheet.`);
  }
  if (info.used && askBeforeOverwriting) {
    throw new Refusal('target-not-empty', `Cells ${sheet}!${info.used} hold data that the table at ${anchor} would overwrite. Overwrite them, select an empty area, or load into a new sheet.`);
  }
  return info;
}

/**
 * The table's name, `tbl_<dataset>`. Table names and defined names are one namespace in Excel. A second
 * table of the same dataset (other parameters, another place) is numbered: `tbl_risk_2` says what it is.
 * Anything else holding the name is refused, because numbering around it would leave a `tbl_risk` that is
 * not the risk dataset next to a `tbl_risk_2` that is, and formulas or queries written against the name
 * would silently read the wrong data.
 */
export async function freeTableName(workbook: WorkbookPort, datasetId: string, title: string, place: TargetInfo, given?: string): Promise<string> {
  const wanted = given ?? tableNameFor(datasetId);
  const same = (n: string) => n.toLowerCase() === wanted.toLowerCase();
  const definedName = place.names.find(same);
  if (definedName) {
    throw new Refusal(
      'target-refused',
      `The workbook has a defined name ${definedName}, and Excel keeps defined names and table names in one list, so the ${title} table cannot be called ${wanted}. Rename or delete that name (Formulas > Name Manager), then load again.`,
    );
  }
  const tables = await workbook.listTables();
  const holder = tables.find((t) => same(t.name));
  if (holder && (await readLoadRecords(workbook)).get(holder.name)?.datasetId !== datasetId) {
    throw new Refusal(
      'target-refused',
      `Table ${holder.name} on sheet ${holder.sheet} is not a ${title} table loaded by this add-in, so the new table cannot take its name. Rename that table (Table Design > Table Name), then load again.`,
    );
  }
  // A name the user gave is theirs to keep: taken, it is refused rather than numbered.
  if (given && holder) throw new Refusal('target-refused', `The workbook already has a table ${holder.name} (sheet ${holder.sheet}). Give another table name, or refresh that table.`);
  const taken = new Set([...tables.map((t) => t.name), ...place.names].map((n) => n.toLowerCase()));
  return uniqueName(wanted, (n) => taken.has(n.toLowerCase()));
}

/** Excel table names: letters, digits, underscores and periods, starting with a letter or underscore. */
export function tableNameFor(datasetId: string): string {
  return `tbl_${datasetId.replace(/[^A-Za-z0-9_.]/g, '_')}`.slice(0, 250);
}

/**
 * What a refresh that grows the table would write over: non-empty cells, or another table, in the sheet
 * rows the table grows into (below its total row, which moves down with it), `width` columns wide. A
 * message naming them, or null. Excel's resize and a saved file's rows take those cells over without a
 * word, and Power Query inserts rows instead; neither may lose what a person typed below a report.
 */
export async function grownOver(workbook: WorkbookPort, table: TableShape, rows: number, width: number): Promise<string | null> {
  const growth = Math.max(rows, 1) - Math.max(table.rowCount, 1);
  if (growth <= 0) return null;
  const at = parseCell(table.topLeft);
  let first = at.row + 1 + Math.max(table.rowCount, 1);
  let place = await workbook.inspectTarget(table.sheet, cellAddress(first, at.col), width);
  // The row below the body is the table's own total row: what it would write over starts below that.
  if (place.tables.includes(table.name)) place = await workbook.inspectTarget(table.sheet, cellAddress(++first, at.col), width);
  const last = first + growth - 1;
  const found: string[] = [];
  if (place.used) {
    const [a, b = a] = place.used.split(':');
    const from = parseCell(a!);
    const to = parseCell(b!);
    if (from.row <= last) found.push(sheetCell(table.sheet, from.row, from.col) + (to.row > from.row || to.col > from.col ? `:${cellAddress(Math.min(to.row, last), to.col)}` : ''));
  }
  for (const name of place.tables.filter((n) => n !== table.name)) {
    const other = await workbook.findTable(name);
    if (other && parseCell(other.topLeft).row <= last) found.push(`table ${name}`);
  }
  if (!found.length) return null;
  return `Table ${table.name} grows by ${counted(growth, 'row')} with this refresh, down over ${found.join(' and ')}, which ${found.length > 1 ? 'hold' : 'holds'} data that would be overwritten. Move ${found.length > 1 ? 'them' : 'it'} further down (at least to row ${last + 2}), or move the table to a sheet of its own, then refresh again; nothing was changed.`;
}
