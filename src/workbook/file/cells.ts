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
  const space = /^\s|\s$|\n/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${escapeCellText(text)}</t></is></c>`;
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

/** The value of an attribute in a start tag text[from, end), or null; attribute names here are unique and plain. */
function attrIn(text: string, name: string, from: number, end: number): string | null {
  const at = text.indexOf(` ${name}="`, from);
  if (at < 0 || at >= end) return null;
  const start = at + name.length + 3;
  return text.slice(start, text.indexOf('"', start));
}

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
    const ref = attrIn(text, 'r', lt, end);
    if (ref) {
      let n = 0;
      for (let i = 0; i < ref.length; i++) {
        const ch = ref.charCodeAt(i);
        if (ch < 65) break;
        n = n * 26 + ((ch & ~32) - 64);
      }
      col = n - 1;
    } else col++;
    const selfClosed = text.charCodeAt(end - 1) === 47;
    const close = selfClosed ? end - 2 : text.indexOf('</c>', end);
    pos = selfClosed ? end + 1 : close + 4;
    if (keep && col >= from && col < from + width && keep.columns[col - from]) keep.xml.push(text.slice(lt, pos));
    if (selfClosed || col < from || col >= from + width) continue;
    const type = attrIn(text, 't', lt, end) ?? 'n';
    if (type === 'inlineStr') {
      out[col - from] = stringItemText(text.slice(end + 1, close));
      continue;
    }
    const v0 = text.indexOf('<v>', end);
    if (v0 < 0 || v0 > close) continue;
    const v = text.slice(v0 + 3, text.indexOf('</v>', v0));
    switch (type) {
      case 's':
        out[col - from] = sharedStrings()[Number(v)] ?? null;
        break;
      case 'b':
        out[col - from] = v === '1';
        break;
      case 'str':
      case 'e':
        out[col - from] = unescapeCellText(decodeEntities(v));
        break;
      default:
        out[col - from] = Number(v);
    }
  }
}
