import type { WorkbookPort } from '../../workbook/port';
import type { RetryPolicy, Sleep } from '../../client';
import type { WritebackApi } from '../api';
import type { FormulaText } from '../checks/csv-injection';
import type { EnvironmentInfo, FlowAvailability } from '../environment/availability';
import type { AnyFlow } from '../flow';
import type { Status } from '../rows/results';
import type { RowReceipt } from './receipts';
import type { Validation } from '../rows/validate';

/** The environment posted to; `endpoints` (from the relay) says which calls it has and how their paths are known. */
export type Environment = EnvironmentInfo;

export interface PostOptions {
  api: WritebackApi;
  workbook: WorkbookPort;
  table: string;
  flow: AnyFlow;
  environment: Environment;
  signal?: AbortSignal;
}

/** What a Post would do, known before anything is sent: the taskpane shows it and asks to confirm. */
export interface PostPlan {
  validation: Validation<unknown>;
  /** Rows that will be sent. */
  toSend: number;
  /** Rows whose earlier outcome is unknown: looked up in the service first, sent only if absent. */
  toCheck: number;
  /** Set when the user must confirm: posting to production, or to another environment than the table was filled for. */
  confirmation: { environment: string; rows: number; message: string } | null;
  /** Whether the flow can post on this environment, and the datasets it lacks there. */
  availability: FlowAvailability;
  /** Rows to post with text that begins like a formula: the user chooses how to send it (RunOptions.formulaText). */
  formulaRows: number;
  run(options?: RunOptions): Promise<RunSummary>;
}

export interface RunOptions {
  /** Must repeat the plan's confirmation (environment and row count) when it has one. */
  confirm?: { environment: string; rows: number };
  concurrency?: number;
  /** Cancel: no new row is sent; rows in flight finish and record their outcome. */
  signal?: AbortSignal;
  onProgress?(p: Progress): void;
  /** Text that begins like a formula: sent as typed (the default) or with a leading ' (checks/csv-injection). */
  formulaText?: FormulaText;
  /** The writes' retry policy (client/retry.ts RETRY.write by default). */
  retry?: RetryPolicy;
  sleep?: Sleep;
  now?(): Date;
}

export type Counts = Record<Status, number>;

export interface Progress {
  total: number;
  finished: number;
  counts: Counts;
}

export interface RowOutcome {
  row: number;
  status: Status;
  guid: string;
  message: string;
  /** The relay's receipts of the row's writes and the hashes of the bodies sent (post/receipts.ts): the audit row keeps them. */
  receipt?: RowReceipt;
}

export interface RunSummary {
  environment: string;
  table: string;
  flow: string;
  startedAt: string;
  finishedAt: string;
  cancelled: boolean;
  /** Set when the run stopped itself: every further row would have failed the same way. */
  stoppedBecause?: string;
  /** The sheet row of the table's first body row: outcome rows are named from it (`Row 7` as Excel shows). */
  firstRow: number;
  outcomes: RowOutcome[];
  counts: Counts;
  /** How text that begins like a formula was sent in this run, when the table had any. */
  formulaText?: FormulaText;
  /** Rows not sent because they have errors (their Result says so). */
  withErrors: number;
}
