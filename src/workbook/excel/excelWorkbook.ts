import { cellAddress, parseCell, quoteSheet, rangeAddress } from '../address';
import { jsonBytes, planChunks, REQUEST_OVERHEAD_BYTES, type ChunkOptions } from '../chunks';
import { WorkbookError, cleanSheetName, isWorkbookError, uniqueName } from '../errors';
import { NUMBER_FORMAT } from '../formats';
import type { Cell, ColumnSpec, TableShape, WorkbookPort, WriteStats } from '../port';
import { applyMarks } from './marks';

/** `Office.context.requirements.isSetSupported`, passed in so this module needs no global. */
export type Requirements = (set: string, version: string) => boolean;

export interface ExcelWorkbookOptions extends ChunkOptions {
  /** `Office.context.platform`: deleting table rows directly is possible only in Excel on the web. */
  platform?: string;
}

type Ctx = Excel.RequestContext;

interface Located {
  table: Excel.Table;
  sheet: Excel.Worksheet;
  sheetName: string;
  name: string;
  /** Header row and first column, 0-based sheet positions. */
  row: number;
  col: number;
  columns: string[];
  /** Body rows as the port counts them: an empty table's single blank row counts as 0. */
  rowCount: number;
}

const LOOKUP_HEADER_ROW = 0;
/** Header cells of the lookup sheet read per round trip; one window holds the lists of most templates. */
const LOOKUP_WINDOW = 256;
/** Columns of an Excel sheet (A to XFD). */
const EXCEL_COLUMNS = 16_384;

/**
 * The workbook port on Office.js. Every write is planned in chunks by estimated request bytes and sent
 * with one `context.sync()` per chunk, the chunk's number formats queued before its values so text never
 * lands as a formula. `null` in the port means an empty cell; Office.js reads null as "leave unchanged",
 * so it is written as "".
 */
