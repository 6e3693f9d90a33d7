import type { Cell } from '../../workbook/port';
import { dispositionOf, resultCells } from '../rows/results';
import { stateCell, type RowState } from '../rows/state';
import type { RowCheck } from '../rows/validate';
import { sentAt } from './reconcile';
import type { Job, Run } from './run-context';

/** A row's "sending" mark as written: the row's place then (null: gone), its send time and its state. */
export interface Mark {
  at: number | null;
  time: string;
  state: RowState;
}

export interface Marks {
  /**
   * The row's "sending" mark, in the workbook and made durable before this resolves: the mark written
   * ahead with its batch, or one written now. `request`: what will be sent (rebased, for a row of a record
   * that earlier rows of this run changed).
   */
  mark(job: Job, request: unknown): Promise<Mark>;
  /** After the pool: rows marked ahead whose job never started (cancelled, or the run stopped) get their result and state cells back as they were. */
  putBack(): Promise<void>;
}

const held = (check: RowCheck<unknown>) => ({ result: resultCells(check.result), state: stateCell(check.state) });

/** The first batch marked ahead, and the most: a batch doubles from one to the next. */
const FIRST_BATCH = 8;
const MOST_BATCH = 256;

/**
 * Marks rows "sending" ahead of their sends, a batch in one workbook write and one save. Marked one by
 * one, the command line saved its whole file before every send (1,000 rows: over a thousand saves, each
 * rewriting the file). A mark written ahead is as safe as one written just before the send: a run that
 * stops leaves the row "sending", and the next Post looks for its record in the service from the mark's
 * time on, which is before the send. Ahead go only rows independent of the others: a row of a record
 * that earlier rows change (a task's updates) is rebased and its state known only when its turn comes,
 * so it is marked then. The next batch is written while about half of the last is still to send, so a
 * send rarely waits for a save.
 *
 * Ahead only where the workbook persists (`persisted`: the command line's file, which no person edits while
 * it posts). In Excel the workbook write is itself the durable one, and a person may delete a row while the
 * post runs: a row is marked at its turn, as that write finds the row or not, so a row deleted before its
 * turn is not sent.
 *
 * `before`: what the row's result and state cells hold when it is marked, put back when it is never sent;
 * by default as the row's check says (a row this run wrote `unknown`, to be sent again, holds just that).
 */
export function createMarks(
  run: Run,
  jobs: readonly Job[],
  o: { persisted: boolean; before?: (check: RowCheck<unknown>) => { result: Cell[]; state: Cell } },
): Marks {
  const before = o.before ?? held;
  const ahead = (job: Job) => o.persisted && !job.made && run.schedule.keyOf(job.check) === undefined;
  const queue = jobs.filter(ahead).map((j) => j.check);
  const place = new Map(queue.map((c, i) => [c.row, i]));
  const marked = new Map<number, Promise<Mark>>();
  const started = new Set<number>();
  let next = 0;
  let size = FIRST_BATCH;
  let waiting = 0;

  const write = (check: Job['check'], request: unknown, now: string): Promise<Mark> => {
    // A row checked and not found is sent again, but keeps the time it was first sent: a record of that
    // earlier request that the service lists only later is still recognised as the row's.
    const time = dispositionOf(check.result) === 'check' && sentAt(check.result.time) ? check.result.time : now;
    const state = run.bound.prepared.sentState?.(request) ?? {};
    const key = run.keys.get(check.row);
    if (!key) return Promise.resolve({ at: null, time, state });
    return run.journal
      .write(key, resultCells({ status: 'sending', guid: '', message: 'Sending', time }), stateCell(state), true)
      .then((at) => ({ at, time, state }));
  };

  const markBatch = () => {
    const now = run.now().toISOString();
    const end = Math.min(queue.length, next + size);
    for (; next < end; next++) {
      const check = queue[next]!;
      const m = write(check, check.request, now);
      // Awaited by the row's job; a batch written ahead for rows that never start must not crash the run.
      m.catch(() => undefined);
      marked.set(check.row, m);
      waiting++;
    }
    size = Math.min(MOST_BATCH, size * 2);
  };

  return {
    mark(job, request) {
      const row = job.check.row;
      started.add(row);
      if (!ahead(job)) return write(job.check, request, run.now().toISOString());
      const i = place.get(row)!;
      // The pool starts these rows in queue order; one it starts ahead of the marks is marked from it on.
      if (!marked.has(row) && i >= next) {
        next = i;
        markBatch();
      }
      const m = marked.get(row);
      if (!m) return write(job.check, request, run.now().toISOString());
      waiting--;
      if (waiting < size / 4 && next < queue.length && !run.signal.aborted) markBatch();
      return m;
    },
    async putBack() {
      const unsent = queue.filter((c) => marked.has(c.row) && !started.has(c.row));
      await Promise.all(
        unsent.map(async (check) => {
          const m = marked.get(check.row)!;
          const key = run.keys.get(check.row);
          const written = await m.then(
            (x) => x.at !== null,
            () => false,
          );
          if (!key || !written) return;
          const { result, state } = before(check);
          await run.journal.write(key, result, state);
        }),
      );
    },
  };
}
