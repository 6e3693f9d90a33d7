import type { ColumnSpec } from '../../workbook/port';
import type { Standing, WritebackApi } from '../api';
import type { Flow, FollowUp, PreparedFlow, RowInput } from '../flow';
import { cellWarning, type CellProblem } from '../problem';
import { RowReader } from '../rows/rowreader';
import type { FlowAvailability, SkippedStep } from './availability';
import { rowSender } from './binding';
import { flowContext, type BoundEnvironment, type FlowContext } from './context';
import { extraColumns, readExtras } from './extras';
import { droppedColumns } from './steps';

/** A row as read on this environment: the flow's request, the values of the file's extra properties. */
export interface RowRead<R> {
  /** Set when the row has no errors. */
  request?: R;
  extra: Readonly<Record<string, unknown>>;
  problems: CellProblem[];
}

/**
 * A flow set up on one environment: the flow's own request type, unwrapped, next to what the environment
 * adds to it (extra columns, skipped steps, the way a row's calls are sent). The template, validation and
 * the post runner all work from this one value.
 */
export interface BoundFlow<R = unknown> {
  readonly flow: Flow<R>;
  readonly prepared: PreparedFlow<R>;
  readonly ctx: FlowContext;
  readonly requiredColumns: readonly string[];
  /** Every column a table of this flow reads: the flow's, then one per extra property of the file. */
  columns(lookupSheet: string): ColumnSpec[];
  /** The columns of a new template: without those that serve only a step this environment skips. */
  templateColumns(lookupSheet: string): ColumnSpec[];
  read(row: RowInput): RowRead<R>;
  /** The row's follow-up step on this environment: none when the environment skips it. */
  followUp(request: R): FollowUp | undefined;
  /** The follow-up step the row asks for and this environment skips (its Result says so). */
  skippedFollowUp(request: R): SkippedStep | undefined;
  /** What the row's calls go through: its bodies in the environment's terms, with its extra values. */
  sender(api: WritebackApi, extra: Readonly<Record<string, unknown>>): WritebackApi;
}

export function bindFlow<R>(
  flow: Flow<R>,
  environment: BoundEnvironment,
  standing: Standing,
  availability?: FlowAvailability,
): BoundFlow<R> {
  const ctx = flowContext(flow, environment, standing, availability);
  const prepared = flow.setup(standing, ctx);
  const dropped = droppedColumns(ctx.availability.skipped ?? []);
  const skippedFollowUp = (request: R) => {
    const step = prepared.followUp?.(request);
    return step && ctx.skippedStep({ what: step.what });
  };
  const columns = (lookupSheet: string) => [...prepared.columns(lookupSheet), ...extraColumns(ctx.extras, lookupSheet)];
  return {
    flow,
    prepared,
    ctx,
    requiredColumns: prepared.requiredColumns,
    columns,
    templateColumns: (lookupSheet) => columns(lookupSheet).filter((c) => !dropped.has(c.name)),
    read(row) {
      const out = prepared.prepare(row);
      const r = new RowReader(row, ctx);
      const extra = readExtras(r, ctx.extras);
      const problems = [...out.problems, ...r.problems];
      if (out.request === undefined || r.hasErrors) return { extra, problems };
      const skipped = skippedFollowUp(out.request);
      if (skipped)
        problems.push(cellWarning(skipped.column, 'step-unavailable', `${skipped.message}; the row is posted without it`));
      return { request: out.request, extra, problems };
    },
    followUp: (request) => (skippedFollowUp(request) ? undefined : prepared.followUp?.(request)),
    skippedFollowUp,
    sender: (api, extra) => rowSender(api, ctx, extra),
  };
}