export function createExcelWorkbook(run: typeof Excel.run, requirements: Requirements, options: ExcelWorkbookOptions = {}): WorkbookPort {
  const has = (version: string) => requirements('ExcelApi', version);
  const canResize = has('1.13');
  const canDeleteRows = options.platform === 'OfficeOnline' && requirements('ExcelApiOnline', '1.1');

  const exec = async <T>(batch: (ctx: Ctx) => Promise<T>): Promise<T> => {
    try {
      return await run(batch);
    } catch (e) {
      if (isWorkbookError(e)) throw e;
      const err = e as { code?: string; message?: string };
      throw new WorkbookError('host', `Excel refused the change (${err.code ?? 'error'}): ${err.message ?? String(e)}`);
    }
  };

  async function locate(ctx: Ctx, name: string): Promise<Located> {
    const table = ctx.workbook.tables.getItemOrNullObject(name);
    table.load('isNullObject');
    await ctx.sync();
    if (table.isNullObject) throw new WorkbookError('table-not-found', `There is no table named ${name} in this workbook.`);
    return describe(ctx, [table]).then((all) => all[0]!);
  }

  async function describe(ctx: Ctx, tables: Excel.Table[]): Promise<Located[]> {
    const parts = tables.map((table) => {
      const sheet = table.worksheet;
      const header = table.getHeaderRowRange();
      const body = table.getDataBodyRange();
      table.load('name');
      sheet.load('name');
      header.load('values,rowIndex,columnIndex');
      body.load('rowCount');
      return { table, sheet, header, body };
    });
    await ctx.sync();
    // Excel keeps one blank body row in a table without data; it is not a row of data.
    const single = parts.filter((p) => p.body.rowCount === 1).map((p) => ({ p, first: p.body.load('values') }));
    if (single.length) await ctx.sync();
    const blank = new Set(single.filter(({ first }) => first.values[0]!.every((v) => v === '' || v === null)).map(({ p }) => p));
    return parts.map((p) => ({
      table: p.table,
      sheet: p.sheet,
      sheetName: p.sheet.name,
      name: p.table.name,
      row: p.header.rowIndex,
      col: p.header.columnIndex,
      columns: (p.header.values[0] ?? []).map(String),
      rowCount: blank.has(p) ? 0 : p.body.rowCount,
    }));
  }

  const shape = (t: Located): TableShape => ({ name: t.name, sheet: t.sheetName, topLeft: cellAddress(t.row, t.col), columns: t.columns, rowCount: t.rowCount });

  /** Makes the table hold `count` body rows (at least the one Excel insists on). */
  async function resizeBody(ctx: Ctx, t: Located, count: number, stats?: WriteStats): Promise<void> {
    const target = Math.max(count, 1);
    const physical = Math.max(t.rowCount, 1);
    if (target === physical) return;
    const width = t.columns.length;
    if (target > physical) {
      if (canResize) {
        t.table.resize(t.sheet.getRangeByIndexes(t.row, t.col, target + 1, width));
        await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
      } else {
        // Before ExcelApi 1.13 a table grows only by adding rows; blank ones, in chunks, then overwritten.
        const blank = Array.from({ length: target - physical }, () => new Array<Cell>(width).fill(''));
        for (const chunk of planChunks(blank, width, options)) {
          t.table.rows.add(undefined, blank.slice(chunk.rowStart, chunk.rowEnd) as string[][]);
          await sync(ctx, stats, chunk.bytes);
        }
      }
    } else if (canDeleteRows) {
      t.table.rows.deleteRowsAt(target, physical - target);
      await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
    } else if (canResize) {
      t.sheet.getRangeByIndexes(t.row + 1 + target, t.col, physical - target, width).clear('Contents');
      t.table.resize(t.sheet.getRangeByIndexes(t.row, t.col, target + 1, width));
      await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
    } else {
      // Deleting cells inside a table with shift-up removes those table rows on every platform.
      t.sheet.getRangeByIndexes(t.row + 1 + target, t.col, physical - target, width).delete('Up');
      await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
    }
    if (count === 0) t.sheet.getRangeByIndexes(t.row + 1, t.col, 1, width).clear('Contents');
    t.rowCount = count;
  }

  async function sync(ctx: Ctx, stats: WriteStats | undefined, bytes: number): Promise<void> {
    await ctx.sync();
    if (stats) {
      stats.syncs++;
      stats.maxPayloadBytes = Math.max(stats.maxPayloadBytes, bytes);
    }
  }

  /** Writes a 2-D block at sheet positions in planned chunks: formats first, then values or formulas. */
  async function writeBlock(
    ctx: Ctx,
    sheet: Excel.Worksheet,
    row: number,
    col: number,
    rows: readonly (readonly Cell[])[],
    formats: readonly string[],
    stats: WriteStats,
    as: 'values' | 'formulas' = 'values',
  ): Promise<void> {
    const width = formats.length;
    for (const chunk of planChunks(rows, width, { ...options, rowOverheadBytes: jsonBytes(formats) + 1 })) {
      const cols = chunk.colEnd - chunk.colStart;
      const fmt = formats.slice(chunk.colStart, chunk.colEnd);
      const values: (string | number | boolean)[][] = new Array(chunk.rowEnd - chunk.rowStart);
      for (let r = chunk.rowStart; r < chunk.rowEnd; r++) {
        const src = rows[r]!;
        const out = new Array<string | number | boolean>(cols);
        for (let c = 0; c < cols; c++) out[c] = src[chunk.colStart + c] ?? '';
        values[r - chunk.rowStart] = out;
      }
      ctx.workbook.application.suspendApiCalculationUntilNextSync();
      const range = sheet.getRangeByIndexes(row + chunk.rowStart, col + chunk.colStart, values.length, cols);
      range.numberFormat = values.map(() => fmt);
      range[as] = values;
      await sync(ctx, stats, chunk.bytes);
    }
  }

  /**
   * The lookup sheet's column for a list: the one headed by its name (the list is rewritten), else the
   * first one with a blank header. Lists are added left to right, so the header row is read a window at a
   * time until a window ends blank: a sheet with many lists never has its first list overwritten, and a
   * sheet whose every column holds a list is refused.
   */
  async function lookupColumn(ctx: Ctx, lookup: Excel.Worksheet, sheet: string, name: string): Promise<number> {
    let free = -1;
    for (let start = 0; start < EXCEL_COLUMNS; start += LOOKUP_WINDOW) {
      const headers = lookup.getRangeByIndexes(LOOKUP_HEADER_ROW, start, 1, Math.min(LOOKUP_WINDOW, EXCEL_COLUMNS - start));
      headers.load('values');
      await ctx.sync();
      const row = headers.values[0]!;
      const named = row.findIndex((v) => v === name);
      if (named >= 0) return start + named;
      const blank = row.findIndex((v) => v === '' || v === null);
      if (free < 0 && blank >= 0) free = start + blank;
      const last = row[row.length - 1];
      if (last === '' || last === null) break;
    }
    if (free < 0)
      throw new WorkbookError(
        'overlap',
        `The sheet ${sheet} has no free column for the dropdown list of ${name}: every column holds a list. Clear the lists no table uses (their header in row 1 and the values below it), then try again.`,
      );
    return free;
  }

  /** The list of a dropdown on the lookup sheet (hidden, made when missing), as an absolute reference. */
  async function lookupSource(ctx: Ctx, spec: ColumnSpec & { list: NonNullable<ColumnSpec['list']> }): Promise<string> {
    let lookup = ctx.workbook.worksheets.getItemOrNullObject(spec.list.sheet);
    lookup.load('isNullObject');
    await ctx.sync();
    if (lookup.isNullObject) {
      lookup = ctx.workbook.worksheets.add(spec.list.sheet);
      lookup.visibility = 'Hidden';
    }
    const col = await lookupColumn(ctx, lookup, spec.list.sheet, spec.name);
    const values = [[spec.name], ...spec.list.values.map((v) => [v])];
    const target = lookup.getRangeByIndexes(LOOKUP_HEADER_ROW, col, values.length, 1);
    target.numberFormat = values.map(() => ['@']);
    target.values = values;
    const first = rangeAddress(LOOKUP_HEADER_ROW + 1, col, Math.max(spec.list.values.length, 1), 1).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2');
    return `=${quoteSheet(spec.list.sheet)}!${first}`;
  }

  /** Formats, calculated formulas and dropdowns of the columns [from, from + specs.length) of a table. */
  async function dressColumns(ctx: Ctx, t: Located, from: number, specs: readonly ColumnSpec[], stats: WriteStats): Promise<void> {
    const physical = Math.max(t.rowCount, 1);
    // Number formats of all the columns at once: one round trip for a new table's single body row.
    const formats = specs.map((s) => NUMBER_FORMAT[s.format]);
    const empty = Array.from({ length: physical }, () => [] as Cell[]);
    for (const chunk of planChunks(empty, 0, { ...options, rowOverheadBytes: jsonBytes(formats) + 1 })) {
      const range = t.sheet.getRangeByIndexes(t.row + 1 + chunk.rowStart, t.col + from, chunk.rowEnd - chunk.rowStart, specs.length);
      range.numberFormat = empty.slice(chunk.rowStart, chunk.rowEnd).map(() => formats);
      await sync(ctx, stats, chunk.bytes);
    }
    for (const [i, spec] of specs.entries()) {
      if (spec.formula) {
        const cells = Array.from({ length: physical }, () => [spec.formula ?? null]);
        await writeBlock(ctx, t.sheet, t.row + 1, t.col + from + i, cells, [formats[i]!], stats, 'formulas');
      }
      if (spec.list && has('1.8')) {
        const source = await lookupSource(ctx, { ...spec, list: spec.list });
        const body = t.table.columns.getItemAt(from + i).getDataBodyRange();
        body.dataValidation.clear();
        body.dataValidation.rule = { list: { inCellDropDown: true, source } };
        // Without the error alert Excel keeps the dropdown but accepts any text (several choices, "A; B").
        if (spec.list.allowOther)
          body.dataValidation.errorAlert = { showAlert: false, style: 'Information', title: '', message: '' };
        await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
      }
    }
  }

  const workbook: WorkbookPort = {
    host: 'excel',
    capabilities: { notes: has('1.18'), dataValidation: has('1.8') },

    sheetNames: () =>
      exec(async (ctx) => {
        const sheets = ctx.workbook.worksheets.load('items/name');
        await ctx.sync();
        return sheets.items.map((s) => s.name);
      }),

    addSheet: (name, opts = {}) =>
      exec(async (ctx) => {
        const sheets = ctx.workbook.worksheets.load('items/name');
        await ctx.sync();
        const taken = new Set(sheets.items.map((s) => s.name.toLowerCase()));
        const unique = uniqueName(cleanSheetName(name), (n) => taken.has(n.toLowerCase()), 31);
        const sheet = ctx.workbook.worksheets.add(unique);
        if (opts.hidden) sheet.visibility = 'Hidden';
        if (opts.activate) sheet.activate();
        await ctx.sync();
        return unique;
      }),

    selection: () =>
      exec(async (ctx) => {
        const range = ctx.workbook.getSelectedRange().load('address');
        await ctx.sync();
        const bang = range.address.lastIndexOf('!');
        const sheet = range.address.slice(0, bang).replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
        return { sheet, address: range.address.slice(bang + 1).split(':')[0]!.replace(/\$/g, '') };
      }),

    select: (sheet, address) =>
      exec(async (ctx) => {
        const ws = ctx.workbook.worksheets.getItemOrNullObject(sheet);
        ws.load('isNullObject');
        await ctx.sync();
        if (ws.isNullObject) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
        // Range.select (ExcelApi 1.1) also shows the range's sheet.
        ws.getRange(address).select();
        await ctx.sync();
      }),

    listTables: () =>
      exec(async (ctx) => {
        const tables = ctx.workbook.tables.load('items/name');
        await ctx.sync();
        return (await describe(ctx, tables.items)).map(shape);
      }),

    findTable: (name) =>
      exec(async (ctx) => {
        const table = ctx.workbook.tables.getItemOrNullObject(name);
        table.load('isNullObject');
        await ctx.sync();
        return table.isNullObject ? null : shape((await describe(ctx, [table]))[0]!);
      }),

    createTable: ({ name, sheet, anchor, columns }) =>
      exec(async (ctx) => {
        if (!columns.length) throw new WorkbookError('bad-argument', 'A table needs at least one column.');
        const ws = ctx.workbook.worksheets.getItemOrNullObject(sheet);
        ws.load('isNullObject');
        await ctx.sync();
        if (ws.isNullObject) throw new WorkbookError('sheet-not-found', `There is no sheet named ${sheet}.`);
        const { row, col } = parseCell(anchor);
        const header = ws.getRangeByIndexes(row, col, 1, columns.length);
        header.numberFormat = [columns.map(() => '@')];
        header.values = [columns.map((c) => c.name)];
        const table = ws.tables.add(header, true);
        table.name = name;
        const stats: WriteStats = { syncs: 0, maxPayloadBytes: 0 };
        await sync(ctx, stats, jsonBytes(columns.map((c) => c.name)) * 2 + REQUEST_OVERHEAD_BYTES);
        const t: Located = { table, sheet: ws, sheetName: sheet, name, row, col, columns: columns.map((c) => c.name), rowCount: 0 };
        await dressColumns(ctx, t, 0, columns, stats);
        return shape(t);
      }),

    addColumns: (name, columns) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        const from = t.columns.length;
        for (const c of columns) t.table.columns.add(undefined, undefined, c.name);
        await ctx.sync();
        t.columns = [...t.columns, ...columns.map((c) => c.name)];
        await dressColumns(ctx, t, from, columns, { syncs: 0, maxPayloadBytes: 0 });
        return shape(t);
      }),

    writeRows: (name, offset, rows, firstColumn = 0) =>
      exec(async (ctx) => {
        const stats: WriteStats = { syncs: 0, maxPayloadBytes: 0 };
        if (!rows.length) return stats;
        const t = await locate(ctx, name);
        const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
        if (firstColumn + width > t.columns.length) {
          throw new WorkbookError('bad-argument', `Rows of ${width} cells from column ${firstColumn} do not fit the ${t.columns.length} columns of ${name}.`);
        }
        // The formats the columns were given when made: read from the first body row, the one row that
        // always exists.
        const firstRow = t.sheet.getRangeByIndexes(t.row + 1, t.col + firstColumn, 1, width).load('numberFormat');
        await ctx.sync();
        const formats = (firstRow.numberFormat[0] ?? []).map(String);
        if (offset + rows.length > t.rowCount) await resizeBody(ctx, t, offset + rows.length, stats);
        await writeBlock(ctx, t.sheet, t.row + 1 + offset, t.col + firstColumn, rows, formats, stats);
        return stats;
      }),

    setRowCount: (name, rowCount) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        if (rowCount !== t.rowCount) await resizeBody(ctx, t, rowCount);
        await ctx.sync();
      }),

    deleteTable: (name) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        const area = t.sheet.getRangeByIndexes(t.row, t.col, Math.max(t.rowCount, 1) + 1, t.columns.length);
        t.table.delete();
        area.clear('All');
        await ctx.sync();
      }),

    deleteSheet: (sheet) =>
      exec(async (ctx) => {
        ctx.workbook.worksheets.getItem(sheet).delete();
        await ctx.sync();
      }),

    readRows: (name, offset = 0, count) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        const n = Math.max(0, Math.min(t.rowCount - offset, count ?? t.rowCount));
        if (n === 0) return { columns: t.columns, rows: [] };
        const range = t.sheet.getRangeByIndexes(t.row + 1 + offset, t.col, n, t.columns.length).load('values');
        await ctx.sync();
        return { columns: t.columns, rows: range.values.map((r) => r.map((v: unknown) => (v === '' || v === undefined ? null : (v as Cell)))) };
      }),

    markCells: (name, marks) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        await applyMarks(ctx, { sheet: t.sheet, sheetName: t.sheetName, row: t.row, col: t.col, columns: t.columns }, marks, {
          notes: has('1.18'),
          comments: has('1.10'),
        });
      }),

    getSetting: <T>(key: string) =>
      exec(async (ctx) => {
        const item = ctx.workbook.settings.getItemOrNullObject(key);
        item.load('isNullObject,value');
        await ctx.sync();
        if (item.isNullObject) return undefined;
        return (typeof item.value === 'string' ? JSON.parse(item.value) : item.value) as T;
      }),

    setSetting: (key, value) =>
      exec(async (ctx) => {
        // Stored as JSON text: settings keep strings faithfully in every host, structured values less so.
        if (value !== undefined) ctx.workbook.settings.add(key, JSON.stringify(value));
        else {
          const item = ctx.workbook.settings.getItemOrNullObject(key).load('isNullObject');
          await ctx.sync();
          if (!item.isNullObject) item.delete();
        }
        await ctx.sync();
      }),
  };
  return workbook;
}
