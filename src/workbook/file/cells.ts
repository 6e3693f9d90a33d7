import { decodeEntities, escapeCellText, unescapeCellText } from './xml';
import type { Cell } from '../port';

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
