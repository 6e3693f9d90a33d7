import { columnIndex } from '../address';
import { FileProblem } from './problem';

const damaged = (what: string) => new FileProblem('not-a-workbook', `A worksheet of the file ${what}: the file is damaged. Open it in Excel, save it, and try again.`);

/**
 * A worksheet part read as it inflates: the text before the rows (up to and with `<sheetData>`), each
 * `<row>` element, and the text after the rows. Rows are cut by text search rather than a full XML parse:
 * inside `<sheetData>` Office writes only `<row>` and `<c>` elements whose text content is escaped, so
 * `<` always starts a tag. A sheet of a million rows goes through in pieces, never whole.
 */
export type SheetPiece = { kind: 'head'; text: string } | { kind: 'row'; index: number; text: string } | { kind: 'tail'; text: string };

/**
 * Cuts a worksheet's text into pieces as it arrives: `push` each piece of text and take the pieces it
 * completes, then `end`. One splitter for a sheet read at once (sheetPieces) and one read as it inflates
 * off the main thread (sheetPiecesAsync).
 */
class PieceSplitter {
  private buf = '';
  private pos = 0;
  private state: 'head' | 'rows' | 'tail' = 'head';
  private lastRow = -1;

  *push(text: string): Generator<SheetPiece> {
    this.buf = this.buf.slice(this.pos) + text;
    this.pos = 0;
    yield* this.cut(false);
  }

  *end(): Generator<SheetPiece> {
    yield* this.cut(true);
    if (this.state === 'head') throw damaged('has no cell data (sheetData)');
    if (this.state === 'rows') throw damaged('ends in the middle of its rows');
    yield { kind: 'tail', text: this.buf.slice(this.pos) };
  }

  /** The pieces complete in the text so far; `ended`: no more text comes. */
  private *cut(ended: boolean): Generator<SheetPiece> {
    const buf = this.buf;
    for (;;) {
      if (this.state === 'head') {
        const at = buf.indexOf('<sheetData', this.pos);
        const close = at >= 0 ? buf.indexOf('>', at) : -1;
        if (close < 0) return;
        const selfClosed = buf[close - 1] === '/';
        // An empty <sheetData/> is opened here and closed in the tail, so every head ends with <sheetData>.
        yield { kind: 'head', text: buf.slice(this.pos, at) + '<sheetData>' };
        this.pos = close + 1;
        if (selfClosed) {
          this.buf = '</sheetData>' + buf.slice(this.pos);
          this.pos = 0;
          this.state = 'tail';
          return;
        }
        this.state = 'rows';
        continue;
      }
      if (this.state === 'tail') return;
      const lt = buf.indexOf('<', this.pos);
      if (lt < 0 || lt + 5 > buf.length) return;
      if (buf.startsWith('</sheetData', lt)) {
        this.state = 'tail';
        this.pos = lt;
        return;
      }
      const tagEnd = buf.indexOf('>', lt);
      if (tagEnd < 0) {
        if (ended) throw damaged('ends in the middle of a row');
        return;
      }
      let end: number;
      if (buf[tagEnd - 1] === '/') end = tagEnd + 1;
      else {
        const close = buf.indexOf('</row>', tagEnd);
        if (close < 0) {
          if (ended) throw damaged('ends in the middle of a row');
          return;
        }
        end = close + 6;
      }
      this.lastRow = rowNumber(buf, lt, tagEnd) ?? this.lastRow + 1;
      yield { kind: 'row', index: this.lastRow, text: buf.slice(lt, end) };
      this.pos = end;
    }
  }
}

/** The 0-based row of a `<row>` start tag text[lt, tagEnd) from its `r` attribute; undefined without one. */
function rowNumber(text: string, lt: number, tagEnd: number): number | undefined {
  let at = text.indexOf('r="', lt);
  while (at >= 0 && at < tagEnd && !/\s/.test(text[at - 1]!)) at = text.indexOf('r="', at + 3);
  if (at < 0 || at > tagEnd) return undefined;
  let n = 0;
  for (let i = at + 3; ; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return n - 1;
    n = n * 10 + d;
  }
}

export function* sheetPieces(chunks: Iterable<string>): Generator<SheetPiece> {
  const splitter = new PieceSplitter();
  for (const text of chunks) yield* splitter.push(text);
  yield* splitter.end();
}

export async function* sheetPiecesAsync(chunks: AsyncIterable<string>): AsyncGenerator<SheetPiece> {
  const splitter = new PieceSplitter();
  for await (const text of chunks) yield* splitter.push(text);
  yield* splitter.end();
}

