import type { DatasetId, DatasetRecord } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { datasetsRead } from '../../src/contracts/flows';
import { impliedFields } from '../../src/identity/implied-reads';
import { isoToSerial } from '../../src/sheet/serial';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { DataRecord } from '../../src/writeback/api';
import { catalogueEnvironment, flowContext } from '../../src/writeback/environment/context';
import type { AnyFlow } from '../../src/writeback/flow';
import { FLOWS } from '../../src/writeback/flows';
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

test("each flow validates a row and finds its record with only what a flow-only rule's implied reads serve (its description's fieldsRead)", async () => {
  const seen: Record<string, { found: boolean; unserved: string[] }> = {};
  for (const flow of FLOWS) {
    const reads = new Set<string>();
    // The records as the relay serves them to a person whose rule names only this flow: cut to the implied
    // fields (identity/implied-reads.ts). Reading a field that was cut is noted, whatever the outcome (a
    // probe of a field the record does not have at all, such as AnswerOptions on a list, is not).
    const served = (dataset: string, records: readonly DataRecord[]) => {
      const fields = impliedFields(flow.id, dataset);
      if (fields === '*') return records;
      return records.map((r) => {
        const note = (prop: string | symbol, target: object) => {
          if (typeof prop === 'string' && !(prop in target) && Object.hasOwn(r, prop)) reads.add(`${dataset}.${prop}`);
        };
        return new Proxy(Object.fromEntries(Object.entries(r).filter(([k]) => fields.includes(k))), {
          get: (t, p, receiver) => (note(p, t), Reflect.get(t, p, receiver)),
          has: (t, p) => (note(p, t), Reflect.has(t, p)),
          getOwnPropertyDescriptor: (t, p) => (note(p, t), Reflect.getOwnPropertyDescriptor(t, p)),
        });
      });
    };
    const full = new Map<string, DataRecord[]>();
    for (const d of datasetsRead(flow)) full.set(d, (await client.download(d)).records);
    const standing = new Map([...full].map(([d, rs]) => [d, served(d, rs)] as const));
    const prepared = flow.setup(standing, flowContext(flow, catalogueEnvironment(), standing));

    // A row with every column filled (a task update: the columns an Update sends), names from the dropdowns.
    const task = full.get('tasks')?.find((t) => t.Status === 'To do');
    const taskColumns = ['Task', 'Action', 'Responsible user', 'Reviewer', 'Comment'];
    const cells: Record<string, Cell> = {};
    for (const c of prepared.columns('Lists')) {
      if (flow.id === 'tasks' && !taskColumns.includes(c.name)) continue;
      // A custom field of an incident type: only the type the row selects.
      const ofType = /\[(.+)\]$/.exec(c.name)?.[1];
      if (ofType !== undefined && ofType !== cells['Incident types']) continue;
      cells[c.name] =
        c.name === 'Task' ? String(task!.Id)
        : c.name === 'Responsible user' || c.name === 'Reviewer' ? String(full.get('users')!.find((u) => !u.Deleted)!.Name)
        : c.name === 'Third party' ? String(full.get('thirdparty')!.find((t, _, all) => all.filter((o) => o.Name === t.Name).length === 1)!.Name)
        : c.name === 'LEI code' ? '5493001KJTIIGC8Y1R12'
        : c.name === 'Hyperlink' ? 'https://intranet.example.test/incident'
        : c.list?.values.length ? c.list.values[0]!
        : c.format === 'date' || c.format === 'datetime' ? isoToSerial(/end/i.test(c.name) ? '2025-12-31' : '2025-01-01')
        : c.format === 'number' || c.format === 'integer' ? 3
        : c.format === 'boolean' ? false
        : `Implied ${c.name}`;
    }
    const { request, problems } = prepared.prepare((column) => cells[column]);
    expect([flow.id, problems.filter((p) => p.severity === 'error').map((p) => `${p.column}: ${p.message}`)]).toEqual([flow.id, []]);

    // Its record in the service (a new one, or the task it updated), among the others: found.
    const body = (request as { body?: Record<string, unknown> }).body ?? (request as Record<string, unknown>);
    const guid = (request as { guid?: string }).guid;
    const now = new Date().toISOString();
    const existing = full.get(flow.reconcileDataset)!;
    const mine = { ...existing.find((r) => r.Id === guid), ...body, Id: guid ?? '30000000-0000-4000-8000-000000000001', DateRegistered: now, DateCreated: now };
    const records = served(flow.reconcileDataset, [...existing.filter((r) => r.Id !== mine.Id), mine]) as DatasetRecord<DatasetId>[];
    const sent = { state: prepared.sentState?.(request) ?? {}, at: new Date(Date.now() - 60_000) };
    const found = prepared.find(request, records, new Set(), sent);
    seen[flow.id] = { found: found.kind === 'found' && found.guid === mine.Id, unserved: [...reads] };
  }
  const all = { found: true, unserved: [] };
  expect(seen).toEqual({ incidents: all, thirdparties: all, contracts: all, tasks: all });
});
