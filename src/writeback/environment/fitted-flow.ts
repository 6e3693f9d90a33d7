import type { ColumnSpec } from '../../workbook/port';
import type { Standing, WritebackApi } from '../api';
import type { ExtraColumn } from '../../catalog';
import type { Call, Flow, FollowUp, Place, PreparedFlow, RowInput } from '../flow';
import type { CellProblem } from '../problem';
import * as problem from '../problem';
import * as rowreader from '../rows/rowreader';
import type { FlowAvailability, SkippedStep } from './availability';
import { flowContext, flowOperations, type BoundEnvironment, type FlowContext } from './context';
import { NOT_YET_MADE, sendCall } from './encode';
import * as encode from './encode';
import { extraColumns, readExtras } from './extras';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { cellError, cellWarning } = problem;
const { RowReader } = rowreader;
const { cellProblems, encodeProblems } = encode;

/** A row as read on this environment: the flow's request, the values of the file's extra columns. */
export interface RowRead<R> {
  /** Set when the row has no errors: every call it makes encodes on this environment. */
  request?: R;
  extra: Readonly<Record<string, unknown>>;
  problems: CellProblem[];
}

/**
 * A flow fitted to one environment: the flow's own request type, unwrapped, next to what the environment
 * adds to it (extra columns, skipped steps, the encoding of each call). The template, validation and the
 * post runner all work from this one value. ("Fitted", not "bound": a binding is the customer's API mapping
 * the environment was built from; a loaded table's stored record is its load record.)
 */
export interface FittedFlow<R = unknown> {
  readonly flow: Flow<R>;
  readonly prepared: PreparedFlow<R>;
  readonly ctx: FlowContext;
  readonly requiredColumns: readonly string[];
  /** Every column a table of this flow reads: the flow's, then the file's extra columns. */
  columns(lookupSheet: string): ColumnSpec[];
  /** The columns of a new template: only those whose value lands in a request on this environment. */
  templateColumns(lookupSheet: string): ColumnSpec[];
  read(row: RowInput): RowRead<R>;
  /** The row's follow-up step on this environment: none when the environment skips it. */
  followUp(request: R): FollowUp | undefined;
  /** The follow-up step the row asks for and this environment skips (its Result says so). */
  skippedFollowUp(request: R): SkippedStep | undefined;
  /** Sends one of the row's calls as the environment's file describes it; the record's GUID. */
  send(api: WritebackApi, call: Call, extra: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<string>;
}

export function fitFlow<R>(
  flow: Flow<R>,
  environment: BoundEnvironment,
  standing: Standing,
  availability?: FlowAvailability,
): FittedFlow<R> {
  const ctx = flowContext(flow, environment, standing, availability);
  const prepared = flow.setup(standing, ctx);
  const skippedFollowUp = (request: R) => {
    const step = prepared.followUp?.(request);
    return step && ctx.skippedStep({ what: step.what });
  };
  const columns = (lookupSheet: string) => [...prepared.columns(lookupSheet), ...extraColumns(ctx.extras, lookupSheet)];
  const main = flow.operations[0];
  // A fixed column lands where the flow puts it; any other column of the flow is a custom field of the main operation.
  const placesOf = (column: string): readonly Place[] =>
    flow.places[column] ?? (main ? [{ operation: main, field: 'CustomFields' }] : []);
  const lands = (p: Place) =>
    !ctx.skippedStep({ operationId: p.operation }) &&
    !environment.endpoints?.[p.operation]?.unavailable &&
    environment.placedFields(p.operation).has(p.field);
  const extraHeaders = new Set(ctx.extras.map((x) => x.header));
  const fallback = prepared.requiredColumns[0] ?? '';

  /**
   * Problems of the row's calls on this environment: skipped operations, values the file cannot take.
   * `step`: the row's follow-up, `skipped` whether the environment skips it (read works both out once).
   */
  function callProblems(
    request: R,
    extra: Readonly<Record<string, unknown>>,
    step: FollowUp | undefined,
    skipped: SkippedStep | undefined,
  ): CellProblem[] {
    const problems: CellProblem[] = [];
    const main = callProblemsOf(prepared.call(request), extra, problems);
    const follow = step && !skipped ? callProblemsOf(step.call(NOT_YET_MADE), extra, problems) : undefined;
    // An extra column of another operation (a task's update) filled on a row that does not call it: refused
    // on its cell, as a value typed is never dropped.
    for (let i = 0; i < ctx.extras.length; i++) {
      const x = ctx.extras[i]!;
      if (x.key in extra && !main?.some((e) => e.key === x.key) && !follow?.some((e) => e.key === x.key)) {
        const steps = flowOperations(flow)
          .filter((id) => !environment.endpoints?.[id]?.unavailable && environment.operation(id).extras.some((e) => e.key === x.key))
          .map((id) => flow.steps?.[id]?.what ?? environment.catalog.operation(id).title.toLowerCase());
        problems.push(
          cellError(
            x.header,
            'not-sent-by-action',
            `${x.header} goes with the ${steps.join(' or ')}, which this row does not make, so it would not be sent; clear ${x.header}, or type it on a row that makes the ${steps.join(' or ')}`,
          ),
        );
      }
    }
    return problems;
  }

  /** One call's problems, added to `problems`; the extra columns the call sends, or none where its step is skipped. */
  function callProblemsOf(
    call: Call,
    extra: Readonly<Record<string, unknown>>,
    problems: CellProblem[],
  ): readonly ExtraColumn[] | undefined {
    const skipped = ctx.skippedStep({ operationId: call.operation });
    if (skipped) {
      problems.push(
        cellError(skipped.column, 'step-unavailable', `${skipped.message}; choose another ${skipped.column} or leave the row out`),
      );
      return undefined;
    }
    const found = encodeProblems(ctx, call, extra);
    if (found.length) for (const p of cellProblems(ctx, call, found, fallback)) problems.push(p);
    return environment.operation(call.operation).extras;
  }

  return {
    flow,
    prepared,
    ctx,
    requiredColumns: prepared.requiredColumns,
    columns,
    templateColumns: (lookupSheet) =>
      columns(lookupSheet).filter(
        (c) => extraHeaders.has(c.name) || flow.controls?.includes(c.name) || placesOf(c.name).some(lands),
      ),
    read(row) {
      const out = prepared.prepare(row);
      // The file's extra columns are read with a reader of their own; most environments have none.
      const r = ctx.extras.length ? new RowReader(row, ctx) : undefined;
      const extra = r ? readExtras(r, ctx.extras) : {};
      const problems = r ? out.problems.concat(r.problems) : out.problems.slice();
      if (out.request === undefined || r?.hasErrors) return { extra, problems };
      const step = prepared.followUp?.(out.request);
      const skipped = step && ctx.skippedStep({ what: step.what });
      const found = callProblems(out.request, extra, step, skipped);
      let failed = false;
      for (let i = 0; i < found.length; i++) {
        const p = found[i]!;
        problems.push(p);
        if (p.severity === 'error') failed = true;
      }
      if (failed) return { extra, problems };
      if (skipped)
        problems.push(cellWarning(skipped.column, 'step-unavailable', `${skipped.message}; the row is posted without it`));
      return { request: out.request, extra, problems };
    },
    followUp: (request) => (skippedFollowUp(request) ? undefined : prepared.followUp?.(request)),
    skippedFollowUp,
    send: (api, call, extra, signal) => sendCall(api, ctx, call, extra, signal),
  };
}
