import type { Counts, RunSummary } from '../../writeback';
import type { ActivityEntry } from '../activity/activity';
import type { UserMessage } from '../connection/messages';
import { counted } from '../../words/count';

/**
 * A post's outcome in words: the counts a user acts on (created, failed, not sent, unknown), what the
 * Activity list calls it, and the banner's advice, which says "Post again to finish" only when a row's
 * outcome is unknown (a row still "sending" after a stop is unknown too).
 */
export interface PostCounts {
  created: number;
  done: number;
  failed: number;
  notSent: number;
  unknown: number;
}

export const postCounts = (c: Counts): PostCounts => ({
  created: c.created,
  done: c.done,
  failed: c.failed,
  notSent: c['not sent'],
  unknown: c.unknown + c.sending,
});

/** "2 created, 1 failed, 3 not sent": every count that is not zero, or "nothing sent". */
export function countsText(c: PostCounts): string {
  const parts: [number, string][] = [
    [c.created, 'created'],
    [c.done, 'updated'],
    [c.failed, 'failed'],
    [c.notSent, 'not sent'],
    [c.unknown, 'unknown'],
  ];
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, what]) => `${n} ${what}`)
      .join(', ') || 'nothing sent'
  );
}

/** Partial when some rows went through and others did not: not a failure, the rows that went are in the service. */
export function postOutcome(summary: RunSummary): ActivityEntry['outcome'] {
  const c = postCounts(summary.counts);
  const through = c.created + c.done;
  const short = c.failed + c.notSent + c.unknown;
  if (summary.cancelled) return 'cancelled';
  if (short === 0 && !summary.stoppedBecause) return 'ok';
  return through > 0 ? 'partial' : 'failed';
}

/** The result banner after a post. */
export function postBanner(
  summary: RunSummary,
  table: string,
  environment: string,
): { intent: 'error' | 'warning' | 'success'; message: UserMessage } {
  const c = postCounts(summary.counts);
  const counts = countsText(c);
  const title = summary.cancelled ? `Cancelled: ${counts}` : `Posted: ${counts}`;
  const advice: string[] = [];
  if (summary.stoppedBecause) advice.push(`Stopped: ${summary.stoppedBecause}.`);
  advice.push(`Each row's outcome is in the Result columns of ${table}.`);
  if (c.failed)
    advice.push(
      `${rows(c.failed)} refused by the service: Result message says why; fix the row and clear Result to send it again.`,
    );
  if (c.notSent) advice.push(`${rows(c.notSent)} not sent: the next Post sends ${c.notSent === 1 ? 'it' : 'them'}.`);
  if (c.unknown)
    advice.push(
      `${rows(c.unknown)} may or may not have reached ${environment}: Post again to finish; ${c.unknown === 1 ? 'it is' : 'they are'} looked for in ${environment} before ${c.unknown === 1 ? 'it is' : 'they are'} ever sent again.`,
    );
  const intent = summary.stoppedBecause ? 'error' : c.failed + c.notSent + c.unknown > 0 ? 'warning' : 'success';
  return { intent, message: { title, detail: advice.join(' ') } };
}

const rows = (n: number) => counted(n, 'row');
