/**
 * Readers nobody here wrote, run on what the file adapter saves: LibreOffice (headless, converting every
 * sheet to CSV as Calc reads the file) and openpyxl (Debian's python3-openpyxl, under /usr/bin/python3).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * LibreOffice keeps the stored results of formulas in a file from Excel unless told to recalculate
 * (Tools > Options > Calc > Formula > Recalculation on file load); Excel recalculates a file whose
 * workbook asks for it (calcPr fullCalcOnLoad, which a refresh sets). The profile says "always".
 */
const RECALC_ALWAYS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>`;

/** Each sheet of the workbook as LibreOffice reads it: sheet name -> rows of CSV fields. */
export function libreOfficeSheets(file: string): Map<string, string[][]> {
  const out = mkdtempSync(join(tmpdir(), 'grc-lo-out-'));
  // A profile of its own, so runs in parallel do not wait on each other's lock.
  const profile = mkdtempSync(join(tmpdir(), 'grc-lo-profile-'));
  mkdirSync(join(profile, 'user'));
  writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), RECALC_ALWAYS);
  try {
    // Filter options: comma, double quote, UTF-8, from line 1, ..., sheet -1 = every sheet, one file each.
    execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1', '--outdir', out, file], {
      stdio: 'pipe',
      timeout: 120_000,
    });
    const stem = basename(file).replace(/\.xlsx$/, '');
    const sheets = new Map<string, string[][]>();
    for (const f of readdirSync(out)) sheets.set(f.slice(stem.length + 1, -4), parseCsv(readFileSync(join(out, f), 'utf8')));
    return sheets;
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else if (ch !== '\r') field += ch;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** Runs a Python snippet with openpyxl against the file (as sys.argv[1]) and returns what it prints as JSON. */
export function openpyxl<T = unknown>(file: string, script: string): T {
  const out = execFileSync('/usr/bin/python3', ['-c', `import sys, json\nfrom openpyxl import load_workbook\n${script}`, file], { stdio: 'pipe', timeout: 120_000 });
  return JSON.parse(out.toString()) as T;
}

/** Every zip entry's SHA-256, read by Python's zipfile: name -> hash of the decompressed bytes. */
export function entryHashes(file: string): Record<string, string> {
  const script = 'import hashlib, json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { stdio: 'pipe' }).toString()) as Record<string, string>;
}

/**
 * Python (after `import re, zipfile`) that writes `dst` as the openpyxl-saved `tmp` with the add-in's parts of
 * `src` put back (openpyxl drops them when it saves): what Excel would have kept, or a tamperer covering
 * their tracks.
 */
export const PUT_ADDIN_PART_BACK = `zo, ze = zipfile.ZipFile(src), zipfile.ZipFile(tmp)
with zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as z:
    for i in ze.infolist():
        data = ze.read(i).decode() if i.filename.endswith(('.xml', '.rels')) else ze.read(i)
        if i.filename == '[Content_Types].xml':
            data = data.replace('</Types>', ''.join(re.findall(r'<Override [^>]*webextension[^>]*/>', zo.read(i.filename).decode())) + '</Types>')
        if i.filename == '_rels/.rels':
            rel = re.search(r'<Relationship [^>]*webextensiontaskpanes[^>]*/>', zo.read(i.filename).decode()).group(0)
            data = data.replace('</Relationships>', re.sub(r'Id="[^"]*"', 'Id="rIdGrcTaskpanes"', rel) + '</Relationships>')
        z.writestr(i, data)
    for n in zo.namelist():
        if n.startswith('xl/webextensions/'):
            z.writestr(n, zo.read(n))`;

/** The solid fills of a sheet's cells as openpyxl reads them: A1 address -> RRGGBB. */
export const openpyxlFills = (file: string, sheet: string) =>
  openpyxl<Record<string, string>>(
    file,
    `ws = load_workbook(sys.argv[1])[${JSON.stringify(sheet)}]
print(json.dumps({c.coordinate: c.fill.fgColor.rgb[-6:].upper() for r in ws.iter_rows() for c in r if c.fill.fill_type == 'solid'}))`,
  );

/**
 * The background colours of a sheet's cells as LibreOffice reads them: the file converted to a flat
 * OpenDocument spreadsheet (one XML) and its cell styles followed to their colour. A1 address -> RRGGBB.
 */
export function libreOfficeFills(file: string, sheet: string): Record<string, string> {
  const out = mkdtempSync(join(tmpdir(), 'grc-lo-out-'));
  const profile = mkdtempSync(join(tmpdir(), 'grc-lo-profile-'));
  try {
    execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', 'fods', '--outdir', out, file], { stdio: 'pipe', timeout: 120_000 });
    const xml = readFileSync(join(out, basename(file).replace(/\.xlsx$/, '.fods')), 'utf8');
    const colour = new Map<string, string>();
    for (const m of xml.matchAll(/<style:style style:name="([^"]+)" style:family="table-cell"[^>]*>([\s\S]*?)<\/style:style>/g)) {
      const bg = /fo:background-color="#([0-9a-fA-F]{6})"/.exec(m[2]!);
      if (bg) colour.set(m[1]!, bg[1]!.toUpperCase());
    }
    const table = new RegExp(`<table:table table:name="${sheet}"[^>]*>([\\s\\S]*?)</table:table>`).exec(xml)?.[1] ?? '';
    const fills: Record<string, string> = {};
    let row = 0;
    for (const r of table.matchAll(/<table:table-row\b([^>]*?)(\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
      const rows = Number(/table:number-rows-repeated="(\d+)"/.exec(r[1]!)?.[1] ?? 1);
      let col = 0;
      for (const c of (r[3] ?? '').matchAll(/<table:(?:covered-)?table-cell\b([^>]*?)(\/>|>[\s\S]*?<\/table:(?:covered-)?table-cell>)/g)) {
        const cols = Number(/table:number-columns-repeated="(\d+)"/.exec(c[1]!)?.[1] ?? 1);
        const bg = colour.get(/table:style-name="([^"]+)"/.exec(c[1]!)?.[1] ?? '');
        if (bg && rows < 100 && cols < 100) {
          for (let i = 0; i < rows; i++) for (let k = 0; k < cols; k++) fills[`${columnLetters(col + k)}${row + i + 1}`] = bg;
        }
        col += cols;
      }
      row += rows;
    }
    return fills;
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

const columnLetters = (c: number): string => (c < 26 ? '' : columnLetters(Math.floor(c / 26) - 1)) + String.fromCharCode(65 + (c % 26));
