import { cellValue, cellXml, rowValues } from '../../../src/workbook/file/cells';
import { escapeCellText } from '../../../src/workbook/file/xml';
import { cellsWithin, plainRow, sheetPieces, sheetPiecesAsync, splitRow } from '../../../src/workbook/file/rows';
import type { Cell } from '../../../src/workbook/port';

/** rowValues is the fast path of a scan: it must read every row exactly as splitRow + cellValue do. */
const shared = () => ['first', 'a & b', 'x'];
const rows = [
  '<row r="2" spans="1:6"><c r="A2" s="3" t="inlineStr"><is><t>Risk 1</t></is></c><c r="B2"><v>45123.5</v></c><c r="C2" t="b"><v>1</v></c><c r="D2" t="s"><v>1</v></c><c r="E2" t="e"><v>#N/A</v></c><c r="F2" t="str"><f>A2&amp;"x"</f><v>Risk 1x</v></c></row>',
  '<row r="3"><c r="A3" t="inlineStr"><is><r><t>rich </t></r><r><rPr><b/></rPr><t xml:space="preserve">text </t></r><rPh><t>ignored</t></rPh></is></c><c r="C3" s="2"/><c r="D3"><f>SUM(B:B)</f><v>12</v></c></row>',
  '<row r="4" ht="20" customHeight="1"><c t="inlineStr"><is><t>no ref</t></is></c><c><v>7</v></c><c t="b"><v>0</v></c></row>',
  '<row r="5"/>',
  '<row r="6"><c r="AA6" t="inlineStr"><is><t>far right</t></is></c><c r="B6" t="inlineStr"><is><t>&lt;b&gt; _x000D_ line</t></is></c></row>',
  '<row r="7"><c r="A7" t="inlineStr"><is><t/></is></c><c r="B7" t="s"><v>9</v></c><c r="C7"><v>-1.5E-3</v></c><c r="D7" t="n"><v>3</v></c><c r="E7" t="d"><v>2024-01-02</v></c></row>',
  // One-run items (read without the regex) beside items that only look like one.
  '<row r="8"><c r="A8" t="inlineStr"><is><t xml:space="preserve"> lead &amp; _x0009_</t></is></c><c r="B8" t="inlineStr"><is><t>a</t><rPh sb="0" eb="1"><t>b</t></rPh></is></c><c r="C8" t="inlineStr"><is><t>a</t></is><x/></c><c r="D8" t="inlineStr"><is><tx>no</tx><t>yes</t></is></c><c r="E8" t="inlineStr"><is><t></t></is></c></row>',
];

function slow(text: string, from: number, width: number): Cell[] {
  const out = new Array<Cell>(width).fill(null);
  for (const c of splitRow(text).cells) if (c.col >= from && c.col < from + width) out[c.col - from] = cellValue(c.xml, shared);
  return out;
}

describe('rowValues', () => {
  it.each(rows.map((r) => [r.slice(0, 40), r]))('reads %s as splitRow + cellValue do', (_, text) => {
    for (const [from, width] of [
      [0, 6],
      [1, 3],
      [0, 30],
      [26, 1],
    ] as const) {
      const out = new Array<Cell>(width).fill('stale');
      rowValues(text, from, width, out, shared);
      expect(out).toEqual(slow(text, from, width));
    }
  });

  it('gives the values a reader expects', () => {
    const out = new Array<Cell>(6).fill(null);
    rowValues(rows[0]!, 0, 6, out, shared);
    expect(out).toEqual(['Risk 1', 45123.5, true, 'a & b', '#N/A', 'Risk 1x']);
    rowValues(rows[1]!, 0, 4, out, shared);
    expect(out.slice(0, 4)).toEqual(['rich text ', null, null, 12]);
  });
});

describe('cellXml', () => {
  it('writes text that needs no escape as it is, and any other text escaped, as the regexes say', () => {
    const texts = ['Risk 1', 'a', 'Anna de Vries', 'x_y', '_x0009_', 'a&b', '<b>', 'say "hi"', ' lead', 'trail ', 'two\nlines', 'tab\t', '\u00a0nbsp', 'nbsp\u00a0', '\u3000', 'ünïcode', 'emoji 😀', 'end\ufffe', 'ctl\u0001', "'=1+1", 'x'];
    for (const text of texts) {
      const space = /^\s|\s$|\n/.test(text) ? ' xml:space="preserve"' : '';
      const shown = text.startsWith("'=") ? text.slice(1) : text;
      expect([text, cellXml('B2', text, 3)]).toEqual([text, `<c r="B2" s="3" t="inlineStr"><is><t${space}>${escapeCellText(shown)}</t></is></c>`]);
      const out: Cell[] = [null];
      rowValues(`<row r="2">${cellXml('A2', text, 0)}</row>`, 0, 1, out, shared);
      expect(out[0]).toBe(shown);
    }
  });
});

