import type { RetryPolicy, Sleep } from '../../client';
import type { WritebackApi } from '../api';
import type { FittedFlow } from '../environment/fitted-flow';
import type { RowCheck } from '../rows/validate';
import type { Journal } from './journal';
import type { Schedule } from './schedule';
import type { Tally } from './tally';

/** A row to send, or (`made`) one whose record exists and whose follow-up step is still to do. */
export interface Job {
  check: RowCheck<unknown>;
  made?: { guid: string; lead: string };
}

/** One run of a post: what reconcile, schedule, send-one-row and tally share, passed explicitly. */
export interface Run {
  readonly bound: FittedFlow<unknown>;
  readonly api: WritebackApi;
  readonly journal: Journal;
  /** Each row's key (null: the row is gone), given before anything is sent. */
  readonly keys: ReadonlyMap<number, string | null>;
  readonly tally: Tally;
  readonly schedule: Schedule;
  /** Aborts on cancel and when the run stops itself (`stopOn`): no new row starts. */
  readonly signal: AbortSignal;
  /** Stops the run when a verdict says every further row would fail the same way. */
  stopOn(v: { stop?: boolean; message: string }): void;
  readonly retry: { retry?: RetryPolicy; sleep?: Sleep };
  now(): Date;
  /** The sheet row of the table's first body row, to name rows as Excel shows them. */
  readonly firstRow: number;
  /**
   * Rows whose first send in this run lost its answer (unknown outcome), as they were sent: looked for in
   * the service before the run ends (settle.ts), so one Post finishes them.
   */
  readonly unsettled: RowCheck<unknown>[];
}
