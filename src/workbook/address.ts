/** A1 addresses: 0-based row and column positions to and from Excel's letters and numbers. */

export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

export function columnLetters(col: number): string {
  let s = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** "B3" (also "$B$3", or the first cell of "B3:D9", with or without a sheet) → { row: 2, col: 1 }. */
export function parseCell(address: string): { row: number; col: number } {
  const local = address.slice(address.lastIndexOf('!') + 1).split(':')[0]!.replace(/\$/g, '');
  const m = /^([A-Za-z]{1,3})(\d{1,7})$/.exec(local);
  if (!m) throw new Error(`not a cell address: ${address}`);
  const row = Number(m[2]) - 1;
  const col = columnIndex(m[1]!);
  if (row < 0 || row >= MAX_ROWS || col >= MAX_COLUMNS) throw new Error(`cell address out of the sheet: ${address}`);
  return { row, col };
}

/**
 * The row number Excel shows for a table's first body row, given the table's header cell ("B3" → 4).
 * Messages name rows by this number, the header row counted, so "Row 7" is the row the user sees.
 */
export const firstBodyRow = (topLeft: string): number => parseCell(topLeft).row + 2;

export const cellAddress = (row: number, col: number): string => `${columnLetters(col)}${row + 1}`;

/** The A1 address of rows [row, row + rows) × columns [col, col + cols); rows and cols at least 1. */
export const rangeAddress = (row: number, col: number, rows: number, cols: number): string =>
  rows === 1 && cols === 1 ? cellAddress(row, col) : `${cellAddress(row, col)}:${cellAddress(row + rows - 1, col + cols - 1)}`;

/** A sheet name quoted for use in a formula or a range reference. */
export const quoteSheet = (sheet: string): string => `'${sheet.replace(/'/g, "''")}'`;

/**
 * Sheet!A1 as Excel shows it to a person: the sheet name quoted only where a formula needs it (spaces,
 * punctuation, a leading digit, a name that reads as a cell), `Risks!C5` but `'Risk register'!C5`.
 */
export function sheetCell(sheet: string, row: number, col: number): string {
  const plain = /^[A-Za-z_\u00C0-\uFFFF][\w.\u00C0-\uFFFF]*$/.test(sheet) && !/^[A-Za-z]{1,3}\d+$/.test(sheet) && !/^[Rr]\d*[Cc]\d*$/.test(sheet);
  return `${plain ? sheet : quoteSheet(sheet)}!${cellAddress(row, col)}`;
}
