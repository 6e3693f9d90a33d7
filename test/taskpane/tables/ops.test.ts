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
  const intact = messageOf({ code: 'api', apiCode: 'unreachable', tableState: 'intact', message: 'The relay could not be reached. Table tbl_risk still holds the data of its last load.' }, 'ACC');
  expect(intact.detail).toMatch(/still holds the data of its last load/);
});
