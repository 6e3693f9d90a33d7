/**
 * Issue 24: "A full update never sends what it does not know", through the relay. For the catalogue's own
 * binding and each customer file whose task update is a full update (a PUT, or cyberdyne's POST .../Update),
 * a sandbox stands in for the service behind a guard that records every write after which a task field that
 * had a value is empty (test/support/blanking-guard.ts), with the relay in front reading the binding file.
 * The write-back posts task rows as a user would (a memory workbook, the client through the relay):
 * - an Update row with only Comment typed keeps the task's description and notification periods;
 * - a row per action with every column typed: each value is in the request, or refused on its own cell;
 * - a tasks dataset that does not show a field: a blank cell for it is refused on that cell, nothing sent;
 * and the guard catches the request the write-back sent before (null and [] for untouched fields).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import { createCatalog, encodeRequest, isGuid, type Binding, type BoundOperation } from '../../src/catalog';
import { boundOf } from '../../src/catalog/identity';
import { createClient, type GrcClient } from '../../src/client';
import { type EnvironmentView } from '../../src/contracts/environments';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { markProblems } from '../../src/writeback/rows/marks';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { startBlankingGuard, type BlankingGuard } from '../support/blanking-guard';
import { relayViews } from '../relay/helpers';

type Json = Record<string, unknown>;
type Row = Record<string, Cell>;

/** The catalogue's own binding (no file), then the corpus files whose task update is a full update. */
const CASES = [
  'catalogue',
  'initech.openapi.json',
  'hooli.openapi.yaml',
  'vandelay.swagger.json',
  'soylent.openapi.yaml',
  'wonka.openapi.json',
  'cyberdyne.openapi.yaml',
  'juniper.openapi.yaml',
  'larkspur.swashbuckle.json',
];
const corpus = (name: string) => join(__dirname, 'corpus', name);

interface World {
  binding: Binding | undefined;
  sandbox: Sandbox;
  guard: BlankingGuard;
  relay: Relay;
  client: GrcClient;
  acc: EnvironmentView;
}

async function startWorld(file: string, overrides?: string): Promise<World> {
  const binding =
    file === 'catalogue'
      ? undefined
      : (await importBinding(corpus(file), { accept: true, ...(overrides ? { overrides } : {}) })).binding;
  const sandbox = await startSandbox({
    scale: 40,
    seed: 11,
    ...(binding ? { binding, apiFile: corpus(file) } : {}),
  });
  const guard = await startBlankingGuard(sandbox);
  const bindingFile = join(mkdtempSync(join(tmpdir(), 'full-update-')), 'binding.json');
  if (binding) writeFileSync(bindingFile, JSON.stringify(binding));
  const relay = await startRelay({
    listen: { host: '127.0.0.1', port: 0 },
    environments: { acc: { baseUrl: guard.url, ...(binding ? { binding: bindingFile } : {}) } },
    logLevel: 'silent',
  });
  const [acc] = await relayViews(relay.url);
  const client = createClient({
    baseUrl: `${relay.url}/api/acc`,
    credentials: sandbox.demoKey!,
    catalog: createCatalog(acc!.binding ?? undefined),
  });
  return { binding, sandbox, guard, relay, client, acc: acc! };
}

async function stopWorld(w: World | undefined) {
  if (!w) return;
  await w.relay.close();
  await w.guard.close();
  await w.sandbox.close();
}

/** Validates the rows in a new template through the relay; `post` runs the plan. */
async function plan(w: World, rows: Row[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: w.client, workbook, flow: tasksFlow, environment: w.acc });
  await workbook.writeRows(
    shape.name,
    0,
    rows.map((r) => shape.columns.map((c) => r[c] ?? null)),
  );
  const p = await preparePost({
    api: w.client,
    workbook,
    table: shape.name,
    flow: tasksFlow,
    environment: w.acc,
  });
  return { columns: shape.columns, plan: p, workbook, table: shape.name };
}