describe('plainRow and cellsWithin', () => {
  it('tell a row a refresh may rewrite whole from one it must read', () => {
    expect(plainRow('<row r="2" spans="1:6"><c r="A2"/></row>')).toBe(true);
    expect(plainRow('<row r="2"/>')).toBe(true);
    expect(plainRow('<row r="120"><c r="A120"/></row>')).toBe(true);
    expect(plainRow('<row r="120" hidden="1"><c r="A120"/></row>')).toBe(false);
    expect(plainRow('<row r="2" ht="20" customHeight="1"><c r="A2"/></row>')).toBe(false);
    expect(plainRow('<row r="2" spans="1:3" x14ac:dyDescent="0.25"><c r="A2"/></row>')).toBe(true);
    expect(plainRow('<row r="2" s="4" customFormat="1"><c r="A2"/></row>')).toBe(false);
    expect(plainRow('<row r="2" hidden="1"><c r="A2"/></row>')).toBe(false);
    expect(plainRow('<row r="2" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false"><c r="A2"/></row>')).toBe(true);
    expect(plainRow('<row r="2" customFormat="false" ht="30" hidden="false" customHeight="true" outlineLevel="0" collapsed="false"><c r="A2"/></row>')).toBe(false);
    expect(plainRow('<row r="2" ht="30" customHeight="1"><c r="A2"/></row>')).toBe(false);
    expect(plainRow('<row r="2" outlineLevel="1"><c r="A2"/></row>')).toBe(false);
    expect(cellsWithin(rows[0]!, 0, 6)).toBe(true);
    expect(cellsWithin(rows[0]!, 1, 6)).toBe(false);
    expect(cellsWithin(rows[0]!, 0, 5)).toBe(false);
    expect(cellsWithin(rows[2]!, 0, 30)).toBe(false);
    expect(cellsWithin('<row r="5"/>', 3, 1)).toBe(true);
  });
});

describe('rowValues keep', () => {
  it('hands over the XML of the cells in the columns to keep, style-only cells too', () => {
    const keep = { columns: Uint8Array.from([0, 0, 1, 0]), xml: [] as string[] };
    const out = new Array<Cell>(4).fill(null);
    rowValues(rows[1]!, 0, 4, out, shared, keep);
    expect(keep.xml).toEqual(['<c r="C3" s="2"/>']);
    keep.xml.length = 0;
    keep.columns.set([0, 0, 0, 1]);
    rowValues(rows[1]!, 0, 4, out, shared, keep);
    expect(keep.xml).toEqual(['<c r="D3"><f>SUM(B:B)</f><v>12</v></c>']);
    expect(out).toEqual(['rich text ', null, null, 12]);
  });
});

describe('sheetPieces', () => {
  const sheet = '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row\tspans="1:1"\nr="4"><c r="A4"><v>4</v></c></row><row><c><v>5</v></c></row><row r="7"/></sheetData><pageMargins/></worksheet>';
  const expected = [
    { kind: 'head', text: '<worksheet><sheetData>' },
    { kind: 'row', index: 0, text: '<row r="1"><c r="A1"><v>1</v></c></row>' },
    { kind: 'row', index: 3, text: '<row\tspans="1:1"\nr="4"><c r="A4"><v>4</v></c></row>' },
    { kind: 'row', index: 4, text: '<row><c><v>5</v></c></row>' },
    { kind: 'row', index: 6, text: '<row r="7"/>' },
    { kind: 'tail', text: '</sheetData><pageMargins/></worksheet>' },
  ];
  it('cuts a sheet the same whatever the pieces its text comes in', async () => {
    for (const size of [1, 3, 7, 64, 10_000]) {
      const chunks = Array.from({ length: Math.ceil(sheet.length / size) }, (_, i) => sheet.slice(i * size, (i + 1) * size));
      expect([...sheetPieces(chunks)]).toEqual(expected);
      const pieces = [];
      for await (const p of sheetPiecesAsync((async function* () { yield* chunks; })())) pieces.push(p);
      expect(pieces).toEqual(expected);
    }
  });
  it('takes an empty sheetData and refuses a sheet cut short', () => {
    expect([...sheetPieces(['<worksheet><sheetData/><x/></worksheet>'])]).toEqual([{ kind: 'head', text: '<worksheet><sheetData>' }, { kind: 'tail', text: '</sheetData><x/></worksheet>' }]);
    expect(() => [...sheetPieces([sheet.slice(0, 60)])]).toThrow(/damaged/);
    expect(() => [...sheetPieces(['<worksheet>'])]).toThrow(/no cell data/);
  });
});
