import { createClient, type GrcClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { AnyFlow } from '../../src/writeback/flow';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { thirdPartiesFlow } from '../../src/writeback/flows/thirdparties';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';

/** Third parties, contracts and task updates posted to the real sandbox: the bodies the flows build are accepted. */
const ACC = { name: 'ACC', production: false };
let sandbox: Sandbox;
let client: GrcClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 50, seed: 5 });
  client = createClient({ baseUrl: sandbox.url, credentials: sandbox.demoKey! });
});
afterAll(() => sandbox.close());

async function post(flow: AnyFlow, rows: Record<string, Cell>[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: client, workbook, flow, environment: ACC });
  await workbook.writeRows(
    shape.name,
    0,
    rows.map((r) => shape.columns.map((c) => r[c] ?? null)),
  );
  const plan = await preparePost({ api: client, workbook, table: shape.name, flow, environment: ACC });
  const summary = await plan.run();
  return { plan, summary };
}

test('third parties: LEI codes, framework dimensions and multi-select options are accepted; a bad LEI never leaves', async () => {
  const { plan, summary } = await post(thirdPartiesFlow, [
    {
      Name: 'Cloudy BV',
      'LEI code': '5493001KJTIIGC8Y1R12',
      'Framework dimensions': 'DORA; GDPR',
      Criticality: 'High',
      'Services provided': 'Cloud hosting; Data processing',
      Outsourcing: false,
    },
    { Name: 'Typo Ltd', 'LEI code': '5493001KJTIIGC8Y1R13', Criticality: 'Low' },
    { Name: 'Twice Inc', Criticality: 'Low', 'Services provided': 'Payroll; Payroll' },
  ]);
  expect(
    plan.validation.problems.filter((p) => p.severity === 'error').map((p) => `${p.row}:${p.code}`),
  ).toEqual(['1:lei-check-digits', '2:duplicate-option']);
  expect(summary.outcomes.map((o) => o.status)).toEqual(['created']);
  const values = sandbox.store
    .addedRecords('thirdpartycustomfieldvalues')
    .filter((v) => v.ThirdPartyGuid === summary.outcomes[0]!.guid);
  expect(values.map((v) => v.Value).sort()).toEqual(['Cloud hosting', 'Data processing', 'High', 'false']);
});

test('contracts: third party by name, notice periods with and without a number, end before start refused', async () => {
  const { records } = await client.download('thirdparty');
  const names = records.map((r) => r.Name as string);
  const unique = names.find((n) => names.filter((m) => m === n).length === 1)!;
  const { plan, summary } = await post(contractsFlow, [
    {
      'Third party': unique,
      Name: 'Hosting 2025',
      Services: 'Hosting',
      'Start date': '2025-01-01',
      'End date': '2025-12-31',
      'Notice period': 3,
      'Notice period unit': 'Months',
      'Exit regions': 'EU; UK',
    },
    { 'Third party': unique, Name: 'Ad hoc', 'Notice period unit': 'None' },
    { 'Third party': unique, Name: 'Backwards', 'Start date': '2025-06-01', 'End date': '2025-01-01' },
  ]);
  expect(plan.validation.problems.map((p) => `${p.row}:${p.code}`)).toEqual(['2:end-before-start']);
  expect(summary.outcomes.map((o) => o.status)).toEqual(['created', 'created']);
  const stored = sandbox.store.addedRecords('thirdpartycontract');
  expect(stored.map((c) => [c.Name, c.NoticePeriod, c.NoticePeriodUnit])).toEqual([
    ['Hosting 2025', 3, 'Months'],
    ['Ad hoc', null, 'None'],
  ]);
});

