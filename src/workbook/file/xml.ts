import { SaxesParser } from 'saxes';
import { FileProblem } from './problem';

/**
 * XML for the small parts of a package (workbook, relationships, tables, styles, the add-in's part): read
 * into a light tree with saxes, and changed by editing the original text around the one element or
 * attribute that changes, so everything else in the part keeps its bytes.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
  /** Where the start tag begins and where the element ends (after its end tag), in the part's text. */
  start: number;
  end: number;
  /** Where the start tag ends (after its `>`). */
  openEnd: number;
}

export function parseXml(text: string, part: string): XmlElement {
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (tag) => {
    // saxes reports the position after the tag's '>': the start is found by searching back for '<'.
    const openEnd = parser.position;
    const start = text.lastIndexOf('<', openEnd - 1);
    const el: XmlElement = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [], text: '', start, end: openEnd, openEnd };
    stack[stack.length - 1]?.children.push(el);
    stack.push(el);
    root ??= el;
  });
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.on('closetag', () => {
    const el = stack.pop()!;
    el.end = parser.position;
  });
  try {
    parser.write(text).close();
  } catch (e) {
    throw new FileProblem('not-a-workbook', `The part ${part} is not well-formed XML (${(e as Error).message.split('\n')[0]}): the file is damaged.`);
  }
  if (!root) throw new FileProblem('not-a-workbook', `The part ${part} is empty: the file is damaged.`);
  return root;
}

/** The local name, without a namespace prefix. */
export const local = (name: string): string => name.slice(name.indexOf(':') + 1);

export const child = (el: XmlElement, name: string): XmlElement | undefined => el.children.find((c) => local(c.name) === name);
export const childrenOf = (el: XmlElement, name: string): XmlElement[] => el.children.filter((c) => local(c.name) === name);
/** An attribute by local name (r:id and id are told apart by their prefix only when asked with it). */
export const attr = (el: XmlElement, name: string): string | undefined =>
  el.attrs[name] ?? Object.entries(el.attrs).find(([k]) => !name.includes(':') && !k.includes(':') && k === name)?.[1];
/** The relationship id attribute (r:id, whatever the prefix). */
export const relId = (el: XmlElement): string | undefined => Object.entries(el.attrs).find(([k]) => k.endsWith(':id'))?.[1];

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeXml = (s: string): string => s.replace(/[&<>"]/g, (c) => ESC[c]!);

/** XML 1.0 refuses most control characters even escaped; Excel writes them as _xHHHH_. */
export function escapeCellText(s: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_x[0-9a-fA-F]{4}_/.test(s)
    ? // eslint-disable-next-line no-control-regex
      s.replace(/_(x[0-9a-fA-F]{4}_)|[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, (m, lit: string | undefined) =>
        lit ? `_x005F_${lit}` : `_x${m.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
      )
    : s;
  return escapeXml(safe);
}

/** The inverse of escapeCellText's _xHHHH_ step, for text read from cells. */
export const unescapeCellText = (s: string): string =>
  s.includes('_x') ? s.replace(/_x([0-9a-fA-F]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : s;

export const decodeEntities = (s: string): string =>
  s.includes('&')
    ? s.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (_, e: string) =>
        e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
      )
    : s;

/** Sets (or adds) an attribute in a start tag's text, leaving the rest of the tag as it was. */
export function setAttr(tag: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*)("[^"]*"|'[^']*')`);
  if (re.test(tag)) return tag.replace(re, `$1"${escapeXml(value)}"`);
  const close = tag.endsWith('/>') ? tag.length - 2 : tag.length - 1;
  return `${tag.slice(0, close)} ${name}="${escapeXml(value)}"${tag.slice(close)}`;
}

/** Applies edits (ranges of the original text and what replaces them) from the end backwards. */
export function splice(text: string, edits: { start: number; end: number; with: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.with + out.slice(e.end);
  return out;
}

export const startTag = (text: string, el: XmlElement): string => text.slice(el.start, el.openEnd);
