import type { SkippedStep } from './availability';

/**
 * A flow on an environment that lacks the operation of one of its follow-up steps (an incident's
 * hyperlink): new templates drop the step's column, a row that fills it (an older template) is warned that
 * the step is not done, and a row sent records so in its Result; the main operation still posts
 * (bound-flow.ts). Steps that are not follow-ups (a task's score-and-status action) are refused per row
 * (rows/rowreader.ts).
 */
export const droppedColumns = (skipped: readonly SkippedStep[]): ReadonlySet<string> =>
  new Set(skipped.filter((s) => s.drop).map((s) => s.column));
