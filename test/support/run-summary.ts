import type { Counts, RowOutcome, RunSummary } from '../../src/writeback/post';

/** A row the post created, as the runner records it. */
export const created = (row: number, guid = '11111111-1111-4111-8111-111111111111'): RowOutcome => ({ row, status: 'created', guid, message: 'Created' });

/** A row the service refused. */
export const failed = (row: number): RowOutcome => ({ row, status: 'failed', guid: '', message: 'The incident was not created.' });

/**
 * A finished incidents post on ACC (2025-01-01, 10:00:00 to 10:00:05 UTC, table header on sheet row 1), as
 * the audit sheet takes it: its counts tallied from `outcomes`, anything else given in `more`.
 */
export function runSummary(outcomes: RowOutcome[], more: Partial<RunSummary> = {}): RunSummary {
  const counts: Counts = { sending: 0, created: 0, done: 0, failed: 0, 'not sent': 0, unknown: 0 };
  for (const o of outcomes) counts[o.status]++;
  return {
    environment: 'ACC',
    table: 'GrcIncidents',
    flow: 'incidents',
    startedAt: '2025-01-01T10:00:00.000Z',
    finishedAt: '2025-01-01T10:00:05.000Z',
    cancelled: false,
    firstRow: 2,
    outcomes,
    counts,
    withErrors: 0,
    ...more,
  };
}
