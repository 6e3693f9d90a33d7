import { readLacking } from '../api';
import { lackingText } from '../environment/availability';
import { neutralise, type FormulaText } from '../checks/csv-injection';
import type { Found } from '../flow';
import type { RowCheck } from '../rows/validate';
import type { Job, Run } from './run-context';

/** The time a row was sent, from its Result time; undefined when blank or not a time. */
export function sentAt(time: string): Date | undefined {
  const at = time ? Date.parse(time) : NaN;
  return Number.isNaN(at) ? undefined : new Date(at);
}

/**
 * Rows that were sending or unknown are looked for in the service before anything is sent again: a record
 * found is the row's (its follow-up step, if any, still to do), an unclear match stays unknown for a person
 * to decide, and only a row whose record is absent becomes a job to send. `typed`: each row's request as
 * validated, before this run's choice for formula-like text.
 */
export async function reconcile(
  run: Run,
  checks: readonly RowCheck<unknown>[],
  o: { taken: ReadonlySet<string>; typed: ReadonlyMap<number, unknown>; formulaText: FormulaText | undefined },
): Promise<Job[]> {
  if (!checks.length || run.signal.aborted) return [];
  const { bound, tally } = run;
  const { flow, ctx } = bound;
  const lacks = ctx.availability.lacking;
  const existing = await readLacking(run.api, flow.reconcileDataset, lacks, run.signal);
  const taken = new Set(o.taken);
  const jobs: Job[] = [];
  // readLacking gives null only for a dataset listed as lacking, so its entry says why (by its title).
  const lacking = lacks.find((l) => l.id === flow.reconcileDataset);
  const cannotCheck = `Not sent again: whether the service has this record cannot be checked on ${ctx.environment.name}. ${lacking ? `${lackingText(lacking)} ` : ''}Look for it in the service; if it is not there, clear Result to send the row again.`;
  for (const r of checks) {
    // A row that stays unknown keeps its first send time and its state: the next Post needs both.
    const stillUnknown = (message: string) =>
      tally.record(r.row, { status: 'unknown', guid: '', message, time: r.result.time, state: r.state });
    if (!existing) {
      await stillUnknown(cannotCheck);
      continue;
    }
    const found = findEither(run, r, existing, taken, o);
    if (found.kind === 'found') {
      taken.add(found.guid.toLowerCase());
      const lead = 'Found in the service after an unknown outcome; not sent again';
      // A record found this way never had its follow-up step: it is done in the run, like a new one's.
      if (bound.followUp(r.request)) jobs.push({ check: r, made: { guid: found.guid, lead } });
      else await tally.record(r.row, { status: flow.resultStatus, guid: found.guid, message: lead });
    } else if (found.kind === 'unclear') {
      run.schedule.hold(r, 'unknown');
      await stillUnknown(found.message);
    } else jobs.push({ check: r });
  }
  return jobs;
}

/**
 * The formula-text choice is per run: an earlier run may have sent this row's text the other way. Looks for
 * that spelling too, or a change of choice would create the record a second time.
 */
function findEither(
  run: Run,
  r: RowCheck<unknown>,
  existing: Parameters<Run['bound']['prepared']['find']>[1],
  taken: ReadonlySet<string>,
  o: { typed: ReadonlyMap<number, unknown>; formulaText: FormulaText | undefined },
): Found {
  const { prepared } = run.bound;
  const mark = { state: r.state, at: sentAt(r.result.time) };
  const found = prepared.find(r.request, existing, taken, mark);
  const typed = o.typed.get(r.row);
  const other = o.formulaText === 'neutralised' ? typed : neutralise(typed);
  if (found.kind !== 'absent' || JSON.stringify(other) === JSON.stringify(r.request)) return found;
  return prepared.find(other, existing, taken, mark);
}
