import type { FormulaText } from '../checks/csv-injection';
import { reconcile } from './reconcile';
import type { Job, Run } from './run-context';

/**
 * Finishes, within the Post, the rows whose first send lost its answer (send-row.ts collects them). Each
 * was journaled `unknown` (with its send time and state) first, so a crash from here on leaves it to the
 * next Post's check. Then the service's records are read once and each row is looked for among them as
 * the next Post would (reconcile.ts): a record found is the row's (never sent again), several candidates
 * leave it `unknown` for a person, and only a row whose record is absent is sent again. The spec offers
 * no idempotency key, so that read back is the proof a resend needs. Records this run's other rows took
 * are not candidates. A resend whose answer is lost again, and every row when the read fails, stays
 * `unknown` for the next Post.
 */
export async function settle(
  run: Run,
  o: {
    taken: ReadonlySet<string>;
    typed: ReadonlyMap<number, unknown>;
    formulaText: FormulaText | undefined;
    pool(jobs: Job[]): Promise<void>;
  },
): Promise<void> {
  if (!run.unsettled.length || run.signal.aborted) return;
  const checks = run.unsettled.splice(0);
  const taken = new Set(o.taken);
  for (const out of run.tally.outcomes()) if (out.guid) taken.add(out.guid.toLowerCase());
  let jobs: Job[];
  try {
    jobs = await reconcile(run, checks, { taken, typed: o.typed, formulaText: o.formulaText });
  } catch {
    // The service's records could not be read (the read's own retries spent): the rows stay `unknown`,
    // as journaled, and the next Post looks for them.
    return;
  }
  await o.pool(jobs);
}
