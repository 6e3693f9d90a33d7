import { columnIndex } from '../address';
import { decodeEntities, escapeXml } from './xml';

/**
 * A table's total row, moved as Excel moves it when the table grows or shrinks: it stays directly under
 * the last body row, and its cells (labels, SUBTOTAL formulas, styles) go with it.
 *
 * Formulas in it that name the table (`SUBTOTAL(109,tbl_risk[GrossImpact])`, what Excel writes for
 * Table Design > Total Row) need nothing. A formula typed with an A1 range over a whole body column
 * (`SUM(E2:E11)`) is one Excel keeps over the body as rows go in or out of the table, so its end row
 * follows the body here too. Other references are left as they are: they point where they pointed.
 */
export interface BodyRows {
  /** 0-based sheet rows of the first body row and of the last one before and after the change. */
  first: number;
  oldLast: number;
  newLast: number;
  /** The table's columns, 0-based, first and last (inclusive). */
  col0: number;
  col1: number;
}

const AREA = /(?<![A-Za-z0-9_.!$])(\$?)([A-Z]{1,3})(\$?)(\d{1,7}):(\$?)([A-Z]{1,3})(\$?)(\d{1,7})(?![A-Za-z0-9_(])/g;

/** The parts of a formula outside string literals, quoted sheet names and structured-reference brackets. */
function* codeSpans(formula: string): Generator<{ code: boolean; text: string }> {
  let at = 0;
  let i = 0;
  while (i < formula.length) {
    const ch = formula[i]!;
    if (ch !== '"' && ch !== "'" && ch !== '[') {
      i++;
      continue;
    }
    if (i > at) yield { code: true, text: formula.slice(at, i) };
    let j = i + 1;
    if (ch === '[') {
      for (let depth = 1; j < formula.length && depth > 0; j++) {
        if (formula[j] === '[') depth++;
        else if (formula[j] === ']') depth--;
        // An apostrophe escapes the next character inside a structured reference (`[Owner's '[note']`).
        else if (formula[j] === "'") j++;
      }
    } else {
      // A doubled quote is a quote inside the literal or the sheet name.
      for (; j < formula.length; j++) {
        if (formula[j] !== ch) continue;
        if (formula[j + 1] === ch) j++;
        else break;
      }
      j++;
    }
    yield { code: false, text: formula.slice(i, j) };
    at = i = j;
  }
  if (at < formula.length) yield { code: true, text: formula.slice(at) };
}

/** The formula with each A1 range over exactly a body column of the table ending at the new last body row. */
export function followBody(formula: string, body: BodyRows): string {
  if (body.newLast === body.oldLast) return formula;
  let out = '';
  for (const s of codeSpans(formula)) {
    out += !s.code
      ? s.text
      : s.text.replace(AREA, (whole, d1: string, c1: string, d2: string, r1: string, d3: string, c2: string, d4: string, r2: string) => {
          const a = columnIndex(c1);
          const b = columnIndex(c2);
          const over = a >= body.col0 && b <= body.col1 && a <= b && Number(r1) - 1 === body.first && Number(r2) - 1 === body.oldLast;
          return over ? `${d1}${c1}${d2}${r1}:${d3}${c2}${d4}${body.newLast + 1}` : whole;
        });
  }
  return out;
}

/**
 * A cell of the total row, as XML, written at `ref` in the total row's new place (`shift` rows from the
 * old one). A formula's stored result is dropped: it totals the old rows, and the refreshed workbook is
 * recalculated when it opens (calcPr fullCalcOnLoad), so a reader that does not calculate shows an empty
 * cell rather than a figure that is wrong.
 */
export function movedTotalCell(xml: string, ref: string, shift: number, body: BodyRows): string {
  const tagEnd = xml.indexOf('>');
  let tag = xml.slice(0, tagEnd + 1).replace(/\sr="[^"]*"/, ` r="${ref}"`);
  if (!/\sr="/.test(tag)) tag = tag.replace(/^<c\b/, `<c r="${ref}"`);
  const content = xml.slice(tagEnd + 1);
  if (!content.includes('<f')) return tag + content;
  tag = tag.replace(/\st="[^"]*"/, '');
  const rest = content
    .replace(/<v\s*\/>|<v>[\s\S]*?<\/v>/, '')
    // A shared or array formula's master names the cells it covers: in the total row, they move with it.
    .replace(/(<f\b[^>]*?\sref=")([^"]*)"/, (_, head: string, area: string) => `${head}${area.replace(/([A-Z]+)(\d+)/g, (__, c: string, r: string) => `${c}${Number(r) + shift}`)}"`)
    .replace(/(<f\b[^>]*>)([\s\S]*?)(<\/f>)/, (whole, open: string, text: string, close: string) => {
      const formula = decodeEntities(text);
      const moved = followBody(formula, body);
      return moved === formula ? whole : `${open}${escapeXml(moved)}${close}`;
    });
  return tag + rest;
}

/**
 * The column of a total-row cell whose formula is shared from a cell outside the row (`<f t="shared"
 * si="n"/>` whose master, the cell holding the text, is elsewhere), if any. Its meaning is an offset from
 * that master, which moving the row alone would change, so such a row is not moved.
 */
export function sharedFromOutside(cells: ReadonlyMap<number, string>): number | undefined {
  const masters = new Set<string>();
  const children: [number, string][] = [];
  for (const [c, xml] of cells) {
    const f = /<f\b[^>]*\bt="shared"[^>]*>/.exec(xml)?.[0];
    const si = f && /\ssi="(\d+)"/.exec(f)?.[1];
    if (!si) continue;
    if (/\sref="/.test(f)) masters.add(si);
    else children.push([c, si]);
  }
  return children.find(([, si]) => !masters.has(si))?.[0];
}
