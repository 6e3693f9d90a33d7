import { activitySummary, formatActivity } from '../../../src/taskpane/activity/activity';

test('copied activity is one tab-separated line per entry with what, where, how many and the error', () => {
  const text = formatActivity([
    { at: new Date('2026-01-02T03:04:05Z'), action: 'refresh', outcome: 'failed', environment: 'PRD', subject: 'risk', table: 'tbl_risk', message: 'The key is "not" accepted' },
    { at: new Date('2026-01-02T03:00:00Z'), action: 'load', outcome: 'ok', environment: 'PRD', subject: 'risk', table: 'tbl_risk', rows: 1200 },
  ]);
  expect(text.split('\n')).toEqual([
    'time\taction\toutcome\tdetails',
    `2026-01-02T03:04:05.000Z\trefresh\tfailed\tenv=PRD\tdataset=risk\ttable=tbl_risk\t"The key is 'not' accepted"`,
    '2026-01-02T03:00:00.000Z\tload\tok\tenv=PRD\tdataset=risk\ttable=tbl_risk\trows=1200',
  ]);
});

test('the Activity list names datasets by title and a partial post as such, not as a failure', () => {
  const at = new Date('2026-01-02T03:04:05Z');
  expect(activitySummary({ at, action: 'load', outcome: 'ok', environment: 'PRD', subject: 'thirdpartycontract', title: 'Third party contracts', table: 'tbl', rows: 3 })).toBe(
    'Loaded: Third party contracts, into tbl, 3 rows',
  );
  expect(activitySummary({ at, action: 'writeback', outcome: 'partial', environment: 'ACC', table: 'GrcIncidents', rows: 6 })).toBe(
    'Partly posted: GrcIncidents, 6 rows',
  );
});