/** Runs a plan as the user confirming the environment and the row count would. */
async function run(p: Awaited<ReturnType<typeof plan>>['plan']) {
  const c = p.confirmation;
  return p.run(c ? { confirm: { environment: c.environment, rows: c.rows } } : {});
}

const todo = (w: World) => w.sandbox.store.list<Json>('tasks').filter((t) => t.Status === 'To do');
const users = (w: World) => w.sandbox.store.list<Json>('users').filter((u) => u.Deleted !== true);
const extrasOf = (w: World, id: string) =>
  (w.binding?.endpoints[id] as BoundOperation | undefined)?.extras ?? [];
/** A value for an extra column: its first enum value, else by its cell type (as the corpus test types them). */
const extraValue = (x: ReturnType<typeof extrasOf>[number]): Cell =>
  x.values?.length
    ? x.values[0]!
    : x.cell === 'boolean'
      ? true
      : x.cell === 'number' || x.cell === 'integer'
        ? 7
        : x.cell.startsWith('date')
          ? '2026-04-01'
          : `extra ${x.fileName}`;

/** The update's extra columns the file requires (hooli's api-version), typed as a user must. */
const required = (w: World): Row =>
  Object.fromEntries(
    extrasOf(w, 'task-update-v2')
      .filter((x) => x.required)
      .map((x) => [x.header, extraValue(x)]),
  );

/** A task's fields the test compares, with people and dates as the user would read them. */
function seen(w: World, id: string): Json {
  const t = w.sandbox.store.find('tasks', id)!;
  const name = (v: unknown) =>
    typeof v === 'string' && isGuid(v)
      ? (users(w).find((u) => String(u.Id).toLowerCase() === v.toLowerCase())?.Name ?? v)
      : v;
  return {
    Name: t.Name,
    Description: t.Description,
    ResponsibleUser: name(t.ResponsibleUser),
    Reviewer: name(t.Reviewer),
    ActionDate: typeof t.ActionDate === 'string' ? t.ActionDate.slice(0, 10) : t.ActionDate,
    Score: t.Score,
    Comment: t.Comment,
    Status: t.Status,
    NotificationPeriods: t.NotificationPeriods,
  };
}

