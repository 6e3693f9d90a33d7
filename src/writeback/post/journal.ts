import type { Cell, WorkbookPort } from '../../workbook/port';

/**
 * Writes rows' result cells into the table, each row found by its key (see rowkey.ts) at the moment of
 * writing. Writes that arrive while one is in flight are merged into the next round trip, so eight
 * concurrent sends cost a few workbook syncs, not sixteen. `write` resolves once the cells are in the
 * workbook, with the row's position then, or null when the row is gone (deleted): a run awaits it before
 * sending.
 */
export interface Journal {
  /**
   * `state`: the row's state cell (rows/state.ts), written with the result. `durable`: resolves only once
   * the workbook has made the write survive a crash (`WorkbookPort.persist`), as a "sending" mark must
   * before its request leaves; an outcome need not wait (a crash before it is kept leaves the mark, and
   * the next Post looks for the record). A durable write whose save fails rejects: nothing may be sent on it.
   */
  write(key: string, cells: readonly Cell[], state?: Cell, durable?: boolean): Promise<number | null>;
}

interface Pending {
  cells: readonly Cell[];
  state: Cell | undefined;
  durable: boolean;
  done: Array<{ resolve(row: number | null): void; reject(e: unknown): void }>;
}

export function createJournal(
  workbook: WorkbookPort,
  table: string,
  at: { resultStart: number; keyColumn: string; stateColumn?: number },
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
      // A durable write whose save failed is refused, though its cells are in the workbook: its row must
      // not be sent on a mark that a crash would lose.
      let unsaved: unknown;
      // The state cell is not beside the results in a table keyed before it existed: a second update, after
      // the result updates, so `rows[i]` stays the result's row.
      const states = batch.filter(([, p]) => p.state !== undefined && at.stateColumn !== undefined);
      try {
        rows = await workbook.updateRows(table, [
          ...batch.map(([key, p]) => ({ where: { [at.keyColumn]: key }, firstColumn: at.resultStart, cells: p.cells })),
          ...states.map(([key, p]) => ({ where: { [at.keyColumn]: key }, firstColumn: at.stateColumn!, cells: [p.state!] })),
        ]);
      } catch (e) {
        error = e;
      }
      try {
        if (rows && workbook.persist && batch.some(([, p]) => p.durable)) await workbook.persist();
      } catch (e) {
        unsaved = e ?? new Error('the save failed');
      }
      batch.forEach(([, p], i) => {
        for (const d of p.done) {
          if (!rows) d.reject(error);
          else if (p.durable && unsaved !== undefined) d.reject(unsaved);
          else d.resolve(rows[i] ?? null);
        }
      });
    }
    flushing = false;
  }

  return {
    write(key, cells, state, durable = false) {
      return new Promise<number | null>((resolve, reject) => {
        const p = pending.get(key);
        if (p) {
          p.cells = cells;
          p.state = state;
          p.durable ||= durable;
          p.done.push({ resolve, reject });
        } else pending.set(key, { cells, state, durable, done: [{ resolve, reject }] });
        if (!flushing) void flush();
      });
    },
  };
}
