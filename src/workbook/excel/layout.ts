import { OPERATION_BYTES, REQUEST_OVERHEAD_BYTES } from '../chunks';
import type { TableLayout } from '../port';
import { newStats, sync, type Ctx, type Host } from './context';
import type { Located } from './locate';

/**
 * A new table's column widths and frozen header row, in one round trip. RangeFormat.columnWidth is ExcelApi
 * 1.2 and WorksheetFreezePanes 1.7, both below the manifest's 1.8 but checked all the same: without them
 * the table keeps Excel's widths and scrolls its header away, which costs looks, not data. Set widths
 * rather than `autofitColumns`: autofit has no cap, and a 2,000-character description would make one
 * column wider than the screen.
 */
export async function arrangeIn(ctx: Ctx, host: Host, t: Located, layout: TableLayout): Promise<void> {
  let queued = 0;
  if (host.has('1.2')) {
    layout.widths.slice(0, t.columns.length).forEach((w, i) => {
      t.sheet.getRangeByIndexes(t.row, t.col + i, 1, 1).getEntireColumn().format.columnWidth = w;
      queued++;
    });
  }
  if (layout.freezeHeader && host.has('1.7')) {
    t.sheet.freezePanes.freezeRows(t.row + 1);
    queued++;
  }
  if (queued) await sync(ctx, newStats(), REQUEST_OVERHEAD_BYTES + queued * OPERATION_BYTES);
}