describe.each(CASES)('task full updates through the relay: %s', (file) => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(file);
  });
  afterAll(() => stopWorld(w));
  afterEach(() => expect(w!.guard.blanked).toEqual([]));

  it('an Update row with only Comment typed keeps every other field of the task as it was', async () => {
    const task = todo(w!).find((t) => t.Description && (t.NotificationPeriods as unknown[]).length)!;
    const before = seen(w!, task.Id as string);
    const { plan: p } = await plan(w!, [
      { Task: task.Id as string, Action: 'Update', Comment: `only the comment, ${file}`, ...required(w!) },
    ]);
    expect(p.validation.problems).toEqual([]);
    const writes = w!.guard.writes.length;
    const summary = await run(p);
    expect(summary.outcomes.map((o) => [o.status, o.message])).toEqual([['done', 'Updated']]);
    expect(w!.guard.writes.length).toBe(writes + 1);
    expect(seen(w!, task.Id as string)).toEqual({ ...before, Comment: `only the comment, ${file}` });
    // The request itself carried the current values, not null or [].
    const got = w!.sandbox.store.received
      .filter((r) => r.endpoint === 'task-update-v2' && r.id === task.Id)
      .at(-1)!;
    const wire = JSON.stringify(got.body);
    expect(wire).toContain('Generated task.');
    expect(wire).toContain((task.NotificationPeriods as string[])[0]);
  });

  it('a Score and status row with only Comment typed keeps the score and the status (a PUT carries them)', async () => {
    if (w!.binding && !w!.binding.endpoints['task-score-status']) {
      // hooli's file has no such operation: the action is not offered.
      expect(w!.binding.missing['task-score-status']).toBeDefined();
      return;
    }
    const task = w!.sandbox.store
      .list<Json>('tasks')
      .find((t) => t.Status === 'Ready for review' && t.Score !== null)!;
    const before = seen(w!, task.Id as string);
    const { plan: p } = await plan(w!, [
      { Task: task.Id as string, Action: 'Score and status', Comment: `comment alone, ${file}` },
    ]);
    expect(p.validation.problems).toEqual([]);
    expect((await run(p)).outcomes.map((o) => [o.status, o.message])).toEqual([['done', 'Updated']]);
    expect(seen(w!, task.Id as string)).toEqual({ ...before, Comment: `comment alone, ${file}` });
    const put = (w!.binding?.endpoints['task-score-status'] as BoundOperation | undefined)?.method === 'PUT';
    const got = w!.sandbox.store.received
      .filter((r) => r.endpoint === 'task-score-status' && r.id === task.Id)
      .at(-1)!;
    // A PUT (soylent) carried the current score and status; the others sent the comment alone.
    expect(
      Object.values(got.body as Json).flatMap((v) => (v && typeof v === 'object' ? Object.values(v) : [v]))
        .length,
    ).toBe(put ? 3 : 1);
  });

  it('a row per action with every column typed: each value is in the request or refused on its own cell; cleared, the rows post', async () => {
    const [a, b] = todo(w!);
    // Advancing is the responsible user's or the reviewer's: the demo key's owner is the first user.
    const owner = w!.sandbox.store.list<Json>('users')[0]!.Name;
    const c = todo(w!).find((t) => t.Id !== a!.Id && t.Id !== b!.Id && t.ResponsibleUser === owner)!;
    const [ann, bob] = users(w!);
    const values: Row = {
      Name: `renamed ${file}`,
      Description: `described ${file}`,
      'Responsible user': bob!.Name as string,
      Reviewer: ann!.Name as string,
      'Action date': '2026-06-30',
      Score: 4,
      Comment: `commented ${file}`,
      Status: 'Rejected',
      'Notification periods': 'NP-1W; NP-1M',
    };
    const ops = {
      Update: 'task-update-v2',
      'Score and status': 'task-score-status',
      Advance: 'task-advance',
    } as const;
    type Action = keyof typeof ops;
    // The actions this environment's file has (hooli has no score-and-status operation, soylent no advance).
    const actions = (Object.keys(ops) as Action[]).filter((a) => !w!.binding || w!.binding.endpoints[ops[a]]);
    const allExtras = Object.fromEntries(
      Object.values(ops).flatMap((id) => extrasOf(w!, id).map((x) => [x.header, extraValue(x)])),
    );
    const taskOf: Record<Action, Json> = { Update: a!, 'Score and status': b!, Advance: c };
    const rows: Row[] = actions.map((action) => ({
      Task: taskOf[action].Id as string,
      Action: action,
      ...values,
      ...allExtras,
    }));
    const { columns, plan: first } = await plan(w!, rows);
    for (const r of rows) for (const k of Object.keys(r)) if (!columns.includes(k)) delete r[k];
    // What each action sends; any other typed cell must be refused on that cell.
    const OWN: Record<Action, string[]> = {
      Update: [
        'Name',
        'Description',
        'Responsible user',
        'Reviewer',
        'Action date',
        'Score',
        'Comment',
        'Notification periods',
      ],
      'Score and status': ['Score', 'Comment', 'Status'],
      Advance: [],
    };
    const sends = (action: Action, column: string) =>
      OWN[action].includes(column) || extrasOf(w!, ops[action]).some((x) => x.header === column);
    const expected = rows.flatMap((r, i) =>
      Object.keys(r)
        .filter((k) => k !== 'Task' && k !== 'Action' && !sends(r.Action as Action, k))
        .map((k) => `${i}:${k}:not-sent-by-action`),
    );
    expect(first.validation.problems.map((p) => `${p.row}:${p.column}:${p.code}`).sort()).toEqual(
      expected.sort(),
    );
    for (const p of first.validation.problems) expect(p.message).toMatch(/would not be sent; clear /);
    // Status has a column only where the file has the score-and-status operation.
    if (columns.includes('Status'))
      expect(expected).toContain(`${actions.indexOf('Update')}:Status:not-sent-by-action`);
    if (actions.includes('Score and status'))
      expect(expected).toEqual(
        expect.arrayContaining(
          ['Name', 'Description', 'Notification periods'].map(
            (c) => `${actions.indexOf('Score and status')}:${c}:not-sent-by-action`,
          ),
        ),
      );
    if (actions.includes('Advance'))
      expect(expected).toContain(`${actions.indexOf('Advance')}:Name:not-sent-by-action`);

    // The user clears the marked cells: every remaining value goes.
    for (const p of first.validation.problems) delete rows[p.row]![p.column];
    const { plan: second } = await plan(w!, rows);
    expect(second.validation.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const summary = await run(second);
    expect(summary.outcomes.map((o) => o.status)).toEqual(actions.map(() => 'done'));
    expect(seen(w!, a!.Id as string)).toMatchObject({
      Name: values.Name,
      Description: values.Description,
      ResponsibleUser: values['Responsible user'],
      Reviewer: values.Reviewer,
      ActionDate: '2026-06-30',
      Score: 4,
      Comment: values.Comment,
      NotificationPeriods: ['NP-1W', 'NP-1M'],
    });
    if (actions.includes('Score and status'))
      expect(seen(w!, b!.Id as string)).toMatchObject({
        Score: 4,
        Comment: values.Comment,
        Status: 'Rejected',
        Description: 'Generated task.',
      });
    if (actions.includes('Advance'))
      expect(seen(w!, c.Id as string)).toMatchObject({
        Status: 'Ready for review',
        Description: 'Generated task.',
      });
  });

  it('the guard fails a full update that blanks fields: the request the write-back used to send', async () => {
    const task = todo(w!).find(
      (t) => t.Description && (t.NotificationPeriods as unknown[]).length && t.Id !== todo(w!)[0]!.Id,
    )!;
    const catalog = createCatalog(w!.binding);
    const op = boundOf(catalog.operation('task-update-v2')) as BoundOperation;
    const body = {
      Name: task.Name,
      Description: null,
      ResponsibleUser: task.ResponsibleUser,
      Reviewer: task.Reviewer,
      ActionDate: task.ActionDate,
      Score: null,
      Comment: 'x',
      NotificationPeriods: [],
    };
    const users0 = users(w!);
    const extras = Object.fromEntries(op.extras.filter((x) => x.required).map((x) => [x.key, extraValue(x)]));
    const encoded = encodeRequest(
      op,
      { '{guid}': task.Id, ...body, ...extras },
      {
        users: {
          resolve: (n) => {
            const u = users0.find((x) => x.Name === n);
            return u
              ? { ok: true, id: String(u.Id), name: n }
              : { ok: false, code: 'unknown-name', message: n };
          },
          nameOf: (id) => users0.find((x) => x.Id === id)?.Name as string | undefined,
        },
      },
    );
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    await w!.client.send('task-update-v2', encoded.request);
    expect(w!.guard.blanked.map((l) => l.replace(/^.*: (\w+) was .*$/, '$1')).sort()).toEqual([
      'Description',
      'NotificationPeriods',
    ]);
    w!.guard.blanked.length = 0;
  });
});

