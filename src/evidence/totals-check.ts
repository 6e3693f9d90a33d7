import type { LoadRecord } from '../loading/loadrecords';
import type { Cell } from '../sheet/cell-types';
import { totalsDiffer, totaller, type ControlTotals } from './totals';

/** The control totals recomputed from a table's cells against those its last load recorded. */
export interface TotalsFinding {
  status: 'verified' | 'differ' | 'absent';
  message: string;
  differ?: { total: string; recorded: string; now: string }[];
}

/** Feeds a table's cells (in the order of `columns`) to totals over the recorded totals' columns. */
export function totalsScanner(recorded: ControlTotals, columns: readonly string[], present: readonly string[]) {
  const at = recorded.columns.map((c) => (present.includes(c.name) ? columns.indexOf(c.name) : -1));
  const t = totaller(recorded.columns.map((c) => ({ name: c.name, kind: c.kind })));
  const row = new Array<Cell>(at.length);
  return {
    add(cells: readonly Cell[]) {
      for (let i = 0; i < at.length; i++) row[i] = at[i]! < 0 ? null : cells[at[i]!]!;
      t.add(row);
    },
    done: () => t.done(),
  };
}

export function totalsFinding(b: LoadRecord, now: ControlTotals | null, missingColumns: readonly string[]): TotalsFinding {
  const recorded = b.evidence?.totals;
  if (!recorded || !now) return { status: 'absent', message: 'no control totals kept (loaded before they were)' };
  const differ = totalsDiffer(recorded, now).map((d) => (missingColumns.some((m) => d.total.startsWith(`${m}:`)) ? { ...d, now: `${d.now} (column gone)` } : d));
  if (!differ.length) return { status: 'verified', message: `${recorded.columns.length + 1} control totals add up` };
  return { status: 'differ', differ, message: `control totals differ: ${differ.slice(0, 6).map((d) => `${d.total} was ${d.recorded}, now ${d.now}`).join('; ')}${differ.length > 6 ? ` and ${differ.length - 6} more` : ''}` };
}