test('task updates: v2 update, score and status, advance; a Ready-for-review task refuses a rename before sending', async () => {
  const { records: tasks } = await client.download('tasks');
  const owner = 'Anna de Vries';
  const todo = tasks.find(
    (t) => t.Status === 'To do' && (t.ResponsibleUser === owner || t.Reviewer === owner),
  )!;
  const review = tasks.find((t) => t.Status === 'Ready for review')!;
  const other = tasks.find((t) => t.Status === 'To do' && t.Id !== todo.Id)!;
  const { plan, summary } = await post(tasksFlow, [
    { Task: todo.Identifier as string, Action: 'Update', Comment: 'checked', 'Action date': '2025-09-30' },
    { Task: todo.Identifier as string, Action: 'Advance' },
    { Task: review.Id as string, Action: 'Update', Name: 'Renamed' },
    { Task: review.Id as string, Action: 'Score and status', Score: 4, Comment: 'good' },
    { Task: other.Id as string, Action: 'Score and status', Status: 'Rejected' },
  ]);
  expect(
    plan.validation.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.row}:${p.column}:${p.code}`),
  ).toEqual(['2:Name:ready-for-review']);
  expect(summary.outcomes.map((o) => `${o.row}:${o.status}`)).toEqual([
    '0:done',
    '1:done',
    '3:done',
    '4:done',
  ]);
  const now = new Map((await client.download('tasks')).records.map((t) => [t.Id, t]));
  expect(now.get(todo.Id)).toMatchObject({
    Comment: 'checked',
    ActionDate: '2025-09-30',
    Status: 'Ready for review',
  });
  expect(now.get(review.Id)).toMatchObject({ Score: 4, Comment: 'good', Name: review.Name });
  expect(now.get(other.Id)).toMatchObject({ Status: 'Rejected' });
});

test('after lost answers, a row adopts the record its request created, never an older lookalike; a row whose lookalike predates it is sent', async () => {
  const seeded = (await client.download('thirdparty')).records;
  const named = async (name: string) =>
    (await client.download('thirdparty')).records.filter((r) => r.Name === name).map((r) => r.Id);
  const [oldOne] = await named('Supplier 1');
  expect(oldOne).toBeDefined();
  expect(seeded.filter((r) => r.Name === 'Supplier 2')).toHaveLength(1);

  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: client, workbook, flow: thirdPartiesFlow, environment: ACC });
  const fill = (names: string[], at: number) =>
    workbook.writeRows(
      shape.name,
      at,
      names.map((n) => shape.columns.map((c) => (c === 'Name' ? n : null))),
    );
  await fill(['Supplier 1', 'Fresh Ltd'], 0);
  const first = await preparePost({
    api: client,
    workbook,
    table: shape.name,
    flow: thirdPartiesFlow,
    environment: ACC,
  });
  // Every answer is lost after the service committed: both rows end up "unknown".
  sandbox.admin.setFaults({ dropRate: 1 });
  const lost = await first.run().finally(() => sandbox.admin.setFaults({ dropRate: 0 }));
  expect(lost.outcomes.map((o) => o.status)).toEqual(['unknown', 'unknown']);
  // A third row whose run stopped while it was "sending" (its request never left), sent now.
  const { columns } = await workbook.readRows(shape.name);
  await fill(['Supplier 2'], 2);
  await workbook.writeRows(
    shape.name,
    2,
    [['sending', '', 'Sending', new Date().toISOString()]],
    columns.indexOf('Result'),
  );

  const second = await preparePost({
    api: client,
    workbook,
    table: shape.name,
    flow: thirdPartiesFlow,
    environment: ACC,
  });
  expect(second.toCheck).toBe(3);
  const summary = await second.run();
  const [supplier1, fresh, supplier2] = summary.outcomes;
  const mine = (await named('Supplier 1')).filter((id) => id !== oldOne);
  expect(mine).toHaveLength(1);
  expect(supplier1).toMatchObject({
    status: 'created',
    guid: mine[0],
    message: expect.stringContaining('Found in the service'),
  });
  expect(fresh).toMatchObject({ status: 'created', guid: (await named('Fresh Ltd'))[0] });
  expect(supplier2).toMatchObject({ status: 'created', message: 'Created' });
  expect(await named('Supplier 2')).toHaveLength(2);
  expect(await named('Fresh Ltd')).toHaveLength(1);
});
