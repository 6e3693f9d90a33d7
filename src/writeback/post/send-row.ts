import type { FollowUp } from '../flow';
import { dispositionOf, resultCells } from '../rows/results';
import { stateCell } from '../rows/state';
import type { RowCheck } from '../rows/validate';
import { receiptRecorder } from './receipts';
import type { Job, Run } from './run-context';
import { sendWithRetry } from './runner';
import type { Marks } from './marks';

/**
 * One row's job: held back when an earlier row of its record did not go through; rebased on the earlier
 * rows that did; marked "sending" (with its state) in the workbook before the request leaves; sent with
 * the write retry policy; then its follow-up step, or its outcome.
 */
export async function sendRow(run: Run, job: Job, marks: Marks): Promise<void> {
  const { check, made } = job;
  const { bound, tally, schedule } = run;
  const { prepared } = bound;
  const heldBy = schedule.heldBy(check);
  if (heldBy !== undefined) {
    schedule.hold(check, 'not sent');
    const message = `Not sent: row ${run.firstRow + heldBy} for the same record has not gone through; Post again once it has`;
    return tally.record(check.row, { status: 'not sent', guid: '', message, time: check.result.time || undefined, state: check.state });
  }
  // The relay's receipts of this row's writes go with its outcome into the audit row.
  const receipts = receiptRecorder(run.api);
  if (made) {
    const step = bound.followUp(check.request);
    return step
      ? finishStep(run, check, made.guid, made.lead, step, receipts)
      : tally.record(check.row, { status: bound.flow.resultStatus, guid: made.guid, message: made.lead });
  }
  let request = check.request;
  if (prepared.rebase && schedule.keyOf(check) !== undefined) {
    try {
      request = await prepared.rebase(request, schedule.before(check), run.api, run.signal);
    } catch (e) {
      schedule.hold(check, 'not sent');
      const why = e instanceof Error ? e.message : String(e);
      return tally.record(check.row, { status: 'not sent', guid: '', message: `Not sent: could not read the record's state (${why}); Post again` });
    }
  }
  // The mark is in the workbook, and durable, before the request leaves: a crash from here on leaves "sending".
  const { at, time: sendingTime, state } = await marks.mark(job, request);
  // A row deleted, or edited before it had a key, is not sent: its outcome would have nowhere to go.
  if (at === null) {
    schedule.hold(check, 'not sent');
    return tally.lost(check.row, 'Not sent: the row was deleted or edited after validation; Post again');
  }
  const call = prepared.call(request);
  // Not cut off by cancel: a request on its way finishes and its outcome is recorded.
  const attempt = await sendWithRetry(
    async () => ({ status: bound.flow.resultStatus, guid: await bound.send(receipts.api, call, check.extra), message: prepared.done(request) }),
    { ...run.retry, signal: run.signal },
  );
  if (attempt.ok) {
    schedule.wentThrough(check, request);
    const { sent } = attempt;
    const step = bound.followUp(request);
    if (step) return finishStep(run, check, sent.guid, sent.message, step, receipts);
    const skipped = bound.skippedFollowUp(request);
    const message = skipped ? `${sent.message}; ${skipped.message}` : sent.message;
    return tally.record(check.row, { status: sent.status, guid: sent.guid, message, receipt: await receipts.cell() });
  }
  const v = attempt.verdict;
  schedule.hold(check, v.kind);
  // An unknown row keeps its send time and state: the next run needs both to look for the record.
  const receipt = await receipts.cell();
  await tally.record(
    check.row,
    v.kind === 'unknown'
      ? { status: v.kind, guid: '', message: v.message, time: sendingTime, state, receipt }
      : { status: v.kind, guid: '', message: v.message, receipt },
  );
  run.stopOn(v);
  // Sent for the first time: looked for in the service before this Post ends (settle.ts). A row that was
  // already checked (and found absent) before this send is left to the next Post, so a failing service
  // gets a row at most twice per Post. Rows of one record in sheet order (a task's updates) are left to
  // the next Post too: the rows after this one were already held back.
  if (v.kind === 'unknown' && dispositionOf(check.result) !== 'check' && !run.signal.aborted && schedule.keyOf(check) === undefined)
    run.unsettled.push({ ...check, request, result: { status: 'unknown', guid: '', message: v.message, time: sendingTime }, state });
}

/**
 * The step after the create, journaled on its own: the record exists whatever becomes of the step. A step
 * that found the service busy is left in the row's state for the next Post; one whose answer was lost is
 * not (the service offers no way to read an incident's hyperlinks back, so only a person can tell).
 */
async function finishStep(run: Run, check: RowCheck<unknown>, guid: string, lead: string, step: FollowUp, receipts: ReturnType<typeof receiptRecorder>): Promise<void> {
  const status = run.bound.flow.resultStatus;
  const key = run.keys.get(check.row);
  if (key)
    await run.journal.write(
      key,
      resultCells({ status, guid, message: `${lead}; adding its ${step.what}`, time: run.now().toISOString() }),
      stateCell({}),
      // Durable before the step is sent: a crash must not leave the row "sending", or the next Post, finding
      // the record, would add the step a second time.
      true,
    );
  const attempt = await sendWithRetry(
    () => run.bound.send(receipts.api, step.call(guid), check.extra, run.signal).then(() => ({ status, guid, message: '' })),
    { ...run.retry, signal: run.signal },
  );
  const receipt = await receipts.cell();
  if (attempt.ok) return run.tally.record(check.row, { status, guid, message: `${lead}; ${step.what} added`, receipt });
  const v = attempt.verdict;
  run.stopOn(v);
  if (v.kind === 'not sent')
    return run.tally.record(check.row, {
      status,
      guid,
      message: `${lead}; ${step.what} to add: Post again to add it (${v.message})`,
      state: { step: step.what },
      receipt,
      // Saved at once, as the other outcomes of a step that did not go through: lost in a crash, the row
      // would say "adding its hyperlink" and nothing more, and the next Post, finding it created, would
      // leave the step undone without a word (or the person without the reason to act on).
      durable: true,
    });
  const message =
    v.kind === 'failed'
      ? `${lead}, but the service refused the ${step.what} (${v.message}); correct it and add it in the service`
      : `${lead}; the ${step.what} may or may not have been added (${v.message}); look at the record in the service and, if it has no such ${step.what}, add it there`;
  return run.tally.record(check.row, { status, guid, message, receipt, durable: true });
}