/** A cell of a row as written: its column and its XML, kept as it was when the cell is not changed. */
export interface RawCell {
  col: number;
  xml: string;
}

/** The attributes of a `<row>` element's start tag, without `r` and `spans` (which a rewrite sets). */
export function rowAttrs(text: string): string {
  const tagEnd = text.indexOf('>');
  return text
    .slice(4, text[tagEnd - 1] === '/' ? tagEnd - 1 : tagEnd)
    .replace(/\s(r|spans)="[^"]*"/g, '')
    .trimEnd();
}

/**
 * Whether a `<row>` element's start tag says nothing a rewritten row would lose: besides `r` and `spans`,
 * only what an application writes on every row and works out again (Excel's `x14ac:dyDescent`, a font
 * metric; a height `ht` that is not custom) and flags at their defaults (LibreOffice writes
 * `customFormat="false" hidden="false" customHeight="false" outlineLevel="0" collapsed="false"`).
 */
export function plainRow(text: string): boolean {
  // The row this adapter, Excel without heights and openpyxl write: `r` alone, told without a regex.
  if (text.startsWith('<row r="')) {
    let i = 8;
    while (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (i > 8 && text.charCodeAt(i) === 34 && (text.charCodeAt(i + 1) === 62 || (text.charCodeAt(i + 1) === 47 && text.charCodeAt(i + 2) === 62))) return true;
  }
  const tag = text.slice(4, text.indexOf('>'));
  const custom = /\scustomHeight="(1|true)"/.test(tag);
  for (const m of tag.matchAll(/\s([\w:.-]+)="([^"]*)"/g)) {
    const [, name, value] = m;
    if (name === 'r' || name === 'spans' || name === 'x14ac:dyDescent' || (name === 'ht' && !custom)) continue;
    if (/^(customFormat|hidden|customHeight|collapsed|thickTop|thickBot|ph)$/.test(name!) && (value === '0' || value === 'false')) continue;
    if (name === 'outlineLevel' && value === '0') continue;
    return false;
  }
  return true;
}

/**
 * Whether every cell of a `<row>` element lies in columns [from, from + width), told from its first and
 * last cell alone (cells are in column order); false when a cell has no `r` to tell by.
 */
export function cellsWithin(text: string, from: number, width: number): boolean {
  const first = text.indexOf('<c');
  if (first < 0) return true;
  const last = text.lastIndexOf('<c');
  if (!text.startsWith('<c r="', first) || !text.startsWith('<c r="', last)) return false;
  return refColumn(text, first + 6) >= from && refColumn(text, last + 6) < from + width;
}

/**
 * The 0-based column of the cell reference starting at text[at] (its letters, at most three), -1 for none.
 * A function of its own, not a closure in cellsWithin: run by tsx (keepNames) every closure made is named
 * by a call, and cellsWithin runs once a row of a table's scan.
 */
function refColumn(text: string, at: number): number {
  let n = 0;
  for (let i = at; i < at + 3; i++) {
    const ch = text.charCodeAt(i);
    if (ch < 65 || ch > 90) break;
    n = n * 26 + (ch - 64);
  }
  return n - 1;
}

/** The start tag's attributes (without `r` and `spans`) and the cells of a `<row>` element. */
export function splitRow(text: string): { attrs: string; cells: RawCell[] } {
  const tagEnd = text.indexOf('>');
  const selfClosed = text[tagEnd - 1] === '/';
  const attrs = rowAttrs(text);
  const cells: RawCell[] = [];
  if (selfClosed) return { attrs, cells };
  let pos = tagEnd + 1;
  let col = -1;
  for (;;) {
    const lt = text.indexOf('<c', pos);
    if (lt < 0) break;
    const next = text[lt + 2];
    if (next !== ' ' && next !== '>' && next !== '/') {
      pos = lt + 2;
      continue;
    }
    const end = text.indexOf('>', lt);
    const close = text[end - 1] === '/' ? end + 1 : text.indexOf('</c>', end) + 4;
    const xml = text.slice(lt, close);
    const r = /\sr="([A-Z]+)\d+"/.exec(xml.slice(0, end - lt));
    col = r ? columnIndex(r[1]!) : col + 1;
    cells.push({ col, xml });
    pos = close;
  }
  return { attrs, cells };
}

/** The `s` (style) attribute of a cell's XML, 0 when absent. */
export const styleOf = (xml: string): number => {
  const m = /^<c\b[^>]*?\ss="(\d+)"/.exec(xml);
  return m ? Number(m[1]) : 0;
};
