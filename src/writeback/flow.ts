import type { Cell, ColumnSpec } from '../workbook/port';
import type { DatasetId, DatasetRecord } from '../catalog';
import type { Standing, WritebackApi } from './api';
import type { FlowContext } from './environment/context';
import type { CellProblem } from './problem';
import type { RowState } from './rows/state';

export type FlowId = 'incidents' | 'thirdparties' | 'contracts' | 'tasks';

/** One table row, read by column header. */
export type RowInput = (column: string) => Cell | undefined;

/** What the service answered for a row that went through. */
export interface Sent {
  status: 'created' | 'done';
  guid: string;
  /** Said to the user in the result column, e.g. a hyperlink that could not be added after creation. */
  message: string;
}

/** Whether the record of a row whose outcome is unknown is already in the service. */
/** `unclear`: only a person can tell (several candidates, or too little was journaled); the message says what to check. */
export type Found =
  { kind: 'found'; guid: string } | { kind: 'absent' } | { kind: 'unclear'; message: string };

/** What the row's journal says about its earlier send. */
export interface SentMark {
  /** The row's state as `sentState` journaled it when the row was sent (rows/state.ts). */
  state: RowState;
  /** When the row was first sent (its Result time); undefined when missing or unreadable. */
  at: Date | undefined;
}

/**
 * A step sent on its own once the row's record exists (an incident's hyperlink). Its outcome is journaled
 * apart from the create's, so a record found after an unknown outcome still gets it, and a busy or lost
 * answer to the step never sends the create again.
 */
export interface FollowUp {
  /** What the step adds, as result messages name it: "hyperlink". */
  what: string;
  /** The step's call on the record the row made. */
  call(guid: string): Call;
}

/**
 * One call of a row, in the catalogue's terms: the environment encodes it into the request its file
 * describes (environment/bound-flow.ts), so a flow never knows a customer's shapes.
 */
export interface Call {
  operation: string;
  /** The catalogue's path parameter: the record the call is about (a task, the incident a hyperlink goes on). */
  guid?: string;
  /** Catalogue-shaped, as the operation's body schema outputs it. */
  body?: unknown;
  /**
   * Catalogue field ('{guid}' included) -> the column(s) its value came from, so a value the file cannot
   * take is an error on the cell that holds it.
   */
  columnOf: Readonly<Record<string, string | readonly string[]>>;
  /** Fields filled from the service's current record, not typed: left out where the file has no place for them. */
  untyped?: readonly string[];
}

/** Where a template column's value goes: a catalogue field of one of the flow's operations. */
export interface Place {
  operation: string;
  field: string;
}

/**
 * A flow once the standing data it needs is loaded: its columns, how a row becomes a request (or the
 * problems that stop it), how a request is sent, and how a sent request is recognised in the service.
 */
export interface PreparedFlow<R = unknown, D extends DatasetId = DatasetId> {
  /** Input columns in template order; dropdown lists go on `lookupSheet`. */
  columns(lookupSheet: string): ColumnSpec[];
  /** Columns a table must have for the flow to read it. */
  requiredColumns: readonly string[];
  prepare(row: RowInput): { request?: R; problems: CellProblem[] };
  /** The row's main call (a create, a task update). */
  call(request: R): Call;
  /** The Result message of a row whose call went through: "Created", "Updated". */
  done(request: R): string;
  /**
   * Looks for the request's effect among the reconcile dataset's records, skipping GUIDs other rows
   * hold and (creates) records registered before the row was first sent.
   */
  find(request: R, records: readonly DatasetRecord<D>[], taken: ReadonlySet<string>, sent: SentMark): Found;
  /** Journaled in the row's state with the "sending" mark: what `find` needs later that the service will have changed. */
  sentState?(request: R): RowState;
  /** Rows with the same key are sent one after the other in sheet order (several updates of one task). */
  serialKey?(request: R): string;
  /**
   * The request as it must be sent after `before`, the rows with the same serial key that went through
   * earlier in this run (in sheet order): each row applies to the state the previous one left.
   */
  rebase?(request: R, before: readonly R[], api: WritebackApi, signal?: AbortSignal): Promise<R>;
  /** The step after the create, when the row has one. */
  followUp?(request: R): FollowUp | undefined;
}

/** `D`: the reconcile dataset, whose records `find` reads typed by the catalogue's schema. */
export interface Flow<R = unknown, D extends DatasetId = DatasetId> {
  id: FlowId;
  title: string;
  /** The Result of a row that went through: a create makes a record, a task update changes one. */
  resultStatus: 'created' | 'done';
  /** Table name prefix of a new template. */
  tableName: string;
  /**
   * Where each fixed column's value goes (custom field columns go to the main operation's CustomFields). A
   * template has a column only where its value lands in a request on the environment (NOTHING DROPPED).
   */
  places: Readonly<Record<string, readonly Place[]>>;
  /** Columns that choose what is sent rather than being sent (a task's Action): always in the template. */
  controls?: readonly string[];
  /** Datasets loaded before validating: standing data, custom field definitions, current records. */
  standingDatasets: readonly string[];
  /** The dataset that shows whether a row's record exists, read before an unknown row is sent again. */
  reconcileDataset: D;
  /**
   * The write operations every row of the flow calls (catalogue ids): all must be available on the
   * environment. Empty for a flow whose rows each call one of its steps (task updates: one per action).
   */
  operations: readonly string[];
  /**
   * Operations of steps the flow can do without (catalogue id -> the step): an environment that lacks one
   * skips only that step (environment/bound-flow.ts); the flow stays available. Not listed in `operations`.
   */
  steps?: Readonly<Record<string, StepInfo>>;
  /**
   * Per dataset the flow reads, what it cannot check or reconcile without it: said before a template is
   * made when the environment lacks the dataset or only assumes its path.
   */
  datasetNeeds: Readonly<Record<string, string>>;
  /** The flow on one environment: `ctx` is that environment's bound catalogue, read by the row reader and the flow. */
  setup(standing: Standing, ctx: FlowContext): PreparedFlow<R, D>;
}

/** A step of a flow whose operation an environment may lack. */
export interface StepInfo {
  /** What the step adds, as the Result names it; a follow-up step uses its FollowUp's `what`. */
  what: string;
  /** The column that asks for the step: dropped from new templates when `drop`, else refused on rows that need it. */
  column: string;
  /** The column serves only this step (an incident's hyperlink), so a template without the step has no use for it. */
  drop?: boolean;
}

/** Erases the request type so flows of different types share one list. */
export type AnyFlow = Flow<unknown>;
