import * as xml from './xml';
import type { Cell } from '../port';

// Copied into this module's own constants: under the CommonJS the CLI runs as, an imported binding is read
// through a getter on every call, and a table's scan calls these once a cell (a third of rowValues' time on
// 200,000 rows).
const { decodeEntities, escapeCellText, unescapeCellText } = xml;

/**
 * One cell as worksheet XML, and back. New text goes in as an inline string (`t="inlineStr"`), which
 * every reader takes (Excel turns it into a shared string when it next saves): the shared string table
 * then never has to be read or rewritten. Text in a cell is never a formula in the file format (formulas
 * live in `<f>`), so data starting with = + - @ stays inert whatever the column's format; the leading
 * quote that the row converter adds for Excel, where typed text can turn into a formula, is dropped here.
 */
export function cellXml(ref: string, value: Cell, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (value === null || value === '') return style ? `<c r="${ref}"${s}/>` : '';
  if (typeof value === 'number') {
    return Number.isFinite(value) ? `<c r="${ref}"${s}><v>${value}</v></c>` : `<c r="${ref}"${s} t="e"><v>#NUM!</v></c>`;
  }
  if (typeof value === 'boolean') return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
  const text = value.length > 1 && value[0] === "'" && /^[=+\-@]/.test(value.slice(1)) ? value.slice(1) : value;
  // Most text needs neither escapes nor xml:space: told by one look at its characters, not three regexes.
  if (plainText(text)) return `<c r="${ref}"${s} t="inlineStr"><is><t>${text}</t></is></c>`;
  const space = /^\s|\s$|\n/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${escapeCellText(text)}</t></is></c>`;
}

/**
 * Whether text goes into a cell as it is: no character that escapeCellText changes (& < > ", control
 * characters, U+FFFE and U+FFFF, and `_`, which may start an _xHHHH_), and no white space at either end
 * (where \s, which also takes Unicode spaces, is asked only for a character outside printable ASCII).
 */
function plainText(text: string): boolean {
  const n = text.length;
  if (!n) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x26 || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x5f || c >= 0xfffe) return false;
  }
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(n - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f;
}

export const formulaCellXml = (ref: string, formula: string, style: number): string =>
  `<c r="${ref}"${style ? ` s="${style}"` : ''}><f>${escapeCellText(formula.replace(/^=/, ''))}</f></c>`;

/** The text of every <t> in a string item (a plain one, or the runs of rich text; phonetic runs left out). */
export function stringItemText(xml: string): string {
  const withoutPhonetic = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  const re = /<t\b[^>]*?(?:\/>|>([\s\S]*?)<\/t>)/g;
  for (let m = re.exec(withoutPhonetic); m; m = re.exec(withoutPhonetic)) out += m[1] ?? '';
  return unescapeCellText(decodeEntities(out));
}

/** A cell's value as the port gives it: formulas give their stored result, as Excel's values do. */
export function cellValue(xml: string, sharedStrings: () => readonly string[]): Cell {
  const tagEnd = xml.indexOf('>');
  if (xml[tagEnd - 1] === '/') return null;
  const type = /\st="([a-zA-Z]+)"/.exec(xml.slice(0, tagEnd))?.[1] ?? 'n';
  if (type === 'inlineStr') return stringItemText(xml.slice(tagEnd + 1));
  const v = /<v>([\s\S]*?)<\/v>/.exec(xml)?.[1];
  if (v === undefined) return null;
  switch (type) {
    case 's':
      return sharedStrings()[Number(v)] ?? null;
    case 'b':
      return v === '1';
    case 'str':
    case 'e':
      return unescapeCellText(decodeEntities(v));
    default:
      return Number(v);
  }
}

/**
 * Where the value of an attribute starts in a start tag text[from, end) (after its `name="`), or -1;
 * attribute names here are unique and plain. A position, not the value: a scan reads two attributes of
 * every cell, 3.4 million small strings on a 200,000-row table.
 */
function attrAt(text: string, name: string, from: number, end: number): number {
  const at = text.indexOf(name, from);
  return at < 0 || at >= end ? -1 : at + name.length;
}

/** A cell's type (its `t`), as rowValues tells them apart. */
const enum Type {
  Number,
  Inline,
  Shared,
  Bool,
  Text,
}

function typeAt(text: string, at: number): Type {
  if (at < 0) return Type.Number;
  if (text.startsWith('inlineStr"', at)) return Type.Inline;
  if (text.startsWith('s"', at)) return Type.Shared;
  if (text.startsWith('b"', at)) return Type.Bool;
  if (text.startsWith('str"', at) || text.startsWith('e"', at)) return Type.Text;
  return Type.Number;
}

/** `</t></is>`: the end of a one-run inline string. */
const RUN_END = '</t></is>';

/**
 * The values of one `<row>` element's cells in columns [from, from + width), written into `out` (cleared
 * first): what `splitRow` and `cellValue` give, read in one walk over the text without making an object
 * per cell. A scan of a 200,000-row sheet spends its time here. With `keep`, the XML of the cells in the
 * columns it marks (offsets from `from`) is added to `keep.xml`.
 */
export function rowValues(text: string, from: number, width: number, out: Cell[], sharedStrings: () => readonly string[], keep?: { columns: Uint8Array; xml: string[] }): void {
  out.fill(null);
  let pos = text.indexOf('>') + 1;
  if (text.charCodeAt(pos - 2) === 47) return;
  let col = -1;
  for (;;) {
    const lt = text.indexOf('<c', pos);
    if (lt < 0) return;
    const next = text.charCodeAt(lt + 2);
    if (next !== 32 && next !== 62 && next !== 47) {
      pos = lt + 2;
      continue;
    }
    const end = text.indexOf('>', lt);
    const ref = attrAt(text, ' r="', lt, end);
    if (ref >= 0 && text.charCodeAt(ref) !== 34) {
      let n = 0;
      for (let i = ref; ; i++) {
        const ch = text.charCodeAt(i);
        if (ch < 65 || ch === 34) break;
        n = n * 26 + ((ch & ~32) - 64);
      }
      col = n - 1;
    } else col++;
    const selfClosed = text.charCodeAt(end - 1) === 47;
    const close = selfClosed ? end - 2 : text.indexOf('</c>', end);
    pos = selfClosed ? end + 1 : close + 4;
    if (keep && col >= from && col < from + width && keep.columns[col - from]) keep.xml.push(text.slice(lt, pos));
    if (selfClosed || col < from || col >= from + width) continue;
    const type = typeAt(text, attrAt(text, ' t="', lt, end));
    if (type === Type.Inline) {
      // The common inline string, one run (<is><t>text</t></is>), is cut out without stringItemText's regex.
      const run = end + 8;
      const endOfRun = close - RUN_END.length;
      if (text.startsWith('<is><t>', end + 1) && text.indexOf('<', run) === endOfRun && text.startsWith(RUN_END, endOfRun)) {
        out[col - from] = unescapeCellText(decodeEntities(text.slice(run, endOfRun)));
      } else out[col - from] = stringItemText(text.slice(end + 1, close));
      continue;
    }
    const v0 = text.indexOf('<v>', end);
    if (v0 < 0 || v0 > close) continue;
    const v = text.slice(v0 + 3, text.indexOf('</v>', v0));
    switch (type) {
      case Type.Shared:
        out[col - from] = sharedStrings()[Number(v)] ?? null;
        break;
      case Type.Bool:
        out[col - from] = v === '1';
        break;
      case Type.Text:
        out[col - from] = unescapeCellText(decodeEntities(v));
        break;
      default:
        out[col - from] = Number(v);
    }
  }
}