describe('a tasks dataset that does not show a field the full update replaces', () => {
  let w: World | undefined;
  const overrides = join(mkdtempSync(join(tmpdir(), 'hidden-')), 'initech.overrides');
  beforeAll(async () => {
    writeFileSync(overrides, 'unplace tasks Description\nunplace tasks NotificationPeriods\n');
    w = await startWorld('initech.openapi.json', overrides);
  });
  afterAll(() => stopWorld(w));
  afterEach(() => expect(w!.guard.blanked).toEqual([]));

  it("refuses the customer's row (Comment alone) on the Description and Notification periods cells, sending nothing; typed, they go", async () => {
    const task = todo(w!)[0]!;
    const {
      plan: p,
      workbook,
      table,
    } = await plan(w!, [{ Task: task.Id as string, Action: 'Update', Comment: 'only the comment' }]);
    expect(p.validation.problems.map((x) => `${x.row}:${x.column}:${x.code}:${x.severity}`)).toEqual([
      '0:Description:current-unknown:error',
      '0:Notification periods:current-unknown:error',
    ]);
    // The taskpane's preview marks the same problems on their cells (useWriteback: markProblems).
    await markProblems(workbook, table, p.validation.problems);
    expect(workbook.snapshot().tables[0]!.marks.map((m) => `${m.row}:${m.column}:${m.kind}`)).toEqual([
      '0:Description:error',
      '0:Notification periods:error',
    ]);
    expect(p.validation.problems[0]!.message).toMatch(
      /^Update replaces every field of the task \(PUT \/grc\/api\/v1\/Tasks\/\{TaskGuid\}\), and this environment's tasks dataset does not show its Description, so a blank Description would erase it in the service; type the task's Description .*"omit task-update-v2 Description" in the overrides file/,
    );
    const writes = w!.guard.writes.length;
    const summary = await run(p);
    expect(summary.outcomes.every((o) => o.status !== 'done')).toBe(true);
    expect(w!.guard.writes.length).toBe(writes);
    expect(w!.sandbox.store.find('tasks', task.Id as string)).toMatchObject({
      Description: 'Generated task.',
      Comment: task.Comment ?? null,
    });

    const { plan: typed } = await plan(w!, [
      {
        Task: task.Id as string,
        Action: 'Update',
        Comment: 'with the rest',
        Description: 'Generated task.',
        'Notification periods': (task.NotificationPeriods as string[]).join('; '),
      },
    ]);
    expect(typed.validation.problems).toEqual([]);
    expect((await run(typed)).outcomes.map((o) => o.status)).toEqual(['done']);
    expect(w!.sandbox.store.find('tasks', task.Id as string)).toMatchObject({
      Description: 'Generated task.',
      Comment: 'with the rest',
      NotificationPeriods: task.NotificationPeriods,
    });
  });
});

