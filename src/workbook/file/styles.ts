import { attr, child, childrenOf, parseXml, setAttr, splice, startTag } from './xml';

/** Number formats Office knows by id without listing them (ECMA-376 Part 1, 18.8.30). */
const BUILT_IN: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '@': 49 };

/** Fills of marks: the add-in's colours (excel/marks.ts MARK_FILL), so a file marked headless looks the same. */
export const MARK_RGB = { error: 'F4CCCC', warning: 'FFF2CC', ok: 'D9EAD3' } as const;

/**
 * The cell formats (xf entries of cellXfs) that new cells point at, found in the workbook's styles part
 * or added to it. The part is rewritten only when a format had to be added.
 */
export class Styles {
  /** `marked`: a fill of the add-in's marks on the default font and border, as filledXf writes it. */
  private xfs: { numFmtId: number; plain: boolean; marked: boolean }[];
  private formats = new Map<string, number>();
  private addedFormats: { id: number; code: string }[] = [];
  private addedXfs: { numFmtId: number; fillId: number }[] = [];
  private fillCount = 0;
  private addedFills: string[] = [];
  private readonly cache = new Map<string, number>();

  constructor(private readonly text: string | null) {
    this.xfs = [];
    if (!text) return;
    const root = parseXml(text, 'xl/styles.xml');
    for (const f of childrenOf(child(root, 'numFmts') ?? root, 'numFmt')) this.formats.set(attr(f, 'formatCode') ?? '', Number(attr(f, 'numFmtId')));
    const fills = childrenOf(child(root, 'fills') ?? root, 'fill');
    this.fillCount = fills.length;
    const marks = new Set<string>(Object.values(MARK_RGB));
    const markFill = fills.map((f) => {
      const pattern = child(f, 'patternFill');
      const rgb = pattern && attr(pattern, 'patternType') === 'solid' ? attr(child(pattern, 'fgColor') ?? pattern, 'rgb') : undefined;
      return !!rgb && marks.has(rgb.slice(-6).toUpperCase());
    });
    for (const xf of childrenOf(child(root, 'cellXfs') ?? root, 'xf')) {
      const zero = (n: string) => Number(attr(xf, n) ?? 0) === 0;
      const numFmtId = Number(attr(xf, 'numFmtId') ?? 0);
      const marked = zero('fontId') && zero('borderId') && markFill[Number(attr(xf, 'fillId') ?? 0)] === true;
      this.xfs.push({ numFmtId, plain: zero('fontId') && zero('fillId') && zero('borderId') && xf.children.length === 0, marked });
    }
  }

  get changed(): boolean {
    return this.addedXfs.length > 0;
  }

  /** The xf index of a plain cell with this number format code. */
  xfFor(code: string): number {
    const hit = this.cache.get(code);
    if (hit !== undefined) return hit;
    let id = BUILT_IN[code] ?? this.formats.get(code);
    if (id === undefined) {
      id = Math.max(163, ...this.formats.values(), ...this.addedFormats.map((f) => f.id)) + 1;
      this.formats.set(code, id);
      this.addedFormats.push({ id, code });
    }
    const index = this.plainXf(id);
    this.cache.set(code, index);
    return index;
  }

  private plainXf(numFmtId: number): number {
    let index = this.xfs.findIndex((x) => x.plain && x.numFmtId === numFmtId);
    if (index < 0) {
      index = this.xfs.length;
      this.xfs.push({ numFmtId, plain: true, marked: false });
      this.addedXfs.push({ numFmtId, fillId: 0 });
    }
    return index;
  }

  /**
   * Each xf that carries a mark's fill (one this file had, or one filledXf added) -> the plain xf of its
   * number format: what a cell whose mark no longer applies goes back to. Every other xf is left as it is,
   * so a fill a person chose stays.
   */
  unmarkedXfs(): Map<number, number> {
    const out = new Map<number, number>();
    this.xfs.forEach((x, i) => x.marked && out.set(i, -1));
    for (const i of out.keys()) out.set(i, this.plainXf(this.xfs[i]!.numFmtId));
    return out;
  }

  /** The xf index of a cell with `base`'s number format and a solid fill of `rgb` (RRGGBB), for marks. */
  filledXf(base: number, rgb: string): number {
    const key = `${base}|${rgb}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let fill = this.addedFills.indexOf(rgb);
    if (fill < 0) fill = this.addedFills.push(rgb) - 1;
    const numFmtId = this.xfs[base]?.numFmtId ?? 0;
    const index = this.xfs.length;
    this.xfs.push({ numFmtId, plain: false, marked: true });
    this.addedXfs.push({ numFmtId, fillId: this.fillCount + fill });
    this.cache.set(key, index);
    return index;
  }

  /** The styles part with the added formats and xfs; everything else in it as it was. */
  render(): string {
    if (!this.text) throw new Error('no styles part to add to');
    const text = this.text;
    const root = parseXml(text, 'xl/styles.xml');
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    const edits: { start: number; end: number; with: string }[] = [];
    const fmts = this.addedFormats.map((f) => `<numFmt numFmtId="${f.id}" formatCode="${esc(f.code)}"/>`).join('');
    const numFmts = child(root, 'numFmts');
    if (fmts && numFmts) {
      const count = childrenOf(numFmts, 'numFmt').length + this.addedFormats.length;
      const open = startTag(text, numFmts);
      if (open.endsWith('/>')) edits.push({ start: numFmts.start, end: numFmts.end, with: `${setAttr(open.slice(0, -2) + '>', 'count', String(count))}${fmts}</numFmts>` });
      else {
        edits.push({ start: numFmts.start, end: numFmts.openEnd, with: setAttr(open, 'count', String(count)) });
        edits.push({ start: numFmts.end - '</numFmts>'.length, end: numFmts.end - '</numFmts>'.length, with: fmts });
      }
    } else if (fmts) {
      // numFmts comes first in the styleSheet (ECMA-376 Part 1, 18.8.39).
      const first = root.children[0];
      const at = first ? first.start : root.end - `</${root.name}>`.length;
      edits.push({ start: at, end: at, with: `<numFmts count="${this.addedFormats.length}">${fmts}</numFmts>` });
    }
    const cellXfs = child(root, 'cellXfs');
    if (!cellXfs) throw new Error('styles part without cellXfs');
    const fills = child(root, 'fills');
    if (this.addedFills.length) {
      if (!fills) throw new Error('styles part without fills');
      const added = this.addedFills.map((rgb) => `<fill><patternFill patternType="solid"><fgColor rgb="FF${rgb}"/><bgColor indexed="64"/></patternFill></fill>`).join('');
      const fopen = startTag(text, fills);
      edits.push({ start: fills.start, end: fills.openEnd, with: setAttr(fopen, 'count', String(this.fillCount + this.addedFills.length)) });
      edits.push({ start: fills.end - '</fills>'.length, end: fills.end - '</fills>'.length, with: added });
    }
    const xfs = this.addedXfs.map((x) => `<xf numFmtId="${x.numFmtId}" fontId="0" fillId="${x.fillId}" borderId="0" xfId="0" applyNumberFormat="1"${x.fillId ? ' applyFill="1"' : ''}/>`).join('');
    const open = startTag(text, cellXfs);
    edits.push({ start: cellXfs.start, end: cellXfs.openEnd, with: setAttr(open, 'count', String(this.xfs.length)) });
    const close = cellXfs.end - '</cellXfs>'.length;
    edits.push({ start: close, end: close, with: xfs });
    return splice(text, edits);
  }
}

/** A styles part for a new package: the default font, fill and border, and one plain cell format. */
export const EMPTY_STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';
