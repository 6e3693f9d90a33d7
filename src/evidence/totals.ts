import { z } from 'zod';
import { plainCell } from '../loading/changes';
import type { Cell } from '../sheet/cell-types';
import { DecimalSum, serialText } from './canonical';

/**
 * Control totals of a loaded table, computed from the rows a load or refresh wrote and recomputed by
 * `grc-sheets verify` from the cells the table holds (docs/evidence.md, "Control totals"):
 * - `records`: body rows;
 * - per column, `nonEmpty`: cells that are not empty (an empty text is empty);
 * - per number column, `sum`: the exact decimal sum of the cells that hold numbers (canonical.ts);
 * - per date and date-time column, `earliest`/`latest`: the canonical date texts of the smallest and
 *   largest serial among the cells that hold numbers.
 * A number cell counts at Excel's 15 significant digits (plainCell), as the fingerprints do.
 */
export const TOTALS_METHOD = 'grc-sheets/totals/1';

export const totalKind = z.enum(['number', 'date', 'other']);
export type TotalKind = z.infer<typeof totalKind>;

export const columnTotals = z.strictObject({
  kind: totalKind,
  nonEmpty: z.number().int().nonnegative(),
  sum: z.string().optional(),
  earliest: z.string().optional(),
  latest: z.string().optional(),
});
export type ColumnTotals = z.infer<typeof columnTotals>;

export const controlTotals = z.strictObject({
  method: z.literal(TOTALS_METHOD),
  records: z.number().int().nonnegative(),
  /** In the table's column order (the binding's columns). */
  columns: z.array(z.strictObject({ name: z.string(), ...columnTotals.shape })),
});
export type ControlTotals = z.infer<typeof controlTotals>;

/** The catalogue's column kinds as totals treat them. */
export function totalKindOf(kind: string): TotalKind {
  return kind === 'number' ? 'number' : kind === 'date' || kind === 'datetime' ? 'date' : 'other';
}

const plainNumber = (n: number) => plainCell(n) as number;

export interface Totaller {
  /** One row's cells, in the order of the columns the totaller was made with. */
  add(cells: readonly Cell[]): void;
  done(): ControlTotals;
}

export function totaller(columns: readonly { name: string; kind: TotalKind }[]): Totaller {
  let records = 0;
  const nonEmpty = columns.map(() => 0);
  const sums = columns.map((c) => (c.kind === 'number' ? new DecimalSum() : null));
  const low: (number | null)[] = columns.map(() => null);
  const high: (number | null)[] = columns.map(() => null);
  const isDate = columns.map((c) => c.kind === 'date');
  return {
    add(cells) {
      records++;
      for (let i = 0; i < columns.length; i++) {
        // plainCell's rules, spelled out for speed (a load totals every cell): empty text is empty, and a
        // fraction counts at 15 significant digits, rounded where it is summed (DecimalSum) or at the end
        // (earliest, latest: rounding keeps the order).
        const c = cells[i];
        if (c === null || c === undefined || c === '') continue;
        nonEmpty[i]!++;
        if (typeof c !== 'number') continue;
        sums[i]?.add(c);
        // The serials serialText writes (0 up to 9999-12-31).
        if (isDate[i] && c >= 0 && c < 2_958_466) {
          if (low[i] === null || c < low[i]!) low[i] = c;
          if (high[i] === null || c > high[i]!) high[i] = c;
        }
      }
    },
    done() {
      return {
        method: TOTALS_METHOD,
        records,
        columns: columns.map((c, i) => ({
          name: c.name,
          kind: c.kind,
          nonEmpty: nonEmpty[i]!,
          ...(sums[i] ? { sum: sums[i]!.text() } : {}),
          ...(low[i] !== null ? { earliest: serialText(plainNumber(low[i]!))!, latest: serialText(plainNumber(high[i]!))! } : {}),
        })),
      };
    },
  };
}

/** What differs between recorded totals and totals recomputed from the cells now, in words; empty when they agree. */
export function totalsDiffer(recorded: ControlTotals, now: ControlTotals): { total: string; recorded: string; now: string }[] {
  const out: { total: string; recorded: string; now: string }[] = [];
  if (recorded.records !== now.records) out.push({ total: 'records', recorded: String(recorded.records), now: String(now.records) });
  for (const r of recorded.columns) {
    const n = now.columns.find((c) => c.name === r.name);
    if (!n) {
      out.push({ total: `${r.name}: column`, recorded: 'present', now: 'missing' });
      continue;
    }
    if (r.nonEmpty !== n.nonEmpty) out.push({ total: `${r.name}: non-empty cells`, recorded: String(r.nonEmpty), now: String(n.nonEmpty) });
    if ((r.sum ?? null) !== (n.sum ?? null)) out.push({ total: `${r.name}: sum`, recorded: r.sum ?? '(none)', now: n.sum ?? '(none)' });
    if ((r.earliest ?? null) !== (n.earliest ?? null)) out.push({ total: `${r.name}: earliest`, recorded: r.earliest ?? '(none)', now: n.earliest ?? '(none)' });
    if ((r.latest ?? null) !== (n.latest ?? null)) out.push({ total: `${r.name}: latest`, recorded: r.latest ?? '(none)', now: n.latest ?? '(none)' });
  }
  return out;
}
