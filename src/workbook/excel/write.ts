import { cellAddress, quoteSheet } from '../address';
import { jsonBytes, OPERATION_BYTES, planChunks, REQUEST_OVERHEAD_BYTES } from '../chunks';
import { NUMBER_FORMAT } from '../formats';
import type { Cell, ColumnSpec, WriteStats } from '../port';
import { sync, type Ctx, type Host } from './context';
import { lookupSource } from './lists';
import type { Located } from './locate';

/**
 * Writes a 2-D block at sheet positions in planned chunks: formats first, then values or formulas. `null`
 * in the port means an empty cell; Office.js reads null as "leave unchanged", so it is written as "".
 */
export async function writeBlock(
  ctx: Ctx,
  host: Host,
  sheet: Excel.Worksheet,
  row: number,
  col: number,
  rows: readonly (readonly Cell[])[],
  formats: readonly string[],
  stats: WriteStats,
  as: 'values' | 'formulas' = 'values',
): Promise<void> {
  const width = formats.length;
  for (const chunk of planChunks(rows, width, { ...host.options, rowOverheadBytes: jsonBytes(formats) + 1 })) {
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

/** Formats, calculated formulas and dropdowns of the columns [from, from + specs.length) of a table. */
export async function dressColumns(ctx: Ctx, host: Host, t: Located, from: number, specs: readonly ColumnSpec[], stats: WriteStats): Promise<void> {
  const physical = Math.max(t.rowCount, 1);
  // Number formats of all the columns at once: one round trip for a new table's single body row.
  const formats = specs.map((s) => NUMBER_FORMAT[s.format]);
  const empty = Array.from({ length: physical }, () => [] as Cell[]);
  for (const chunk of planChunks(empty, 0, { ...host.options, rowOverheadBytes: jsonBytes(formats) + 1 })) {
    const range = t.sheet.getRangeByIndexes(t.row + 1 + chunk.rowStart, t.col + from, chunk.rowEnd - chunk.rowStart, specs.length);
    range.numberFormat = empty.slice(chunk.rowStart, chunk.rowEnd).map(() => formats);
    await sync(ctx, stats, chunk.bytes);
  }
  await shapeColumns(ctx, host, t, from, specs, stats);
  for (const [i, spec] of specs.entries()) {
    if (spec.formula) {
      const cells = Array.from({ length: physical }, () => [spec.formula ?? null]);
      await writeBlock(ctx, host, t.sheet, t.row + 1, t.col + from + i, cells, [formats[i]!], stats, 'formulas');
    }
    if (spec.list && host.has('1.8')) {
      const source = await lookupSource(ctx, { ...spec, list: spec.list });
      const body = t.table.columns.getItemAt(from + i).getDataBodyRange();
      body.dataValidation.clear();
      body.dataValidation.rule = { list: { inCellDropDown: true, source } };
      // Without the error alert Excel keeps the dropdown but accepts any text (several choices, "A; B").
      if (spec.list.allowOther) body.dataValidation.errorAlert = { showAlert: false, style: 'Information', title: '', message: '' };
      await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
    }
  }
}

/**
 * Width, visibility and header note of the new columns. Range.columnHidden and RangeFormat.columnWidth are
 * ExcelApi 1.2, below the manifest's minimum, but checked all the same: without them the column stays as
 * Excel makes it, which costs looks, not data. A header note needs notes (1.18) or comments (1.10).
 */
async function shapeColumns(ctx: Ctx, host: Host, t: Located, from: number, specs: readonly ColumnSpec[], stats: WriteStats): Promise<void> {
  let queued = 0;
  const notes: { header: string; note: string }[] = [];
  for (const [i, spec] of specs.entries()) {
    if ((spec.width !== undefined || spec.hidden) && host.has('1.2')) {
      const column = t.sheet.getRangeByIndexes(t.row, t.col + from + i, 1, 1).getEntireColumn();
      if (spec.width !== undefined) column.format.columnWidth = spec.width;
      if (spec.hidden) column.columnHidden = true;
      queued++;
    }
    if (spec.headerNote) notes.push({ header: `${quoteSheet(t.sheetName)}!${cellAddress(t.row, t.col + from + i)}`, note: spec.headerNote });
  }
  if (queued) await sync(ctx, stats, REQUEST_OVERHEAD_BYTES + queued * OPERATION_BYTES);
  if (!notes.length || !(host.has('1.18') || host.has('1.10'))) return;
  for (const { header, note } of notes) {
    if (host.has('1.18')) ctx.workbook.notes.add(header, note);
    else ctx.workbook.comments.add(header, note);
  }
  // A note the user already put on that cell stays, and the column is made all the same: the note is a
  // courtesy, the column is the data.
  await sync(ctx, stats, REQUEST_OVERHEAD_BYTES + notes.length * OPERATION_BYTES + jsonBytes(notes)).catch(() => undefined);
}
