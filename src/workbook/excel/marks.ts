import { cellAddress, quoteSheet } from '../address';
import { jsonBytes, OPERATION_BYTES, planGroups, type ChunkOptions } from '../chunks';
import { WorkbookError } from '../errors';
import type { CellMark, MarkKind } from '../port';

/** Fill colours of marks: readable in light and dark Office themes, and with a note they are not the only signal. */
export const MARK_FILL: Record<Exclude<MarkKind, 'none'>, string> = {
  error: '#F4CCCC',
  warning: '#FFF2CC',
  ok: '#D9EAD3',
};

interface Where {
  sheet: Excel.Worksheet;
  sheetName: string;
  row: number;
  col: number;
  columns: string[];
}

/** Fill, note lookup and note write of one mark: three operations, each naming the cell. */
const markBytes = (full: string, note: string | undefined) => 3 * (OPERATION_BYTES + jsonBytes(full)) + jsonBytes(note ?? '') + 10;

/**
 * Marks cells: a fill colour always; the text as a note where notes exist (ExcelApi 1.18), else as a
 * comment (1.10), else the fill alone (the write-back's status column still carries the text). Marks go
 * in groups planned like writes, so marking every row of a big import stays under Excel's request limit.
 */
export async function applyMarks(
  ctx: Excel.RequestContext,
  where: Where,
  marks: readonly CellMark[],
  support: { notes: boolean; comments: boolean },
  options: ChunkOptions = {},
): Promise<void> {
  const located = marks.map((m) => {
    const c = where.columns.indexOf(m.column);
    if (c < 0) throw new WorkbookError('bad-argument', `Table has no column ${m.column}.`);
    const local = cellAddress(where.row + 1 + m.row, where.col + c);
    return { mark: m, local, full: `${quoteSheet(where.sheetName)}!${local}` };
  });
  let byCell: Map<string, Excel.Comment> | undefined;
  if (!support.notes && support.comments) {
    const comments = ctx.workbook.comments.load('items');
    await ctx.sync();
    const places = comments.items.map((c) => ({ comment: c, at: c.getLocation().load('address') }));
    await ctx.sync();
    byCell = new Map(places.map((p) => [p.at.address.replace(/\$/g, '').toLowerCase(), p.comment]));
  }
  for (const group of planGroups(located.map((l) => markBytes(l.full, l.mark.note)), options)) {
    const part = located.slice(group.start, group.end);
    for (const { mark, local } of part) {
      const range = where.sheet.getRange(local);
      if (mark.kind === 'none') range.format.fill.clear();
      else range.format.fill.color = MARK_FILL[mark.kind];
    }
    if (support.notes) {
      const existing = part.map((l) => ({ ...l, note: ctx.workbook.notes.getItemOrNullObject(l.full).load('isNullObject') }));
      await ctx.sync();
      for (const { mark, full, note } of existing) {
        const text = mark.kind === 'none' ? undefined : mark.note;
        if (!note.isNullObject) {
          if (text) note.content = text;
          else note.delete();
        } else if (text) ctx.workbook.notes.add(full, text);
      }
    } else if (byCell) {
      for (const { mark, full } of part) {
        const text = mark.kind === 'none' ? undefined : mark.note;
        const comment = byCell.get(full.toLowerCase()) ?? byCell.get(full.replace(/^'(.*)'!/, '$1!').toLowerCase());
        if (comment) {
          if (text) comment.content = text;
          else comment.delete();
        } else if (text) ctx.workbook.comments.add(full, text);
      }
    }
    await ctx.sync();
  }
}
