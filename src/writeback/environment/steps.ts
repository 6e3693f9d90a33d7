import type { SkippedStep } from './availability';
import type { PreparedFlow } from '../flow';
import { cellWarning } from '../problem';

/** Columns a new template leaves out: they serve only a step this environment skips. */
export const droppedColumns = (skipped: readonly SkippedStep[]): ReadonlySet<string> =>
  new Set(skipped.filter((s) => s.drop).map((s) => s.column));

/**
 * A flow on an environment that lacks the operation of one of its follow-up steps (an incident's
 * hyperlink): new templates drop the step's column (template.ts, `droppedColumns`), a row that fills it (an older template) is warned
 * that the step is not done, and a row sent records so in its Result. The main operation still posts.
 * Steps that are not follow-ups (a task's score-and-status action) are refused per row (binding.ts).
 */
export function withSkippedSteps<R>(
  prepared: PreparedFlow<R>,
  skipped: readonly SkippedStep[],
): PreparedFlow<R> {
  if (!skipped.length) return prepared;
  const skippedStep = (request: R) => {
    const step = prepared.followUp?.(request);
    return step && skipped.find((s) => s.what === step.what);
  };
  return {
    ...prepared,
    prepare(row) {
      const out = prepared.prepare(row);
      const step = out.request === undefined ? undefined : skippedStep(out.request);
      if (!step) return out;
      return {
        ...out,
        problems: [
          ...out.problems,
          cellWarning(step.column, 'step-unavailable', `${step.message}; the row is posted without it`),
        ],
      };
    },
    async send(request, api, signal) {
      const sent = await prepared.send(request, api, signal);
      const step = skippedStep(request);
      return step ? { ...sent, message: `${sent.message}; ${step.message}` } : sent;
    },
    followUp: (request) => (skippedStep(request) ? undefined : prepared.followUp?.(request)),
  };
}
