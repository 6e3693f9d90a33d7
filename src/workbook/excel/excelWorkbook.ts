import { parseCell } from '../address';
import { jsonBytes, REQUEST_OVERHEAD_BYTES } from '../chunks';
import { WorkbookError, cleanSheetName, uniqueName } from '../errors';
import type { Cell, WorkbookPort, WriteStats } from '../port';
import { columnPicker, writeByRuns } from '../columns';
import { excelCapabilities } from './capabilities';
import { execIn, hostOf, newStats, sync, type Ctx, type ExcelWorkbookOptions, type Requirements } from './context';
import { describe, locate, shape, type Located } from './locate';
import { applyMarks } from './marks';
import { readBody, scanBody } from './read';
import { resizeBody } from './resize';
import { getSetting, setSetting } from './settings';
import { updateRowsIn } from './update';
import { inspectTarget } from './target';
import { dressColumns, writeBlock } from './write';
import { arrangeIn } from './layout';

export type { ExcelWorkbookOptions, Requirements } from './context';

/**
 * The workbook port on Office.js. Every write is planned in chunks by estimated request bytes and sent
 * with one `context.sync()` per chunk, the chunk's number formats queued before its values so text never
 * lands as a formula. The parts live by what they are about: finding tables (locate), their size
 * (resize), cells (write, read, marks), dropdown lists (lists) and settings.
 */
export function createExcelWorkbook(run: typeof Excel.run, requirements: Requirements, options: ExcelWorkbookOptions = {}): WorkbookPort {
  const host = hostOf(requirements, options);
  const exec = <T>(batch: (ctx: Ctx) => Promise<T>) => execIn(run, batch);

  const writeBlockAt = (name: string, offset: number, rows: readonly (readonly Cell[])[], firstColumn: number): Promise<WriteStats> =>
    exec(async (ctx) => {
      const stats = newStats();
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
      if (offset + rows.length > t.rowCount) await resizeBody(ctx, host, t, offset + rows.length, stats);
      await writeBlock(ctx, host, t.sheet, t.row + 1 + offset, t.col + firstColumn, rows, formats, stats);
      return stats;
    });

  return {
    host: 'excel',
    capabilities: excelCapabilities(requirements),

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

    inspectTarget: (sheet, anchor, width) => exec((ctx) => inspectTarget(ctx, host, sheet, anchor, width)),
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
        table.load('id');
        const stats = newStats();
        await sync(ctx, stats, jsonBytes(columns.map((c) => c.name)) * 2 + REQUEST_OVERHEAD_BYTES);
        const t: Located = { table, id: table.id, sheet: ws, sheetName: sheet, name, row, col, columns: columns.map((c) => c.name), rowCount: 0 };
        await dressColumns(ctx, host, t, 0, columns, stats);
        return shape(t);
      }),

    addColumns: (name, columns) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        const from = t.columns.length;
        for (const c of columns) t.table.columns.add(undefined, undefined, c.name);
        await ctx.sync();
        t.columns = [...t.columns, ...columns.map((c) => c.name)];
        await dressColumns(ctx, host, t, from, columns, newStats());
        return shape(t);
      }),

    writeRows: (name, offset, rows, at = 0) =>
      typeof at !== 'number' ? writeByRuns(rows, at, (r, first) => writeBlockAt(name, offset, r, first)) : writeBlockAt(name, offset, rows, at),

    arrangeTable: (name, layout) => exec(async (ctx) => arrangeIn(ctx, host, await locate(ctx, name), layout)),

    setRowCount: (name, rowCount) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        if (rowCount !== t.rowCount) await resizeBody(ctx, host, t, rowCount);
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

    updateRows: (name, updates) => exec(async (ctx) => updateRowsIn(ctx, await locate(ctx, name), updates, host.has('1.9'))),

    readRows: (name, offset = 0, count) => exec(async (ctx) => readBody(ctx, host, await locate(ctx, name), offset, count)),

    scanRows: (name, columns, visit, wanted) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        const pick = columnPicker(t.columns, columns);
        await scanBody(ctx, host, t, 0, t.rowCount, (cells, row) => visit(pick(cells), row), wanted);
        return t.rowCount;
      }),

    markCells: (name, marks) =>
      exec(async (ctx) => {
        const t = await locate(ctx, name);
        await applyMarks(ctx, { sheet: t.sheet, sheetName: t.sheetName, row: t.row, col: t.col, columns: t.columns }, marks, {
          notes: host.has('1.18'),
          comments: host.has('1.10'),
        }, host.options);
      }),

    getSetting: <T>(key: string) => exec((ctx) => getSetting<T>(ctx, key)),

    setSetting: (key, value) => exec((ctx) => setSetting(ctx, key, value)),
  };
}
