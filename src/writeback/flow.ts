import type { Cell, ColumnSpec } from '../workbook/port';
import type { DatasetId, DatasetRecord } from '../catalog';
import type { Standing, WritebackApi } from './api';
import type { FlowContext } from './environment/context';
import type { CellProblem } from './problem';
import type { RowState } from './rows/state';
import type { FlowDescription } from '../contracts/flows/description';

export type { FlowId, Place, StepInfo } from '../contracts/flows/description';

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
 * describes (environment/fitted-flow.ts), so a flow never knows a customer's shapes.
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

/**
 * A flow: its description, which every part reads (src/contracts/flows), and its behaviour here. `D`: the
 * reconcile dataset, whose records `find` reads typed by the catalogue's schema.
 */
export interface Flow<R = unknown, D extends DatasetId = DatasetId> extends FlowDescription<D> {
  /** The flow on one environment: `ctx` is that environment's bound catalogue, read by the row reader and the flow. */
  setup(standing: Standing, ctx: FlowContext): PreparedFlow<R, D>;
}

/** Erases the request type so flows of different types share one list. */
export type AnyFlow = Flow<unknown>;
