import { messageOf } from '../../../src/taskpane/tables/ops';

test('a load that failed on the API reads like the same failure on Connect', () => {
  const m = messageOf({ code: 'api', apiCode: 'invalid-credentials', message: 'The credentials are invalid.' }, 'ACC');
  expect(m.title).toBe('The key is not accepted in ACC');
});

test('workbook-side failures keep the load module’s message under a plain title', () => {
  const m = messageOf({ code: 'environment-mismatch', message: 'Table tbl_risk was loaded from PRD ...' }, 'ACC');
  expect(m).toEqual({ title: 'Connected to another environment', detail: 'Table tbl_risk was loaded from PRD ...' });
});

test('an API code the taskpane does not know still gives the service’s message', () => {
  expect(messageOf({ code: 'api', apiCode: 'something-new', message: 'odd' }, 'ACC')).toEqual({ title: 'The service refused the request', detail: 'odd' });
});

test('a failed refresh is titled by what it left in the table', () => {
  expect(messageOf({ code: 'workbook', tableState: 'mixed', message: 'Excel refused ... may mix old and new rows.' }, 'ACC').title).toMatch(/may mix old and new rows\. Refresh again/);
  expect(messageOf({ code: 'table-missing', tableState: 'gone', message: 'Table tbl_risk is no longer in the workbook.' }, 'ACC').title).toMatch(/table is gone/);
});

test('a refresh refused before it wrote leaves the "still holds its last load" to the Tables card, which says it with the load time', () => {
  const intact = messageOf({ code: 'api', apiCode: 'outcome-unknown', tableState: 'intact', message: 'The connection broke in the middle of the answer; loading again is safe. Table tbl_risk still holds the data of its last load.' }, 'ACC');
  expect(intact).toEqual({ title: 'The connection broke before the answer was complete', detail: 'The connection broke in the middle of the answer; loading again is safe. Try again.' });
  const refused = messageOf({ code: 'target-refused', tableState: 'intact', message: "The dataset's new fields would take table tbl_risk past Excel's last column (XFD). Table tbl_risk still holds the data of its last load." }, 'ACC');
  expect(refused.detail).not.toMatch(/still holds/);
});