describe('a field the admin declared safe to omit', () => {
  let w: World | undefined;
  const overrides = join(mkdtempSync(join(tmpdir(), 'omit-')), 'vandelay.overrides');
  beforeAll(async () => {
    writeFileSync(
      overrides,
      'unplace tasks Description\nomit task-update-v2 Description   # the service keeps it\n',
    );
    w = await startWorld('vandelay.swagger.json', overrides);
  });
  afterAll(() => stopWorld(w));
  afterEach(() => expect(w!.guard.blanked).toEqual([]));

  it('is left out of the full update when the row leaves it blank, and the service keeps it', async () => {
    expect((w!.acc.binding!.endpoints['task-update-v2'] as BoundOperation).omit).toEqual(['Description']);
    const task = todo(w!)[1]!;
    const { plan: p } = await plan(w!, [
      { Task: task.Id as string, Action: 'Update', Comment: 'omitted description' },
    ]);
    expect(p.validation.problems).toEqual([]);
    expect((await run(p)).outcomes.map((o) => [o.status, o.message])).toEqual([['done', 'Updated']]);
    const got = w!.sandbox.store.received
      .filter((r) => r.endpoint === 'task-update-v2' && r.id === task.Id)
      .at(-1)!;
    expect(Object.keys(got.body as Json).map((k) => k.toLowerCase())).not.toContain('description');
    expect(w!.sandbox.store.find('tasks', task.Id as string)).toMatchObject({
      Description: 'Generated task.',
      Comment: 'omitted description',
    });
  });
});
