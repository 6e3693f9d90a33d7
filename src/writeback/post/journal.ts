import type { Cell, WorkbookPort } from '../../workbook/port';

/**
 * Writes rows' result cells into the table, each row found by its key (see rowkey.ts) at the moment of
 * writing. Writes that arrive while one is in flight are merged into the next round trip, so eight
 * concurrent sends cost a few workbook syncs, not sixteen. `write` resolves once the cells are in the
 * workbook, with the row's position then, or null when the row is gone (deleted): a run awaits it before
 * sending.
 */
export interface Journal {
  write(key: string, cells: readonly Cell[]): Promise<number | null>;
}

interface Pending {
  cells: readonly Cell[];
  done: Array<{ resolve(row: number | null): void; reject(e: unknown): void }>;
}

export function createJournal(
  workbook: WorkbookPort,
  table: string,
  at: { resultStart: number; keyColumn: string },
): Journal {
  let pending = new Map<string, Pending>();
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (pending.size) {
      const batch = [...pending];
      pending = new Map();
      let rows: (number | null)[] | undefined;
      let error: unknown;
      try {
        rows = await workbook.updateRows(
          table,
          batch.map(([key, p]) => ({ where: { [at.keyColumn]: key }, firstColumn: at.resultStart, cells: p.cells })),
        );
      } catch (e) {
        error = e;
      }
      batch.forEach(([, p], i) => {
        for (const d of p.done) {
          if (!rows) d.reject(error);
          else d.resolve(rows[i] ?? null);
        }
      });
    }
    flushing = false;
  }

  return {
    write(key, cells) {
      return new Promise<number | null>((resolve, reject) => {
        const p = pending.get(key);
        if (p) {
          p.cells = cells;
          p.done.push({ resolve, reject });
        } else pending.set(key, { cells, done: [{ resolve, reject }] });
        if (!flushing) void flush();
      });
    },
  };
}
