import { ApiError, createClient, type GrcClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import type { AnyFlow } from '../../src/writeback/flow';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';

/**
 * Every step of a row, against the real sandbox: follow-up steps (an incident's hyperlink) journaled and
 * done on their own, and several rows for one task applied in order. Lost answers are made by a thin
 * wrapper around the real client: the request reaches the sandbox (or not), the answer is then "lost".
 */
const ACC = { name: 'ACC', production: false };
let sandbox: Sandbox;
let client: GrcClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 50, seed: 29, environment: 'ACC' });
  client = createClient({ baseUrl: sandbox.url, credentials: sandbox.demoKey! });
});
afterAll(() => sandbox.close());

const lost = () => new ApiError({ code: 'outcome-unknown', sent: 'unknown', message: 'connection dropped mid-answer' });
const busy = (retryAfterMs?: number) =>
  new ApiError({ code: 'unavailable', sent: 'yes', status: 503, message: 'busy', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

/** The real client, with `fault` deciding per call: do it and lose the answer, fail before it, or pass. */
function faulty(fault: (op: string, n: number) => 'lose-answer' | 'lose-request' | ApiError | undefined) {
  const calls: string[] = [];
  const api: WritebackApi = {
    download: (id, o) => client.download(id, o),
    async send(op, o) {
      calls.push(op);
      const f = fault(op, calls.filter((c) => c === op).length);
      if (f instanceof ApiError) throw f;
      if (f === 'lose-request') throw lost();
      const answer = await client.send(op, o);
      if (f === 'lose-answer') throw lost();
      return answer;
    },
  };
  return { api, calls };
}

async function sheet(flow: AnyFlow, rows: Record<string, Cell>[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: client, workbook, flow, environment: ACC });
  await workbook.writeRows(shape.name, 0, rows.map((r) => shape.columns.map((c) => r[c] ?? null)));
  return { workbook, table: shape.name };
}

async function post(api: WritebackApi, flow: AnyFlow, s: { workbook: ReturnType<typeof createMemoryWorkbook>; table: string }) {
  const plan = await preparePost({ api, workbook: s.workbook, table: s.table, flow, environment: ACC });
  return { plan, summary: await plan.run({ retry: { attempts: 4, maxWaitMs: 2_000 }, sleep: async () => undefined }) };
}

const incidentRow = (name: string): Record<string, Cell> => ({
  Name: name,
  'Reporting organization': 'Finance',
  Description: 'with a link',
  Assessors: 'Bram Jansen',
  Responsible: 'Chloe Martin',
  Hyperlink: `https://example.com/${name}`,
});
const hyperlinksOf = (guid: string) => sandbox.store.incidentExtra(guid).hyperlinks.length;

describe('an incident\'s hyperlink, a step of its own', () => {
  it('an incident whose answer was lost is found within the same Post and still gets its hyperlink, once', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('adopted-1')]);
    const first = faulty((op, n) => (op === 'incident-create' && n === 1 ? 'lose-answer' : undefined));
    const { summary } = await post(first.api, incidentsFlow, s);
    const [o] = summary.outcomes;
    expect(o).toMatchObject({ status: 'created' });
    expect(o!.message).toBe('Found in the service after an unknown outcome; not sent again; hyperlink added');
    expect(first.calls).toEqual(['incident-create', 'incident-hyperlink']);
    expect(hyperlinksOf(o!.guid)).toBe(1);
    const again = await preparePost({ api: client, workbook: s.workbook, table: s.table, flow: incidentsFlow, environment: ACC });
    expect(again.toSend + again.toCheck).toBe(0);
  });

  it('a create lost before it reached the service is proven absent and sent again within the same Post, once', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('resent-1')]);
    const f = faulty((op, n) => (op === 'incident-create' && n === 1 ? 'lose-request' : undefined));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    expect(o).toMatchObject({ status: 'created', message: 'Created; hyperlink added' });
    expect(f.calls).toEqual(['incident-create', 'incident-create', 'incident-hyperlink']);
    expect((await client.download('incidents')).records.filter((r) => r.Name === 'resent-1').map((r) => r.Id)).toEqual([o!.guid]);
  });

  it('a resend whose answer is lost again stays unknown for the next Post, which finds it: the service gets the row twice, never a record twice', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('twice-lost')]);
    const f = faulty((op, n) => (op !== 'incident-create' ? undefined : n === 1 ? 'lose-request' : 'lose-answer'));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    expect(o!.status).toBe('unknown');
    expect(f.calls).toEqual(['incident-create', 'incident-create']);
    const g = faulty(() => undefined);
    const [p] = (await post(g.api, incidentsFlow, s)).summary.outcomes;
    expect(p).toMatchObject({ status: 'created', message: 'Found in the service after an unknown outcome; not sent again; hyperlink added' });
    expect(g.calls).toEqual(['incident-hyperlink']);
    expect((await client.download('incidents')).records.filter((r) => r.Name === 'twice-lost')).toHaveLength(1);
  });

  it('a 503 with Retry-After on the hyperlink call is retried like any call', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('busy-link')]);
    const f = faulty((op, n) => (op === 'incident-hyperlink' && n <= 2 ? busy(10) : undefined));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    expect(o).toMatchObject({ status: 'created', message: 'Created; hyperlink added' });
    expect(f.calls).toEqual(['incident-create', 'incident-hyperlink', 'incident-hyperlink', 'incident-hyperlink']);
    expect(hyperlinksOf(o!.guid)).toBe(1);
  });

  it('a hyperlink still busy after the retries is left to add, and the next Post adds it without creating again', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('later-link')]);
    const f = faulty((op) => (op === 'incident-hyperlink' ? busy() : undefined));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    expect(o!.status).toBe('created');
    expect(o!.message).toContain('hyperlink to add: Post again to add it');
    expect(hyperlinksOf(o!.guid)).toBe(0);

    const g = faulty(() => undefined);
    const { plan, summary } = await post(g.api, incidentsFlow, s);
    expect(plan.toSend).toBe(1);
    expect(g.calls).toEqual(['incident-hyperlink']);
    expect(summary.outcomes[0]).toMatchObject({ status: 'created', guid: o!.guid, message: 'Created; hyperlink added' });
    expect(hyperlinksOf(o!.guid)).toBe(1);
  });

  it('a lost answer to the hyperlink call is said as such, and nothing is added twice', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('lost-link')]);
    const f = faulty((op) => (op === 'incident-hyperlink' ? 'lose-answer' : undefined));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    expect(o!.status).toBe('created');
    expect(o!.message).toContain('may or may not have been added');
    expect(o!.message).not.toContain('add it in the service');
    expect(hyperlinksOf(o!.guid)).toBe(1);
    const again = await preparePost({ api: client, workbook: s.workbook, table: s.table, flow: incidentsFlow, environment: ACC });
    expect(again.toSend + again.toCheck).toBe(0);
  });

  it('a step left to do, refused or of unknown outcome is saved so before the Post goes on: a crash right after it does not leave the row "adding its hyperlink"', async () => {
    const refused = new ApiError({ code: 'rejected', sent: 'yes', status: 400, message: 'Url: not a link the service takes' });
    const cases: [string, ApiError | 'lose-answer', Cell[]][] = [
      ['saved-step', busy(), ['created', expect.stringContaining('hyperlink to add'), JSON.stringify({ step: 'hyperlink' })]],
      ['saved-refusal', refused, ['created', expect.stringContaining('refused the hyperlink'), null]],
      ['saved-unknown', 'lose-answer', ['created', expect.stringContaining('may or may not have been added'), null]],
    ];
    for (const [name, fault, expected] of cases) {
      const s = await sheet(incidentsFlow, [incidentRow(name)]);
      // What a crash would leave: the workbook as of its last save (the command line's file).
      let saved: Cell[] = [];
      const workbook = {
        ...s.workbook,
        async persist() {
          const { rows, columns } = await s.workbook.readRows(s.table);
          saved = ['Result', 'Result message', 'Row state'].map((c) => rows[0]![columns.indexOf(c)] ?? null);
        },
      };
      const f = faulty((op) => (op === 'incident-hyperlink' ? fault : undefined));
      const plan = await preparePost({ api: f.api, workbook, table: s.table, flow: incidentsFlow, environment: ACC });
      await plan.run({ sleep: async () => undefined });
      expect(saved).toEqual(expected);
    }
  });

  it('the step still to do lives in the hidden Row state, not in the Result message: editing the message changes nothing', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('state-link')]);
    const f = faulty((op) => (op === 'incident-hyperlink' ? busy() : undefined));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    const { rows, columns } = await s.workbook.readRows(s.table);
    expect(JSON.parse(String(rows[0]![columns.indexOf('Row state')]))).toEqual({ step: 'hyperlink' });
    // A person rewrites the message: the state still says what the next Post does.
    await s.workbook.writeRows(s.table, 0, [['Created (checked by hand)']], columns.indexOf('Result message'));
    const g = faulty(() => undefined);
    await post(g.api, incidentsFlow, s);
    expect(g.calls).toEqual(['incident-hyperlink']);
    expect(hyperlinksOf(o!.guid)).toBe(1);
    const after = await s.workbook.readRows(s.table);
    expect(after.rows[0]![columns.indexOf('Row state')] ?? null).toBeNull();
  });

  it('an older sheet whose message says "hyperlink to add" and has no Row state creates nothing again', async () => {
    const s = await sheet(incidentsFlow, [incidentRow('old-sheet-link')]);
    const f = faulty((op) => (op === 'incident-hyperlink' ? 'lose-request' : undefined));
    const [o] = (await post(f.api, incidentsFlow, s)).summary.outcomes;
    const { columns } = await s.workbook.readRows(s.table);
    await s.workbook.writeRows(s.table, 0, [['Created; hyperlink to add: Post again to add it']], columns.indexOf('Result message'));
    const g = faulty(() => undefined);
    const again = await post(g.api, incidentsFlow, s);
    expect(again.plan.toSend + again.plan.toCheck).toBe(0);
    expect(g.calls).toEqual([]);
    expect(hyperlinksOf(o!.guid)).toBe(0);
  });
});

