import { closeSync, fsyncSync, openSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { cellAddress, parseCell } from '../address';
import { AUTO_SHOW, CT_TASKPANES, CT_WEBEXTENSION, REL_TASKPANES, REL_WEBEXTENSION, newTaskpanes, newWebExtension, readProperties, writeProperties } from './addin';
import { cellXml, formulaCellXml } from './cells';
import type { FileState } from './fileWorkbook';
import { CT_TABLE, CT_WORKSHEET, REL, REL_TABLE, REL_WORKSHEET, formatOf, type Block, type SheetModel, type TableModel } from './model';
import { sheetPieces, styleOf, type RawCell, type SheetPiece } from './rows';
import { rewriteSheet, type SheetPlan, type TableArea } from './sheetWriter';
import { EMPTY_STYLES, MARK_RGB, Styles } from './styles';
import { FileProblem } from './problem';
import { followBody, movedTotalCell, sharedFromOutside, type BodyRows } from './totalRow';
import { attr, child, childrenOf, escapeXml, local, parseXml, setAttr, splice, startTag } from './xml';
import { ZipWriter } from './zip';

/** What a save did to the package: which parts it rewrote, added or removed; every other entry was copied. */
export interface SaveReport {
  rewritten: string[];
  added: string[];
  removed: string[];
  copied: number;
  /** Body rows written as the last save of the session wrote them, not made again (keptRows). */
  keptRows: number;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

const areaRef = (t: TableModel, rows: number, width: number) => `${cellAddress(t.row, t.col)}:${cellAddress(t.row + rows, t.col + Math.max(width, 1) - 1)}`;
const newRef = (t: TableModel) => areaRef(t, Math.max(t.rowCount, 1) + t.totals, t.columns.length);
const oldRef = (t: TableModel) => areaRef(t, t.oldPhysical + t.totals, t.oldWidth);
/** The table's body rows before and after the change: what a total row's formulas over the body follow. */
const bodyRows = (t: TableModel): BodyRows => ({ first: t.row + 1, oldLast: t.row + t.oldPhysical, newLast: t.row + Math.max(t.rowCount, 1), col0: t.col, col1: t.col + Math.max(t.columns.length, t.oldWidth) - 1 });

function overlaps(a: string, b: string): boolean {
  const box = (r: string) => {
    const [x, y = x] = r.replace(/\$/g, '').split(':');
    const p = parseCell(x!);
    const q = parseCell(y!);
    return { r0: p.row, c0: p.col, r1: q.row, c1: q.col };
  };
  const p = box(a);
  const q = box(b);
  return p.r0 <= q.r1 && q.r0 <= p.r1 && p.c0 <= q.c1 && q.c0 <= p.c1;
}

/** The table part with its new ref, autoFilter and columns; its other content (style, filters) kept. */
function tableXml(state: FileState, t: TableModel): string {
  const ref = newRef(t);
  const autoFilterRef = areaRef(t, Math.max(t.rowCount, 1), t.columns.length);
  const column = (c: TableModel['columns'][number]) =>
    `<tableColumn id="${c.id}" name="${escapeXml(c.name)}"${c.formula ? `><calculatedColumnFormula>${escapeXml(c.formula)}</calculatedColumnFormula></tableColumn>` : '/>'}`;
  if (t.isNew) {
    return (
      `${XML_HEAD}<table xmlns="${NS_MAIN}" id="${t.id}" name="${escapeXml(t.name)}" displayName="${escapeXml(t.name)}" ref="${ref}" totalsRowShown="0">` +
      `<autoFilter ref="${autoFilterRef}"/><tableColumns count="${t.columns.length}">${t.columns.map(column).join('')}</tableColumns>` +
      `<tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>`
    );
  }
  const text = state.pkg.text(t.path);
  const root = parseXml(text, t.path);
  const edits: { start: number; end: number; with: string }[] = [{ start: root.start, end: root.openEnd, with: setAttr(startTag(text, root), 'ref', ref) }];
  const autoFilter = child(root, 'autoFilter');
  if (autoFilter) {
    edits.push({ start: autoFilter.start, end: autoFilter.openEnd, with: setAttr(startTag(text, autoFilter), 'ref', autoFilterRef) });
    // A sort applied to the old rows does not describe the new ones, and its range may now be wrong.
    for (const s of childrenOf(autoFilter, 'sortState')) edits.push({ start: s.start, end: s.end, with: '' });
  }
  for (const s of childrenOf(root, 'sortState')) edits.push({ start: s.start, end: s.end, with: '' });
  const cols = child(root, 'tableColumns');
  // totalsRowFunction and totalsRowLabel stay; a custom total's formula follows the body as the cell's does.
  for (const f of t.totals && cols ? childrenOf(cols, 'tableColumn').flatMap((c) => childrenOf(c, 'totalsRowFormula')) : []) {
    const moved = followBody(f.text, bodyRows(t));
    if (moved !== f.text) edits.push({ start: f.openEnd, end: f.end - `</${f.name}>`.length, with: escapeXml(moved) });
  }
  if (cols && t.columns.length > t.oldWidth) {
    edits.push({ start: cols.start, end: cols.openEnd, with: setAttr(startTag(text, cols), 'count', String(t.columns.length)) });
    const close = cols.end - `</${cols.name}>`.length;
    edits.push({ start: close, end: close, with: t.columns.slice(t.oldWidth).map(column).join('') });
  }
  return splice(text, edits);
}

/** The relationships namespace prefix of a part's root, or a declaration to add on the element itself. */
function relPrefix(text: string): { prefix: string; declare: string } {
  // Only the root's declarations count: openpyxl declares the prefix on each <sheet> instead, where it does
  // not reach a sheet added beside them.
  const root = /<(?![?!])[^>]*>/.exec(text)?.[0] ?? '';
  const m = new RegExp(`xmlns:([A-Za-z0-9_]+)="${REL.replace(/\./g, '\\.')}"`).exec(root);
  return m ? { prefix: m[1]!, declare: '' } : { prefix: 'r', declare: ` xmlns:r="${REL}"` };
}

function registerSheet(state: FileState, s: SheetModel): void {
  const { pkg, workbookPath } = state;
  const rid = pkg.addRel(workbookPath, REL_WORKSHEET, s.path);
  pkg.addContentType(s.path, CT_WORKSHEET);
  const text = pkg.text(workbookPath);
  const sheets = child(parseXml(text, workbookPath), 'sheets')!;
  const ids = childrenOf(sheets, 'sheet').map((x) => Number(attr(x, 'sheetId') ?? 0));
  const { prefix, declare } = relPrefix(text);
  const el = `<sheet name="${escapeXml(s.name)}" sheetId="${Math.max(0, ...ids) + 1}"${s.hidden ? ' state="hidden"' : ''} ${prefix}:id="${rid}"${declare}/>`;
  const close = sheets.end - `</${sheets.name}>`.length;
  pkg.set(workbookPath, splice(text, [{ start: close, end: close, with: el }]));
}

/** Shows a sheet when the file opens (the sheet a template made): workbookView activeTab is its position. */
function activate(state: FileState, sheet: string): void {
  const { pkg, workbookPath } = state;
  const text = pkg.text(workbookPath);
  const root = parseXml(text, workbookPath);
  const index = childrenOf(child(root, 'sheets')!, 'sheet').findIndex((s) => attr(s, 'name') === escapeXml(sheet) || attr(s, 'name') === sheet);
  if (index < 0) return;
  const view = child(child(root, 'bookViews') ?? root, 'workbookView');
  if (view) {
    pkg.set(workbookPath, splice(text, [{ start: view.start, end: view.openEnd, with: setAttr(startTag(text, view), 'activeTab', String(index)) }]));
    return;
  }
  const sheets = child(root, 'sheets')!;
  pkg.set(workbookPath, splice(text, [{ start: sheets.start, end: sheets.start, with: `<bookViews><workbookView activeTab="${index}"/></bookViews>` }]));
}

const CALC_AFTER = ['oleSize', 'customWorkbookViews', 'pivotCaches', 'smartTagPr', 'smartTagTypes', 'webPublishing', 'fileRecoveryPr', 'webPublishObjects', 'extLst'];

/** Asks Excel to recalculate everything on open: formulas elsewhere read the refreshed tables. */
function fullCalcOnLoad(state: FileState): void {
  const { pkg, workbookPath } = state;
  const text = pkg.text(workbookPath);
  const root = parseXml(text, workbookPath);
  const calcPr = child(root, 'calcPr');
  if (calcPr) {
    pkg.set(workbookPath, splice(text, [{ start: calcPr.start, end: calcPr.openEnd, with: setAttr(startTag(text, calcPr), 'fullCalcOnLoad', '1') }]));
    return;
  }
  const next = root.children.find((c) => CALC_AFTER.includes(local(c.name)));
  const at = next ? next.start : root.end - `</${root.name}>`.length;
  pkg.set(workbookPath, splice(text, [{ start: at, end: at, with: '<calcPr fullCalcOnLoad="1"/>' }]));
}

/**
 * The calculation chain lists the cells that hold formulas; once those change it is stale, and Excel
 * repairs a stale chain with a warning. Without a chain Excel builds a new one silently.
 */
function dropCalcChain(state: FileState): void {
  const { pkg, workbookPath } = state;
  const rel = pkg.rels(workbookPath).find((r) => r.type.endsWith('/calcChain'));
  if (!rel) return;
  pkg.removeRel(workbookPath, rel.id);
  pkg.removeContentType(rel.target);
  pkg.remove(rel.target);
}

function markPivots(state: FileState, tables: TableModel[]): void {
  for (const p of state.pivots) {
    const t = tables.find(
      (x) => (p.sourceName && p.sourceName.toLowerCase() === x.name.toLowerCase()) || (p.sourceSheet === x.sheet.name && p.sourceRef && overlaps(p.sourceRef, oldRef(x))),
    );
    if (!t) continue;
    const text = state.pkg.text(p.path);
    const root = parseXml(text, p.path);
    const edits = [{ start: root.start, end: root.openEnd, with: setAttr(startTag(text, root), 'refreshOnLoad', '1') }];
    // A cache over exactly the old table range follows the table; a wider or narrower one is the user's choice.
    const source = child(child(root, 'cacheSource') ?? root, 'worksheetSource');
    if (source && p.sourceRef && p.sourceRef.replace(/\$/g, '') === oldRef(t)) {
      edits.push({ start: source.start, end: source.openEnd, with: setAttr(startTag(text, source), 'ref', newRef(t)) });
    }
    state.pkg.set(p.path, splice(text, edits));
  }
}

function saveSettings(state: FileState): void {
  const { pkg } = state;
  if (state.settingsPart) {
    const before = readProperties(pkg.text(state.settingsPart), state.settingsPart);
    const changes = new Map<string, string | undefined>();
    for (const [k, v] of state.settings) if (before.get(k) !== v) changes.set(k, v);
    for (const k of before.keys()) if (!state.settings.has(k)) changes.set(k, undefined);
    if (changes.size) pkg.set(state.settingsPart, writeProperties(pkg.text(state.settingsPart), state.settingsPart, changes));
    return;
  }
  // A workbook new to the add-in: its part, shown as a task pane that opens with the file.
  const part = pkg.freePath('xl/webextensions/webextension', '.xml');
  pkg.set(part, newWebExtension((state.newPartId ??= randomUUID().toUpperCase()), state.options.store, new Map([[AUTO_SHOW, 'true'], ...state.settings])));
  pkg.addContentType(part, CT_WEBEXTENSION);
  const panes = 'xl/webextensions/taskpanes.xml';
  if (!pkg.has(panes)) {
    pkg.set(panes, newTaskpanes('rId1'));
    pkg.addContentType(panes, CT_TASKPANES);
    pkg.addRel('', REL_TASKPANES, panes);
    pkg.addRel(panes, REL_WEBEXTENSION, part);
  } else {
    const rid = pkg.addRel(panes, REL_WEBEXTENSION, part);
    const text = pkg.text(panes);
    const root = parseXml(text, panes);
    const p = root.name.includes(':') ? `${root.name.split(':')[0]}:` : '';
    const close = root.end - `</${root.name}>`.length;
    const pane = `<${p}taskpane dockstate="right" visibility="1" width="350" row="${root.children.length}"><${p}webextensionref xmlns:r="${REL}" r:id="${rid}"/></${p}taskpane>`;
    pkg.set(panes, splice(text, [{ start: close, end: close, with: pane }]));
  }
}

const unmarkedOf = (unmarked: Map<number, number>, xf: number) => unmarked.get(xf) ?? xf;

/** Which block of this session last wrote a body row's cell (-1: none), and the last block over the row (-1: none). */
interface LastWrites {
  row(row: number): number;
  cell(row: number, c: number): number;
}

/** Blocks past which a save indexes them by row, and keeps the rows it wrote for the next save. */
const INDEXED = 32;
/** A sheet of at most this many bytes, in a session that keeps rows, is inflated and cut once for all its saves. */
const KEPT_SHEET = 16 << 20;
/** Rows a block holds at most on average, for a save to keep the rows it wrote (keptRows). */
const SMALL_BLOCK = 8;
/** Past this much text of rows kept, a save keeps no more (the next one makes the rest again). */
const KEPT_LIMIT = 16 << 20;

/**
 * The blocks looked up per row and per cell cost a save rows x columns x blocks, and a post journals two
 * blocks per row: past INDEXED blocks they are indexed by row, and the index is kept from one save to the
 * next, taking only the blocks written since (blocks are only ever added). A load or refresh writes a few
 * large blocks and keeps the plain scan: an index of 1,000,000 rows would cost more memory than it saves time.
 */
function lastWrites(t: TableModel): LastWrites {
  const blocks = t.blocks;
  const covers = (b: Block, row: number) => row >= b.offset && row < b.offset + b.rows.length;
  if (blocks.length <= INDEXED) {
    return {
      row(row) {
        for (let i = blocks.length - 1; i >= 0; i--) if (covers(blocks[i]!, row)) return i;
        return -1;
      },
      cell(row, c) {
        for (let i = blocks.length - 1; i >= 0; i--) if ((blocks[i]!.at[c] ?? -1) >= 0 && covers(blocks[i]!, row)) return i;
        return -1;
      },
    };
  }
  // Made again from the first block if the list is not the one indexed (never so today: a guard, not a case).
  if (!t.saved || t.saved.index.blocks !== blocks || t.saved.index.seen > blocks.length) {
    t.saved = { index: { blocks, seen: 0, cells: new Map(), last: new Map() }, key: '', rows: new Map(), chars: 0 };
  }
  const index = t.saved.index;
  for (; index.seen < blocks.length; index.seen++) {
    const b = blocks[index.seen]!;
    for (let row = b.offset; row < b.offset + b.rows.length; row++) {
      index.last.set(row, index.seen);
      // Blocks written before a column was added are narrower than later ones.
      let columns = index.cells.get(row);
      if (!columns || columns.length < b.at.length) {
        const wider = new Int32Array(b.at.length).fill(-1);
        if (columns) wider.set(columns);
        index.cells.set(row, (columns = wider));
      }
      for (let c = 0; c < b.at.length; c++) if (b.at[c]! >= 0) columns[c] = index.seen;
    }
  }
  return { row: (row) => index.last.get(row) ?? -1, cell: (row, c) => index.cells.get(row)?.[c] ?? -1 };
}

/**
 * The body rows the last save wrote, for a table of many small writes (past INDEXED blocks, SMALL_BLOCK rows
 * or fewer a block on average: a post's journal, not a load's chunks, whose one save would only hold the
 * text longer): a row is written again only when a block written since covers it, or when anything the
 * table's rows are made with (`key`: styles, marks, size, columns, formulas) differs; otherwise the last
 * save's text is taken. Not with a residue (the save then streams other pieces) or loose cells on the row
 * (rewriteSheet asks only for rows of the sheet's one changed table, with nothing else written on them).
 */
function keptRows(t: TableModel, key: string, lastWrite: LastWrites, report: { keptRows: number }): Pick<TableArea, 'saved' | 'keep'> {
  const saved = t.saved!;
  if (saved.key !== key) {
    saved.key = key;
    saved.rows.clear();
    saved.chars = 0;
  }
  return {
    saved(row) {
      const kept = row < t.rowCount ? saved.rows.get(row) : undefined;
      if (!kept || kept.last !== lastWrite.row(row)) return undefined;
      report.keptRows++;
      return kept.xml;
    },
    keep(row, xml) {
      if (row >= t.rowCount || saved.chars + xml.length > KEPT_LIMIT) return;
      const before = saved.rows.get(row);
      saved.chars += xml.length - (before?.xml.length ?? 0);
      saved.rows.set(row, { last: lastWrite.row(row), xml });
    },
  };
}

/** The sheet's plan: its changed tables' areas and loose cells, with every style decided up front. */
function planSheet(state: FileState, s: SheetModel, styles: Styles, tableRels: Map<TableModel, string>, report: SaveReport, onRow?: () => void): SheetPlan {
  const textXf = () => styles.xfFor('@');
  const tables = s.tables.filter((t) => t.changed);
  const areas: TableArea[] = tables.map((t) => {
    const scan = s.scan;
    const body = scan?.bodyStyles.get(t) ?? [];
    const head = scan?.headerStyles.get(t) ?? [];
    // A mark's fill is not the column's style: a first body row marked by an earlier save lends its cells'
    // style to every cell written here, so that fill would spread to rows nothing marks.
    const unmarked = styles.unmarkedXfs();
    const style = t.columns.map((c, i) => (i < t.oldWidth ? unmarkedOf(unmarked, body[i] ?? 0) : styles.xfFor(formatOf(c))));
    const headerStyle = t.isNew ? textXf() : (head[t.oldWidth - 1] ?? 0);
    const formulas = t.columns.map((c) => c.formula);
    // Mark fills are decided now too: their xfs must be in the styles part before the sheet streams out.
    const marked = new Map<string, number>();
    for (const [at, kind] of t.marks ?? []) if (kind !== 'none') marked.set(at, styles.filledXf(style[Number(at.split(':')[1])] ?? 0, MARK_RGB[kind]));
    const markedRows = new Set([...(t.marks?.keys() ?? [])].map((at) => Number(at.split(':')[0])));
    const blank = (ref: string, c: number) => (style[c] ? `<c r="${ref}" s="${style[c]}"/>` : '');
    const newBody = Math.max(t.rowCount, 1);
    const totalRows = scan?.totalRows.get(t) ?? [];
    totalRows.forEach((cells, k) => {
      const c = sharedFromOutside(cells);
      if (c === undefined) return;
      const at = `${t.sheet.name}!${cellAddress(t.row + t.oldPhysical + 1 + k, t.col + c)}`;
      throw new FileProblem(
        'unsupported',
        `The total row of table ${t.name} cannot be moved: ${at} shares its formula with cells outside the total row (it was filled or copied from them), and moving the row would change what it adds up. In Excel, pick that total again from the total row's list (or type its formula), save, and refresh again.`,
      );
    });
    const moves = bodyRows(t);
    const lastWrite = lastWrites(t);
    const kept =
      t.blocks.length > INDEXED && t.blocks.length * SMALL_BLOCK >= t.rowCount && !s.residue
        ? keptRows(t, JSON.stringify([style, formulas, headerStyle, t.rowCount, t.columns.length, t.oldWidth, t.oldPhysical, t.totals, !!t.remarked, [...marked], [...(t.marks ?? [])], [...unmarked]]), lastWrite, report)
        : {};
    const restyle = (xml: string, xf: number) => xml.replace(/^<c\b[^>]*?\/?>/, (tag) => tag.replace(/\s+s="\d+"/, '').replace(/^<c\b/, `<c s="${xf}"`));
    return {
      headerRow: t.row,
      col: t.col,
      oldWidth: t.oldWidth,
      newWidth: t.columns.length,
      oldLast: t.row + t.oldPhysical + t.totals,
      newLast: t.row + newBody + t.totals,
      header: (c, ref) => cellXml(ref, t.columns[c]!.name, headerStyle),
      body: (row, c, ref, old) => {
        if (row >= newBody) return totalCell(row - newBody, c, ref, old);
        // Where the total row was, the body now runs on: its old cells have moved down with it.
        if (row >= t.oldPhysical && row < t.oldPhysical + t.totals) old = undefined;
        const xf = marked.size ? marked.get(`${row}:${c}`) : undefined;
        const xml = bodyCell(row, c, ref, old);
        if (xf !== undefined && row < t.rowCount) return xml ? restyle(xml, xf) : `<c r="${ref}" s="${xf}"/>`;
        // A table marked in this session loses every other mark's fill (see TableModel.remarked).
        const plain = t.remarked && xml ? unmarked.get(styleOf(xml)) : undefined;
        return plain === undefined ? xml : restyle(xml, plain);
      },
      rewritten: (row) => {
        // A total row's new place keeps a cell the table grew over where the total row has none (totalCell).
        if (row >= newBody) return false;
        if (row >= t.rowCount) return true;
        for (let c = 0; c < t.columns.length; c++) if (!written(row, c)) return false;
        return true;
      },
      untouched: (row) => !t.remarked && row < t.rowCount && row < t.oldPhysical && t.columns.length === t.oldWidth && !markedRows.has(row) && lastWrite.row(row) < 0,
      rewrittenIn: (c, rows) => {
        for (let row = 0; row < Math.min(rows, t.rowCount); row++) if (!written(row, c)) return false;
        return true;
      },
      ...kept,
    };
    function written(row: number, c: number): boolean {
      return lastWrite.cell(row, c) >= 0;
    }
    /** Cell c of total row k, under the new last body row: the old total row's cell, moved. */
    function totalCell(k: number, c: number, ref: string, old: RawCell | undefined): string {
      const moved = totalRows[k]?.get(c);
      if (moved !== undefined) return movedTotalCell(moved, ref, newBody - t.oldPhysical, moves);
      // A cell that was below the table: kept, as the body keeps those it grows over; one of the old
      // table's own rows is not left behind in the total row.
      if (old && newBody + k >= t.oldPhysical + t.totals) return old.xml;
      // A new column's cell in the total row is empty, as Excel leaves it, dressed as the row's last cell.
      const xf = c >= t.oldWidth ? styleOf(totalRows[k]?.get(t.oldWidth - 1) ?? '') : 0;
      return xf ? `<c r="${ref}" s="${xf}"/>` : '';
    }
    function bodyCell(row: number, c: number, ref: string, old: RawCell | undefined): string {
        if (row >= t.rowCount) return formulas[c] ? formulaCellXml(ref, formulas[c], style[c]!) : blank(ref, c);
        const i = lastWrite.cell(row, c);
        if (i >= 0) {
          const b = t.blocks[i]!;
          return cellXml(ref, b.rows[row - b.offset]![b.at[c]!] ?? null, style[c]!);
        }
        if (old) return old.xml;
        return formulas[c] ? formulaCellXml(ref, formulas[c], style[c]!) : blank(ref, c);
    }
  });
  const loose = new Map<number, Map<number, (ref: string) => string>>();
  // Decided now: the styles part is written before the sheets stream out.
  const looseXf = [...s.loose.values()].some((m) => [...m.values()].some((v) => typeof v === 'string')) ? textXf() : 0;
  for (const [r, cells] of s.loose) loose.set(r, new Map([...cells].map(([c, v]) => [c, (ref: string) => cellXml(ref, v, typeof v === 'string' ? looseXf : 0)])));

  // The used range, grown to hold the tables and cells written (a larger one than needed is harmless).
  const bounds = { r0: Infinity, c0: Infinity, r1: 0, c1: 0 };
  const grow = (r: number, c: number) => {
    bounds.r0 = Math.min(bounds.r0, r);
    bounds.c0 = Math.min(bounds.c0, c);
    bounds.r1 = Math.max(bounds.r1, r);
    bounds.c1 = Math.max(bounds.c1, c);
  };
  for (const a of areas) {
    grow(a.headerRow, a.col);
    grow(Math.max(a.newLast, a.oldLast), a.col + a.newWidth - 1);
  }
  for (const [r, cells] of s.loose) for (const c of cells.keys()) grow(r, c);
  const dimension = (old?: string) => {
    if (old) {
      const [x, y = x] = old.split(':');
      const p = parseCell(x!);
      const q = parseCell(y!);
      grow(p.row, p.col);
      grow(q.row, q.col);
    }
    return bounds.r0 === Infinity ? 'A1' : `${cellAddress(bounds.r0, bounds.c0)}:${cellAddress(bounds.r1, bounds.c1)}`;
  };

  if (!s.isNew) {
    return {
      tables: areas,
      loose,
      head: (text) => text.replace(/<dimension\s+ref="([^"]*)"\s*\/>/, (_, ref: string) => `<dimension ref="${dimension(ref)}"/>`),
      tail: (text) => text,
      ...(onRow ? { onRow } : {}),
    };
  }
  const cols = [...s.cols]
    .sort(([a], [b]) => a - b)
    .map(([c, v]) => `<col min="${c + 1}" max="${c + 1}" width="${v.width !== undefined ? Math.round((v.width / 5.25) * 100) / 100 : 9.14}"${v.width !== undefined ? ' customWidth="1"' : ''}${v.hidden ? ' hidden="1"' : ''}/>`)
    .join('');
  const validations = s.validations
    .map((v) => `<dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="${v.allowOther ? 0 : 1}" sqref="${v.sqref}"><formula1>${escapeXml(v.source)}</formula1></dataValidation>`)
    .join('');
  const parts = s.tables.map((t) => `<tablePart r:id="${tableRels.get(t)}"/>`).join('');
  return {
    tables: areas,
    loose,
    head: () =>
      `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${REL}"><dimension ref="${dimension()}"/><sheetViews>${sheetView(s.frozenRows)}</sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`,
    tail: () =>
      `</sheetData>${validations ? `<dataValidations count="${s.validations.length}">${validations}</dataValidations>` : ''}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>${parts ? `<tableParts count="${s.tables.length}">${parts}</tableParts>` : ''}</worksheet>`,
    ...(onRow ? { onRow } : {}),
  };
}

export function savePackage(state: FileState, target: string, options: { onRow?(): void; level?: number } = {}): SaveReport {
  const { pkg, workbookPath } = state;
  // Every part is made again from the file as read and the session's changes: a table part, a sheet's
  // registration or the styles made over from the last save's would take its additions twice.
  pkg.reset();
  const tables = state.sheets.flatMap((s) => s.tables);
  const changed = tables.filter((t) => t.changed);

  let stylesPath = pkg.rels(workbookPath).find((r) => r.type.endsWith('/styles'))?.target;
  if (!stylesPath || !pkg.has(stylesPath)) {
    stylesPath = 'xl/styles.xml';
    pkg.set(stylesPath, EMPTY_STYLES);
    pkg.addRel(workbookPath, `${REL}/styles`, stylesPath);
    pkg.addContentType(stylesPath, 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml');
  }
  const styles = new Styles(pkg.text(stylesPath));

  for (const s of state.sheets.filter((x) => x.isNew)) registerSheet(state, s);
  // Only in a workbook made for the template: moving the active tab of a user's workbook would leave
  // their selected sheet and the new one selected together (grouped sheets take every edit twice).
  if (state.activate && state.sheets.every((s) => s.isNew)) activate(state, state.activate);
  const tableRels = new Map<TableModel, string>();
  for (const t of changed) {
    if (t.isNew) {
      tableRels.set(t, pkg.addRel(t.sheet.path, REL_TABLE, t.path));
      pkg.addContentType(t.path, CT_TABLE);
    }
    pkg.set(t.path, tableXml(state, t));
  }
  const existing = changed.filter((t) => !t.isNew);
  if (existing.some((t) => t.sheet.scan?.formulas.has(t)) || changed.some((t) => t.columns.some((c) => c.formula))) dropCalcChain(state);
  if (existing.length) fullCalcOnLoad(state);
  markPivots(state, existing);
  if (state.settingsChanged) saveSettings(state);

  const report: SaveReport = { rewritten: [], added: [], removed: [], copied: 0, keptRows: 0 };
  for (const s of state.sheets) {
    if (!s.isNew && !s.loose.size && !s.tables.some((t) => t.changed)) continue;
    const plan = planSheet(state, s, styles, tableRels, report, options.onRow);
    const residue = s.residue;
    // Every body cell the residue left out is written anew: stream it rather than read the sheet again.
    const area = residue && plan.tables.find((x) => x.headerRow === residue.table.row && x.col === residue.table.col);
    const whole = !!residue && !!area && residue.table.changed && residue.columns.every((c) => area.rewrittenIn(c, residue.table.oldPhysical));
    const pieces: () => Iterable<SheetPiece> = s.isNew
      ? () => [{ kind: 'head', text: '' }, { kind: 'tail', text: '' }]
      : whole
        ? () => residue!.pieces
        : plan.tables.some((a) => a.saved) && (pkg.zip.entries.get(s.path)?.size ?? Infinity) <= KEPT_SHEET
          ? () => (s.pieces ??= [...sheetPieces(pkg.zip.textChunks(s.path))])
          : () => sheetPieces(pkg.zip.textChunks(s.path));
    pkg.set(s.path, () => rewriteSheet(pieces(), plan));
  }
  if (styles.changed) pkg.set(stylesPath, styles.render());

  const fd = openSync(target, 'w');
  Object.assign(report, { added: [...pkg.added], removed: [...pkg.removed] });
  try {
    // Level 1 by default: a refreshed sheet is mostly markup that compresses well at any level, and
    // deflating it at level 6 took three times as long for a file 10-20% smaller (bench/xlsx.ts).
    const zip = new ZipWriter(fd, (options.level ?? state.options.level ?? 1) as 1);
    for (const e of pkg.zip.entries.values()) {
      if (pkg.removed.has(e.name)) continue;
      const content = pkg.replaced.get(e.name);
      if (content === undefined) {
        zip.copy(pkg.zip, e);
        report.copied++;
      } else {
        zip.add(e.name, typeof content === 'string' ? [content] : content());
        report.rewritten.push(e.name);
      }
    }
    for (const name of pkg.added) {
      const content = pkg.replaced.get(name)!;
      zip.add(name, typeof content === 'string' ? [content] : content());
    }
    zip.finish();
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return report;
}


/** The sheet's view: with `frozen` rows, the pane below them scrolls and they stay (View > Freeze Panes). */
function sheetView(frozen: number | undefined): string {
  if (!frozen) return '<sheetView workbookViewId="0"/>';
  const below = cellAddress(frozen, 0);
  return `<sheetView workbookViewId="0"><pane ySplit="${frozen}" topLeftCell="${below}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="${below}" sqref="${below}"/></sheetView>`;
}
