import { cellAddress, quoteSheet } from '../address';
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

/**
 * Marks cells: a fill colour always; the text as a note where notes exist (ExcelApi 1.18), else as a
 * comment (1.10), else the fill alone (the write-back's status column still carries the text).
 */
export async function applyMarks(
  ctx: Excel.RequestContext,
  where: Where,
  marks: readonly CellMark[],
  support: { notes: boolean; comments: boolean },
): Promise<void> {
  const located = marks.map((m) => {
    const c = where.columns.indexOf(m.column);
    if (c < 0) throw new WorkbookError('bad-argument', `Table has no column ${m.column}.`);
    const local = cellAddress(where.row + 1 + m.row, where.col + c);
    return { mark: m, local, full: `${quoteSheet(where.sheetName)}!${local}` };
  });
  for (const { mark, local } of located) {
    const range = where.sheet.getRange(local);
    if (mark.kind === 'none') range.format.fill.clear();
    else range.format.fill.color = MARK_FILL[mark.kind];
  }
  if (support.notes) {
    const existing = located.map((l) => ({ ...l, note: ctx.workbook.notes.getItemOrNullObject(l.full).load('isNullObject') }));
    await ctx.sync();
    for (const { mark, full, note } of existing) {
      const text = mark.kind === 'none' ? undefined : mark.note;
      if (!note.isNullObject) {
        if (text) note.content = text;
        else note.delete();
      } else if (text) ctx.workbook.notes.add(full, text);
    }
  } else if (support.comments) {
    const comments = ctx.workbook.comments.load('items');
    await ctx.sync();
    const places = comments.items.map((c) => ({ comment: c, at: c.getLocation().load('address') }));
    await ctx.sync();
    const byCell = new Map(places.map((p) => [p.at.address.replace(/\$/g, '').toLowerCase(), p.comment]));
    for (const { mark, full } of located) {
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
