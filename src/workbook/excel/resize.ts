import { planChunks, REQUEST_OVERHEAD_BYTES } from '../chunks';
import type { Cell, WriteStats } from '../port';
import { sync, type Ctx, type Host } from './context';
import type { Located } from './locate';

/** Makes the table hold `count` body rows (at least the one Excel insists on). */
export async function resizeBody(ctx: Ctx, host: Host, t: Located, count: number, stats?: WriteStats): Promise<void> {
  const target = Math.max(count, 1);
  const physical = Math.max(t.rowCount, 1);
  if (target === physical) return;
  const width = t.columns.length;
  if (target > physical) {
    if (host.canResize) {
      t.table.resize(t.sheet.getRangeByIndexes(t.row, t.col, target + 1, width));
      await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
    } else {
      // Before ExcelApi 1.13 a table grows only by adding rows; blank ones, in chunks, then overwritten.
      const blank = Array.from({ length: target - physical }, () => new Array<Cell>(width).fill(''));
      for (const chunk of planChunks(blank, width, host.options)) {
        t.table.rows.add(undefined, blank.slice(chunk.rowStart, chunk.rowEnd) as string[][]);
        await sync(ctx, stats, chunk.bytes);
      }
    }
  } else if (host.canDeleteRows) {
    t.table.rows.deleteRowsAt(target, physical - target);
    await sync(ctx, stats, REQUEST_OVERHEAD_BYTES);
  } else if (host.canResize) {
    // The rows left behind are sheet cells now: clear what the table gave them too (formats, fills,
    // notes, dropdowns), or the sheet below the table keeps stray marks and validation.
    const below = t.sheet.getRangeByIndexes(t.row + 1 + target, t.col, physical - target, width);
    if (host.has('1.8')) below.dataValidation.clear();
    below.clear('All');
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
