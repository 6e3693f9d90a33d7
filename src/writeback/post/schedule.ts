import type { PreparedFlow } from '../flow';
import type { Status } from '../rows/results';
import type { RowCheck } from '../rows/validate';
import type { Job } from './run-context';

/**
 * Rows for one record (a task) go in sheet order: a row whose predecessor did not go through waits, and
 * each row is rebased on the requests that went through before it (see PreparedFlow.rebase).
 */
export interface Schedule {
  /** The row's serial key: rows with one key run one after the other (runner.ts `runPool`). */
  keyOf(check: RowCheck<unknown>): string | undefined;
  /** A row of the key that did not go through: the key's later rows are not sent in this run. */
  hold(check: RowCheck<unknown>, status: Status): void;
  /** The earlier row that holds this one back, if any. */
  heldBy(check: RowCheck<unknown>): number | undefined;
  /** The requests of the key that went through earlier in this run, in sheet order. */
  before(check: RowCheck<unknown>): readonly unknown[];
  wentThrough(check: RowCheck<unknown>, request: unknown): void;
}

export function createSchedule(prepared: PreparedFlow<unknown>): Schedule {
  const keyOf = (r: RowCheck<unknown>) => (r.request === undefined ? undefined : prepared.serialKey?.(r.request));
  const through = new Map<string, unknown[]>();
  const waitingFor = new Map<string, number>();
  return {
    keyOf,
    hold(check, status) {
      const key = keyOf(check);
      if (key !== undefined && status !== 'created' && status !== 'done' && !waitingFor.has(key))
        waitingFor.set(key, check.row);
    },
    heldBy(check) {
      const key = keyOf(check);
      return key === undefined ? undefined : waitingFor.get(key);
    },
    before(check) {
      const key = keyOf(check);
      return key === undefined ? [] : (through.get(key) ?? []);
    },
    wentThrough(check, request) {
      const key = keyOf(check);
      if (key !== undefined) through.set(key, [...(through.get(key) ?? []), request]);
    },
  };
}

/** Jobs in sheet order: the pool starts them so, and rows of one key keep their order. */
export const inSheetOrder = (jobs: Job[]): Job[] => jobs.sort((a, b) => a.check.row - b.check.row);