describe('several rows for one task', () => {
  const owner = 'Anna de Vries';
  const todoTasks = async () =>
    (await client.download('tasks')).records.filter(
      (t) => t.Status === 'To do' && (t.ResponsibleUser === owner || t.Reviewer === owner),
    );

  it('two updates: the second row\'s blank cells keep what the first row set', async () => {
    const [task] = await todoTasks();
    const s = await sheet(tasksFlow, [
      { Task: task!.Id as string, Action: 'Update', Comment: 'first row' },
      { Task: task!.Id as string, Action: 'Update', 'Action date': '2025-10-31' },
    ]);
    const { summary } = await post(client, tasksFlow, s);
    expect(summary.outcomes.map((o) => o.status)).toEqual(['done', 'done']);
    const now = (await client.download('tasks')).records.find((t) => t.Id === task!.Id)!;
    expect(now).toMatchObject({ Comment: 'first row', ActionDate: '2025-10-31' });
  });

  it('two advances, the second lost on its way: it is checked against the status the first left, and sent again', async () => {
    const [, task] = await todoTasks();
    const s = await sheet(tasksFlow, [
      { Task: task!.Id as string, Action: 'Advance' },
      { Task: task!.Id as string, Action: 'Advance' },
    ]);
    const f = faulty((op, n) => (op === 'task-advance' && n === 2 ? 'lose-request' : undefined));
    const first = await post(f.api, tasksFlow, s);
    expect(first.summary.outcomes.map((o) => o.status)).toEqual(['done', 'unknown']);
    // The status it was sent from is in the row's hidden state, for the next Post to compare with.
    const { rows, columns } = await s.workbook.readRows(s.table);
    expect(JSON.parse(String(rows[1]![columns.indexOf('Row state')]))).toEqual({ from: 'Ready for review' });

    const second = await post(client, tasksFlow, s);
    expect(second.plan.toCheck).toBe(1);
    expect(second.summary.outcomes.map((o) => o.status)).toEqual(['done']);
    const now = (await client.download('tasks')).records.find((t) => t.Id === task!.Id)!;
    expect(now.Status).toBe('In review');
  });

  it('a row waits while an earlier row for the same task has not gone through', async () => {
    const [, , task] = await todoTasks();
    const s = await sheet(tasksFlow, [
      { Task: task!.Id as string, Action: 'Update', Comment: 'one' },
      { Task: task!.Id as string, Action: 'Advance' },
    ]);
    const f = faulty((op) => (op === 'task-update-v2' ? 'lose-request' : undefined));
    const { summary } = await post(f.api, tasksFlow, s);
    expect(summary.outcomes.map((o) => o.status)).toEqual(['unknown', 'not sent']);
    expect(summary.outcomes[1]!.message).toMatch(/^Not sent: row \d+ for the same record has not gone through/);
    expect(f.calls).toEqual(['task-update-v2']);
    // The next Post checks the first row (absent: sent again), then the second follows it.
    const again = await post(client, tasksFlow, s);
    expect(again.summary.outcomes.map((o) => o.status)).toEqual(['done', 'done']);
    const now = (await client.download('tasks')).records.find((t) => t.Id === task!.Id)!;
    expect(now).toMatchObject({ Comment: 'one', Status: 'Ready for review' });
  });
});
