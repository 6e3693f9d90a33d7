import type { Cell, RowUpdate, WorkbookPort } from '../workbook/port';
import type { RowRef } from './rowkey';

/**
 * Writes rows' result cells into the table, each row found by its key at the moment of writing (see
 * rowkey.ts). Writes that arrive while one is in flight are merged into the next round trip, so eight
 * concurrent sends cost a few workbook syncs, not sixteen. `write` resolves once the cells are in the
 * workbook, with the row's position then, or null when the row is gone (deleted, or its cells edited
 * before it had a key): a run awaits it before sending.
 */
export interface Journal {
  write(ref: RowRef, cells: readonly Cell[]): Promise<number | null>;
}

interface Pending {
  ref: RowRef;
  cells: readonly Cell[];
  done: Array<{ resolve(row: number | null): void; reject(e: unknown): void }>;
}

export interface JournalColumns {
  /** Index of the first result column. */
  resultStart: number;
  keyColumn: string;
  keyIndex: number;
}

export function createJournal(workbook: WorkbookPort, table: string, at: JournalColumns): Journal {
  let pending = new Map<string, Pending>();
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (pending.size) {
      const batch = [...pending.values()];
      pending = new Map();
      const updates: RowUpdate[] = [];
      const resultAt: number[] = [];
      for (const p of batch) {
        // A row's first write puts its key in, found by its cells; every later one finds it by the key.
        // (A blank key is part of the match: of identical rows, each takes one not taken yet.)
        if (!p.ref.keyed)
          updates.push({ where: { ...p.ref.where, [at.keyColumn]: null }, firstColumn: at.keyIndex, cells: [p.ref.key] });
        resultAt.push(updates.length);
        updates.push({ where: { [at.keyColumn]: p.ref.key }, firstColumn: at.resultStart, cells: p.cells });
      }
      let rows: (number | null)[] | undefined;
      let error: unknown;
      try {
        rows = await workbook.updateRows(table, updates);
      } catch (e) {
        error = e;
      }
      batch.forEach((p, i) => {
        const row = rows?.[resultAt[i]!] ?? null;
        if (row !== null) {
          p.ref.keyed = true;
          p.ref.where = { [at.keyColumn]: p.ref.key };
        }
        for (const d of p.done) {
          if (!rows) d.reject(error);
          else d.resolve(row);
        }
      });
    }
    flushing = false;
  }

  return {
    write(ref, cells) {
      return new Promise<number | null>((resolve, reject) => {
        const p = pending.get(ref.key);
        if (p) {
          p.cells = cells;
          p.done.push({ resolve, reject });
        } else pending.set(ref.key, { ref, cells, done: [{ resolve, reject }] });
        if (!flushing) void flush();
      });
    },
  };
}
