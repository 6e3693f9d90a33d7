import type { Column } from '../sheet';
import { describeChanges, type FieldChange } from './changes';
import type { BeforeRefresh } from './refreshread';
import { changeRows, writeChanges } from './changesheet';
import type { TableShape, WorkbookPort } from '../workbook/port';
import type { RefreshChanges } from './outcome';

/** What a refresh changed: the Changes sheet's rows, the marked cells, and the summary's words. */

/** Writes the Changes rows and, when asked, marks the changed cells; returns what the result reports. */
export async function recordChanges(
  workbook: WorkbookPort,
  table: TableShape,
  dataset: string,
  compared: BeforeRefresh['compared'],
  keyColumns: readonly string[],
  highlight: boolean,
): Promise<RefreshChanges> {
  const { summary, changes, truncated } = compared;
  const any = summary.added + summary.removed + summary.fields > 0;
  const sheet = any ? await writeChanges(workbook, changeRows(changes, { time: new Date().toISOString(), table: table.name, dataset })) : null;
  if (highlight && any) {
    const keyColumn = keyColumns.find((k) => table.columns.includes(k)) ?? table.columns[0]!;
    const show = (c: FieldChange) => (c.old === null ? '(empty)' : String(c.old));
    const marks = changes
      .filter((c) => c.kind !== 'removed' && table.columns.includes(c.field || keyColumn))
      .map((c) =>
        c.kind === 'added'
          ? { row: c.row, column: keyColumn, kind: 'ok' as const, note: 'Added by the last refresh.' }
          : { row: c.row, column: c.field, kind: 'warning' as const, note: `Changed by the last refresh; was ${show(c)}.` },
      );
    await workbook.markCells(table.name, marks);
  }
  return { summary, text: describeChanges(summary), listed: changes.length, truncated, sheet, columnsAdded: [], columnsEmptied: [] };
}

/** The refresh summary says when columns came or went, so a new or emptied column is never a surprise. */
export function columnNotes(changes: RefreshChanges, added: readonly Column[], emptied: readonly string[]): RefreshChanges {
  // A table loaded before many fields existed gets them all at once: the first few are named, the rest counted.
  const list = (names: readonly string[]) => {
    const shown = names.slice(0, 3).map((n) => `"${n}"`).join(', ');
    return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
  };
  const notes = [
    added.length ? `new ${added.length === 1 ? 'column' : 'columns'} ${list(added.map((c) => c.name))} added at the end` : '',
    emptied.length ? `${list(emptied)} no longer sent: kept, empty` : '',
  ].filter(Boolean);
  return { ...changes, columnsAdded: added.map((c) => c.name), columnsEmptied: [...emptied], text: [changes.text, ...notes].join('; ') };
}
