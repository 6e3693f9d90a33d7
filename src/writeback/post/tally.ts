import type { Status } from '../rows/results';
import { joinReceipts, type RowReceipt } from './receipts';
import { resultCells } from '../rows/results';
import { stateCell, type RowState } from '../rows/state';
import type { Journal } from './journal';
import type { Counts, Progress, RowOutcome } from './types';

export const zeroCounts = (): Counts => ({ sending: 0, created: 0, done: 0, failed: 0, 'not sent': 0, unknown: 0 });

export interface Outcome {
  status: Status;
  guid: string;
  message: string;
  /** Defaults to now; an unknown outcome keeps the time the row was first sent (registered.ts compares it). */
  time?: string;
  /** What the next Post needs (rows/state.ts); none by default, which clears an earlier one. */
  state?: RowState;
  /** The relay's receipts of the row's writes and the hashes of the bodies sent, as the audit row keeps them (receipts.ts). */
  receipt?: RowReceipt;
  /**
   * Saved before the run goes on (Journal.write `durable`): an outcome whose loss in a crash the next Post
   * could not make good by looking in the service (a follow-up step that did not go through: the step
   * still to do in the Row state, or why a person must act).
   */
  durable?: boolean;
}

/** The outcomes of a run: each written into its row, found by key, counted, and reported as progress. */
export interface Tally {
  readonly counts: Counts;
  record(row: number, outcome: Outcome): Promise<void>;
  /** A row not sent because it was deleted or edited before it had a key: nothing to write it into. */
  lost(row: number, message: string): void;
  outcomes(): RowOutcome[];
}

export function createTally(o: {
  journal: Journal;
  keys: ReadonlyMap<number, string | null>;
  total: number;
  now(): Date;
  onProgress?(p: Progress): void;
}): Tally {
  const counts = zeroCounts();
  const outcomes = new Map<string, RowOutcome>();
  let finished = 0;
  const count = (key: string, outcome: RowOutcome) => {
    // A row recorded again in the same run (unknown, then found or sent again) counts once, as its latest.
    const before = outcomes.get(key);
    if (before) counts[before.status]--;
    else finished++;
    const receipt = joinReceipts(before?.receipt, outcome.receipt);
    outcomes.set(key, receipt ? { ...outcome, receipt } : outcome);
    counts[outcome.status]++;
    o.onProgress?.({ total: o.total, finished, counts: { ...counts } });
  };
  return {
    counts,
    async record(row, { status, guid, message, time, state, receipt, durable }) {
      const key = o.keys.get(row);
      const cells = resultCells({ status, guid, message, time: time ?? o.now().toISOString() });
      const at = key ? await o.journal.write(key, cells, stateCell(state), durable) : null;
      // The outcome is named by the row's place when it was written; a row deleted mid-post keeps its old one.
      count(key || `row ${row}`, {
        row: at ?? row,
        status,
        guid,
        message:
          at === null ? `${message} (the row was deleted during the post; this result is not in the sheet)` : message,
        ...(receipt ? { receipt } : {}),
      });
    },
    lost(row, message) {
      count(o.keys.get(row) || `row ${row}`, { row, status: 'not sent', guid: '', message });
    },
    outcomes: () => [...outcomes.values()].sort((a, b) => a.row - b.row),
  };
}
