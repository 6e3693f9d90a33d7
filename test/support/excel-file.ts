/**
 * The fake Excel (test/workbook/excel/fakeExcel.ts) saved to an .xlsx and opened from one, as Excel
 * would, with writers and readers nobody here wrote: ExcelJS writes the cells and tables, a small zip edit
 * (fflate) adds the add-in's web extension part, and openpyxl (Debian's, /usr/bin/python3) with Python's
 * own zipfile and ElementTree read a file back. Our file adapter (src/workbook/file) is used for neither,
 * so a round trip through it (the headless commands) meets a file it did not write, and the add-in meets
 * a file read by someone else's reader.
 *
 * What is carried: sheets (name, visibility, protection), cell values with their number formats (a date
 * is its serial under its date format; text formatted "@"), formulas, fills, list validations, hidden
 * columns and widths, tables (name, range, header row, columns), and the add-in's settings; defined names
 * are read on open (the fake keeps bare names, so none is written). Not carried: notes and comments, the
 * selection, row heights, styles beyond number format and fill.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { ADDIN_ID } from '../../src/workbook/file/addin';
import { FakeExcel, type FakeExcelOptions } from '../workbook/excel/fakeExcel';

type Value = string | number | boolean;
type Sheet = FakeExcel['sheets'][number];

const letters = (col: number) => {
  let s = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const a1 = (r: number, c: number) => `${letters(c)}${r + 1}`;
const cellAt = (address: string) => {
  const m = /^\$?([A-Z]+)\$?(\d+)$/.exec(address)!;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + ch.charCodeAt(0) - 64;
  return { row: Number(m[2]) - 1, col: col - 1 };
};
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Office's points per width unit of a column (Calibri 11: a character is 7 px, 5.25 pt). */
const POINTS_PER_CHARACTER = 5.25;

const WE = 'http://schemas.microsoft.com/office/webextensions/webextension/2010/11';
const WETP = 'http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * Saves the fake Excel as Excel would save the workbook: ExcelJS writes sheets, cells and tables, then the
 * add-in's settings go in a web extension part ([MS-OWEXML], docs/workbook.md "Where the add-in's settings
 * are in the file"), added to ExcelJS's package by editing the zip.
 *
 * What Excel does differently: it writes its own `<table id>` numbering, which need not be the Office.js
 * `Table.id` the add-in saw in the session (the add-in keeps that id in its bindings as `tableId`); ExcelJS
 * numbers tables 1, 2 ... in sheet order. Excel also writes styles, themes, the calculation chain, the
 * selection and the web extension's snapshot image; none of them is read by the add-in or the commands.
 */
