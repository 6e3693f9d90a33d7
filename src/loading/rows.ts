import type { DataRecord } from '../client';
import { createRowConverter, withExtraFields, type Column, type RowConverter } from '../sheet';
import type { Cell, WriteStats } from '../workbook/port';

/** The rows a load or refresh writes: records converted to cells, and the count of writes they took. */

export const addStats = (a: WriteStats, b: WriteStats): WriteStats => ({ syncs: a.syncs + b.syncs, maxPayloadBytes: Math.max(a.maxPayloadBytes, b.maxPayloadBytes) });
export const NO_WRITES: WriteStats = { syncs: 0, maxPayloadBytes: 0 };

/** Rows converted batch by batch; the column model grows when the service sends fields we do not know. */
export class RowBuilder {
  columns: readonly Column[];
  private converter: RowConverter;
  private truncatedBefore = 0;
  constructor(
    columns: readonly Column[],
    private readonly plan: { dress: (c: Column) => Column; skip: ReadonlySet<string> },
  ) {
    this.columns = columns;
    this.converter = createRowConverter(columns);
  }
  /** Converts a batch; returns the columns that appeared in it (already part of `columns`). */
  add(records: readonly DataRecord[]): { rows: Cell[][]; added: Column[] } {
    const before = this.columns.length;
    const next = withExtraFields(this.columns, records, this.plan.dress, this.plan.skip);
    if (next !== this.columns) {
      this.truncatedBefore += this.converter.truncated;
      this.columns = next;
      this.converter = createRowConverter(next);
    }
    return { rows: records.map((r) => this.converter.convert(r)), added: this.columns.slice(before) };
  }
  get truncated() {
    return this.truncatedBefore + this.converter.truncated;
  }
}
