import type { ColumnSpec } from '../../workbook/port';
import type { Standing, WritebackApi } from '../api';
import type { Call, Flow, FollowUp, Place, PreparedFlow, RowInput } from '../flow';
import { cellError, cellWarning, type CellProblem } from '../problem';
import { RowReader } from '../rows/rowreader';
import type { FlowAvailability, SkippedStep } from './availability';
import { flowContext, flowOperations, type BoundEnvironment, type FlowContext } from './context';
import { cellProblems, encodeCall, NOT_YET_MADE, sendCall } from './encode';
import { extraColumns, readExtras } from './extras';

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

  /** Problems of the row's calls on this environment: skipped operations, values the file cannot take. */
  function callProblems(request: R, extra: Readonly<Record<string, unknown>>): CellProblem[] {
    const problems: CellProblem[] = [];
    const step = prepared.followUp?.(request);
    const calls = [prepared.call(request), ...(step && !skippedFollowUp(request) ? [step.call(NOT_YET_MADE)] : [])];
    const used = new Set<string>();
    for (const call of calls) {
      const skipped = ctx.skippedStep({ operationId: call.operation });
      if (skipped) {
        problems.push(
          cellError(skipped.column, 'step-unavailable', `${skipped.message}; choose another ${skipped.column} or leave the row out`),
        );
        continue;
      }
      for (const x of environment.operation(call.operation).extras) used.add(x.key);
      const encoded = encodeCall(ctx, call, extra);
      if (!encoded.ok) problems.push(...cellProblems(ctx, call, encoded.problems, fallback));
    }
    // An extra column of another operation (a task's update) filled on a row that does not call it: refused
    // on its cell, as a value typed is never dropped.
    for (const x of ctx.extras)
      if (x.key in extra && !used.has(x.key)) {
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
    return problems;
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
      const r = new RowReader(row, ctx);
      const extra = readExtras(r, ctx.extras);
      const problems = [...out.problems, ...r.problems];
      if (out.request === undefined || r.hasErrors) return { extra, problems };
      const found = callProblems(out.request, extra);
      problems.push(...found);
      if (found.some((p) => p.severity === 'error')) return { extra, problems };
      const skipped = skippedFollowUp(out.request);
      if (skipped)
        problems.push(cellWarning(skipped.column, 'step-unavailable', `${skipped.message}; the row is posted without it`));
      return { request: out.request, extra, problems };
    },
    followUp: (request) => (skippedFollowUp(request) ? undefined : prepared.followUp?.(request)),
    skippedFollowUp,
    send: (api, call, extra, signal) => sendCall(api, ctx, call, extra, signal),
  };
}