export async function saveFakeExcel(xl: FakeExcel, file: string): Promise<void> {
  const wb = new ExcelJS.Workbook();
  for (const sheet of xl.sheets) {
    const state = sheet.visibility === 'Hidden' ? 'hidden' : sheet.visibility === 'VeryHidden' ? 'veryHidden' : 'visible';
    const ws = wb.addWorksheet(sheet.name, { state });
    for (const [at, cell] of sheet.cells) {
      const c = ws.getCell(at);
      if (cell.value !== '') c.value = cell.formula ? { formula: String(cell.value).replace(/^=/, '') } : cell.value;
      if (cell.format !== 'General') c.numFmt = cell.format;
      if (cell.fill) c.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${cell.fill.replace(/^#/, '').toUpperCase()}` } };
      if (cell.validation) {
        c.dataValidation = { type: 'list', allowBlank: true, formulae: [cell.validation.replace(/^=/, '')], showErrorMessage: cell.validationAlert !== false };
      }
    }
    for (const [col, dims] of sheet.columns ?? []) {
      const column = ws.getColumn(col + 1);
      if (dims.hidden) column.hidden = true;
      if (dims.width !== undefined) column.width = dims.width / POINTS_PER_CHARACTER;
    }
    if (sheet.protected) await ws.protect('', {});
    for (const t of xl.tables.filter((x) => x.sheet === sheet)) {
      const value = (r: number, c: number): ExcelJS.CellValue => {
        const cell = sheet.cells.get(a1(r, c));
        if (!cell || cell.value === '') return null;
        return cell.formula ? { formula: String(cell.value).replace(/^=/, '') } : cell.value;
      };
      // addTable writes the header and rows into the cells again (the same values), keeping their formats.
      ws.addTable({
        name: t.name,
        ref: a1(t.row, t.col),
        headerRow: true,
        columns: Array.from({ length: t.width }, (_, c) => ({ name: String(value(t.row, t.col + c) ?? `Column${c + 1}`), filterButton: true })),
        rows: Array.from({ length: t.body }, (_, r) => Array.from({ length: t.width }, (_, c) => value(t.row + 1 + r, t.col + c))),
      });
    }
  }
  const written = new Uint8Array(await wb.xlsx.writeBuffer());
  writeFileSync(file, withAddinPart(written, xl.settings));
}

/** The package with the add-in's web extension part and its task pane added ([MS-OWEXML] 2.2.7, 2.2.1). */
function withAddinPart(xlsx: Uint8Array, settings: ReadonlyMap<string, unknown>): Uint8Array {
  const files = unzipSync(xlsx);
  // Office stores each setting as JSON; the add-in's values are already JSON text (excel/settings.ts).
  const properties = [...settings].map(([k, v]) => `<we:property name="${xmlText(k)}" value="${xmlText(JSON.stringify(v))}"/>`).join('');
  files['xl/webextensions/webextension1.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<we:webextension xmlns:we="${WE}" id="{6C1F3E5A-2B4D-4E8F-9A1B-3C5D7E9F1A2B}">` +
      `<we:reference id="${ADDIN_ID}" version="1.0.0.0" store="developer" storeType="Registry"/><we:alternateReferences/>` +
      `<we:properties>${properties}</we:properties><we:bindings/><we:snapshot xmlns:r="${R}"/></we:webextension>`,
  );
  files['xl/webextensions/taskpanes.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<wetp:taskpanes xmlns:wetp="${WETP}"><wetp:taskpane dockstate="right" visibility="1" width="350" row="4">` +
      `<wetp:webextensionref xmlns:r="${R}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>`,
  );
  files['xl/webextensions/_rels/taskpanes.xml.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.microsoft.com/office/2011/relationships/webextension" Target="webextension1.xml"/></Relationships>`,
  );
  const edit = (name: string, before: string, add: string) => {
    const text = strFromU8(files[name]!);
    if (!text.includes(before)) throw new Error(`${name} has no ${before}`);
    files[name] = strToU8(text.replace(before, `${add}${before}`));
  };
  edit('_rels/.rels', '</Relationships>', '<Relationship Id="rIdWebExtensionTaskpanes" Type="http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes" Target="xl/webextensions/taskpanes.xml"/>');
  edit(
    '[Content_Types].xml',
    '</Types>',
    '<Override PartName="/xl/webextensions/taskpanes.xml" ContentType="application/vnd.ms-office.webextensiontaskpanes+xml"/>' +
      '<Override PartName="/xl/webextensions/webextension1.xml" ContentType="application/vnd.ms-office.webextension+xml"/>',
  );
  return zipSync(files);
}

interface ReadSheet {
  name: string;
  state: string;
  protected: boolean;
  /** [row, col, value, openpyxl data type, number format, fill rgb or null], 0-based. */
  cells: [number, number, Value | null, string, string, string | null][];
  tables: { name: string; ref: string }[];
  hidden: number[];
  widths: [number, number][];
  validations: { sqref: string; formula: string; alert: boolean }[];
}
interface ReadBook {
  sheets: ReadSheet[];
  names: string[];
  settings: Record<string, string>;
}

/**
 * openpyxl reads a date cell as a datetime, which Excel does not: Range.values gives the serial. With its
 * date test turned off, openpyxl hands over every cell as stored (a date is its serial) with its format.
 * The add-in's settings: the web extension part whose reference is the add-in, read with ElementTree
 * (openpyxl does not read the part).
 */
const READ = `import sys, json, re, zipfile
import xml.etree.ElementTree as ET
import openpyxl.styles.stylesheet as stylesheet
stylesheet.is_date_format = lambda fmt: False
from openpyxl import load_workbook
from openpyxl.utils import column_index_from_string
path, addin = sys.argv[1], sys.argv[2].strip('{}').lower()
wb = load_workbook(path)
sheets = []
for ws in wb.worksheets:
    cells = []
    for (r, c), cell in ws._cells.items():
        fill = cell.fill.fgColor.rgb if cell.fill is not None and cell.fill.fill_type == 'solid' and isinstance(cell.fill.fgColor.rgb, str) else None
        if cell.value is None and cell.number_format == 'General' and fill is None:
            continue
        cells.append([r - 1, c - 1, cell.value, cell.data_type, cell.number_format, fill])
    hidden, widths = [], []
    for key, d in ws.column_dimensions.items():
        lo, hi = (d.min or column_index_from_string(key)), (d.max or column_index_from_string(key))
        for i in range(lo, hi + 1):
            if d.hidden: hidden.append(i - 1)
            if d.customWidth and d.width: widths.append([i - 1, d.width])
    validations = [{'sqref': str(v.sqref), 'formula': v.formula1, 'alert': bool(v.showErrorMessage)} for v in ws.data_validations.dataValidation if v.type == 'list']
    sheets.append({'name': ws.title, 'state': ws.sheet_state, 'protected': bool(ws.protection.sheet), 'cells': cells,
                   'tables': [{'name': t.name, 'ref': t.ref} for t in ws.tables.values()], 'hidden': hidden, 'widths': widths, 'validations': validations})
names = [d.name for d in wb.defined_names.definedName]
settings = {}
ns = {'we': 'http://schemas.microsoft.com/office/webextensions/webextension/2010/11'}
with zipfile.ZipFile(path) as z:
    for n in z.namelist():
        if not re.fullmatch(r'xl/webextensions/webextension\\d+\\.xml', n): continue
        root = ET.fromstring(z.read(n))
        ref = root.find('we:reference', ns)
        if ref is None or ref.get('id', '').strip('{}').lower() != addin: continue
        for p in root.findall('we:properties/we:property', ns):
            settings[p.get('name')] = p.get('value')
print(json.dumps({'sheets': sheets, 'names': names, 'settings': settings}))`;

/**
 * Opens an .xlsx in a new fake Excel, as Excel opens the file in a new session: the cells, tables and the
 * add-in's settings (Office gives `workbook.settings` the JSON of each `<we:property value>`).
 *
 * Table ids: Office.js ids hold within a session; the documentation promises no more, and worksheet ids
 * are documented to change between sessions (OfficeDev/office-js-docs#297). So the tables of a workbook
 * opened again get ids no earlier session gave (from `firstTableId`, 1001 by default): a binding finds its
 * table by its id while the session lasts, and by its name in a new one (src/loading/bindings.ts).
 */
export function openInFakeExcel(file: string, options: FakeExcelOptions = {}): FakeExcel {
  const out = execFileSync('/usr/bin/python3', ['-c', READ, file, ADDIN_ID], { stdio: 'pipe', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  const book = JSON.parse(out.toString()) as ReadBook;
  const xl = new FakeExcel({ firstTableId: 1001, ...options });
  xl.sheets = [];
  for (const s of book.sheets) {
    const sheet: Sheet = { name: s.name, visibility: s.state === 'hidden' ? 'Hidden' : s.state === 'veryHidden' ? 'VeryHidden' : 'Visible', cells: new Map() };
    if (s.protected) sheet.protected = true;
    xl.sheets.push(sheet);
    for (const [r, c, value, type, format, fill] of s.cells) {
      const cell = xl.cell(sheet, r, c);
      cell.format = format;
      if (value !== null) Object.assign(cell, { value, formula: type === 'f' });
      // openpyxl gives ARGB; Excel's fill.color is #RRGGBB.
      if (fill) cell.fill = `#${fill.slice(-6)}`;
    }
    for (const v of s.validations) {
      for (const part of v.sqref.split(/\s+/)) {
        const [from, to] = part.split(':') as [string, string?];
        const a = cellAt(from);
        const b = cellAt(to ?? from);
        for (let r = a.row; r <= b.row; r++) for (let c = a.col; c <= b.col; c++) Object.assign(xl.cell(sheet, r, c), { validation: `=${v.formula}`, validationAlert: v.alert });
      }
    }
    if (s.hidden.length || s.widths.length) {
      sheet.columns = new Map();
      for (const c of s.hidden) sheet.columns.set(c, { ...sheet.columns.get(c), hidden: true });
      for (const [c, w] of s.widths) sheet.columns.set(c, { ...sheet.columns.get(c), width: w * POINTS_PER_CHARACTER });
    }
    for (const t of s.tables) {
      const [from, to] = t.ref.split(':') as [string, string?];
      const a = cellAt(from);
      const b = cellAt(to ?? from);
      const table = xl.newTable(sheet, { sheet, row: a.row, col: a.col, rows: b.row - a.row + 1, cols: b.col - a.col + 1 });
      table.name = t.name;
      table.body = Math.max(1, b.row - a.row);
    }
  }
  xl.names = book.names;
  for (const [name, value] of Object.entries(book.settings)) xl.settings.set(name, JSON.parse(value) as unknown);
  const first = xl.sheets.find((s) => s.visibility === 'Visible') ?? xl.sheets[0]!;
  xl.selection = { sheet: first.name, address: 'A1' };
  return xl;
}
