import type { Cell, WorkbookPort } from '../workbook/port';

/**
 * Writes rows' result cells into the table. Writes that arrive while one is in flight are merged into the
 * next round trip (adjacent rows in one block), so eight concurrent sends cost a few workbook syncs, not
 * sixteen. `write` resolves once the cells are in the workbook: a run awaits it before sending.
 */
export interface Journal {
  write(row: number, cells: readonly Cell[]): Promise<void>;
}

interface Pending {
  cells: readonly Cell[];
  done: Array<{ resolve(): void; reject(e: unknown): void }>;
}

export function createJournal(workbook: WorkbookPort, table: string, firstColumn: number): Journal {
  let pending = new Map<number, Pending>();
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (pending.size) {
      const batch = pending;
      pending = new Map();
      const rows = [...batch.keys()].sort((a, b) => a - b);
      const failed = new Map<number, unknown>();
      for (let i = 0; i < rows.length;) {
        let j = i + 1;
        while (j < rows.length && rows[j] === rows[j - 1]! + 1) j++;
        const block = rows.slice(i, j);
        try {
          await workbook.writeRows(
            table,
            block[0]!,
            block.map((r) => batch.get(r)!.cells),
            firstColumn,
          );
        } catch (e) {
          for (const r of block) failed.set(r, e);
        }
        i = j;
      }
      for (const [row, p] of batch) {
        for (const d of p.done) {
          if (failed.has(row)) d.reject(failed.get(row));
          else d.resolve();
        }
      }
    }
    flushing = false;
  }

  return {
    write(row, cells) {
      return new Promise<void>((resolve, reject) => {
        const p = pending.get(row);
        if (p) {
          p.cells = cells;
          p.done.push({ resolve, reject });
        } else pending.set(row, { cells, done: [{ resolve, reject }] });
        if (!flushing) void flush();
      });
    },
  };
}
