import type { DatasetId } from '../../catalog';

/**
 * What a write-back flow is, as every part reads it: its id and title, the operations it sends, the steps an
 * environment may lack, where each template column's value goes, the datasets it reads and what it cannot do
 * without each. The relay's policy, the binding importer and the taskpane read these; only the write-back
 * (src/writeback/flows) adds how a row becomes a request. Data only: no part of the add-in comes with it.
 */
export type FlowId = 'incidents' | 'thirdparties' | 'contracts' | 'tasks';

/** Where a template column's value goes: a catalogue field of one of the flow's operations. */
export interface Place {
  operation: string;
  field: string;
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

/** `D`: the reconcile dataset. */
export interface FlowDescription<D extends DatasetId = DatasetId> {
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
   * skips only that step (writeback/environment/fitted-flow.ts); the flow stays available. Not listed in `operations`.
   */
  steps?: Readonly<Record<string, StepInfo>>;
  /**
   * Per dataset the flow reads, what it cannot check or reconcile without it: said before a template is
   * made when the environment lacks the dataset or only assumes its path.
   */
  datasetNeeds: Readonly<Record<string, string>>;
  /**
   * Per dataset the flow reads, the fields its validation and reconcile use beyond a record's identity (its
   * GUID, name, identifier, and Deleted or Archived: identity/implied-reads.ts IDENTITY_FIELDS): the
   * fields `find` matches a row's record on and the time it compares, a check against existing records;
   * '*' where the flow needs whole records (custom field definitions; a task's full update sends the task
   * back). A person whose policy rule names the flow but not the dataset is served exactly these
   * (identity/implied-reads.ts), so a field used and not listed here is cut by the relay: the flows'
   * validation and reconcile are run over records cut to these lists in test/writeback/sandbox-flows.test.ts.
   */
  fieldsRead: Readonly<Record<string, readonly string[] | '*'>>;
}

/** Every dataset a flow reads: its standing data, its reconcile dataset, and those it says it needs. */
export function datasetsRead(flow: FlowDescription): string[] {
  return [...new Set([...flow.standingDatasets, flow.reconcileDataset, ...Object.keys(flow.datasetNeeds)])];
}

/** The places of an operation's columns, from its catalogue field -> column map. */
export function placesOf(operation: string, columnOf: Readonly<Record<string, string>>): Record<string, Place[]> {
  const out: Record<string, Place[]> = {};
  for (const [field, column] of Object.entries(columnOf)) (out[column] ??= []).push({ operation, field });
  return out;
}

/** The lists of people and organisations the flows check names against (writeback/checks/directory.ts). */
export const DIRECTORY_DATASETS = ['organizations', 'users', 'businessdimensions', 'frameworkdimensions'] as const;
