import { countsText, postBanner, postCounts, postOutcome } from '../../../src/taskpane/writeback/outcomeText';
import type { RunSummary } from '../../../src/writeback';

const summary = (counts: Partial<RunSummary['counts']>, extra: Partial<RunSummary> = {}): RunSummary => ({
  environment: 'ACC',
  table: 'GrcIncidents',
  flow: 'incidents',
  startedAt: '',
  finishedAt: '',
  cancelled: false,
  firstRow: 2,
  outcomes: [],
  withErrors: 0,
  counts: { sending: 0, created: 0, done: 0, failed: 0, 'not sent': 0, unknown: 0, ...counts },
  ...extra,
});

describe('a post outcome in words', () => {
  it('names a partial post as partial, with its counts', () => {
    const s = summary({ created: 2, failed: 1, 'not sent': 3 });
    expect(postOutcome(s)).toBe('partial');
    expect(countsText(postCounts(s.counts))).toBe('2 created, 1 failed, 3 not sent');
  });

  it('calls a post where nothing went through a failure, and one where everything did ok', () => {
    expect(postOutcome(summary({ failed: 2 }))).toBe('failed');
    expect(postOutcome(summary({ created: 4 }))).toBe('ok');
    expect(postOutcome(summary({ created: 4 }, { cancelled: true }))).toBe('cancelled');
  });

  it('says "Post again to finish" only when some rows are unknown, counting stopped "sending" rows as unknown', () => {
    const clean = postBanner(summary({ created: 2, failed: 1, 'not sent': 1 }), 'GrcIncidents', 'ACC');
    expect(clean.message.title).toBe('Posted: 2 created, 1 failed, 1 not sent');
    expect(clean.message.detail).not.toMatch(/post again to finish/i);
    expect(clean.message.detail).toContain('1 row refused by the service');
    expect(clean.intent).toBe('warning');

    const unsure = postBanner(summary({ created: 1, unknown: 1, sending: 1 }), 'GrcIncidents', 'ACC');
    expect(unsure.message.title).toBe('Posted: 1 created, 2 unknown');
    expect(unsure.message.detail).toMatch(/Post again to finish/);

    expect(postBanner(summary({ created: 3 }), 'T', 'ACC').intent).toBe('success');
  });
});
