import type { Problem, RunSummary } from '../writeback';

/**
 * What `grc-sheets post --json` prints on stdout: one object, whatever happened, so a scheduler can read
 * the outcome without parsing messages. Every shape has `file`, `ok` (what the exit code says: 0 or not),
 * `saved` (whether the file on disk was rewritten by this post) and `sent` (whether anything may have
 * reached the service). Rows are named twice: `row`, the index in the table's body (0 = first row), and
 * `sheetRow`, the row number Excel shows.
 */
export interface PostJsonBase {
  file: string;
  table: string;
  environment: string;
  ok: boolean;
  saved: boolean;
  sent: boolean;
}

type Located<T extends { row: number }> = T & { sheetRow: number };

const located = <T extends { row: number }>(items: readonly T[], firstRow: number): Located<T>[] =>
  items.map((i) => ({ ...i, sheetRow: firstRow + i.row }));

/** A post that stopped before anything was sent (a refusal) or failed on the way (`error`): the message the command printed. */
export function stoppedJson(base: PostJsonBase, how: 'refused' | 'error', message: string) {
  return { ...base, [how]: message };
}

/** --dry-run, or a post with nothing left to send: the validation's problems, and what a post would do. */
export function validatedJson(
  base: PostJsonBase,
  firstRow: number,
  v: { dryRun: boolean; toSend: number; toCheck: number; problems: readonly Problem[] },
) {
  const errorRows = new Set(v.problems.filter((p) => p.severity === 'error').map((p) => p.row)).size;
  return {
    ...base,
    dryRun: v.dryRun,
    ...(v.dryRun ? {} : { nothingToPost: true }),
    toSend: v.toSend,
    toCheck: v.toCheck,
    rowsWithErrors: errorRows,
    warnings: v.problems.filter((p) => p.severity !== 'error').length,
    problems: located(v.problems, firstRow),
  };
}

/** A post that ran: the counts by result, each row's outcome, the validation's problems, the backup's path. */
export function postedJson(base: PostJsonBase, summary: RunSummary, problems: readonly Problem[], backup: string | undefined) {
  const { outcomes, firstRow, ...run } = summary;
  return {
    ...base,
    ...(backup ? { backup } : {}),
    ...run,
    firstRow,
    // The rows' receipts (long JWS) stay in the audit sheet, not in what a scheduler reads.
    outcomes: located(outcomes.map((o) => ({ row: o.row, status: o.status, guid: o.guid, message: o.message })), firstRow),
    problems: located(problems, firstRow),
  };
}
