import { catalog, fillPath } from '../../src/catalog';
import type { Sandbox } from '../../src/sandbox';
import { call, post, start, userKey } from './helpers';

type Task = Record<string, unknown> & {
  Id: string;
  Status: string;
  ResponsibleUser: string;
  Reviewer: string;
};
const path = (id: string, guid: string) => fillPath(catalog.operation(id).path, { guid });

describe('sandbox tasks (spec: Task, Tasks API versions, transitions)', () => {
  let sb: Sandbox;
  const tasks = async () => (await call<Task[]>(sb, catalog.dataset('tasks').path)).body;
  const task = async (guid: string) => (await tasks()).find((t) => t.Id === guid)!;
  const inStatus = async (status: string, skip = 0) =>
    (await tasks()).filter((t) => t.Status === status)[skip]!;
  const v2body = (t: Task, over: Record<string, unknown> = {}) => ({
    Name: t.Name,
    Description: t.Description,
    ResponsibleUser: t.ResponsibleUser,
    Reviewer: t.Reviewer,
    ActionDate: t.ActionDate,
    Score: t.Score,
    Comment: t.Comment,
    NotificationPeriods: t.NotificationPeriods,
    ...over,
  });

  beforeAll(async () => {
    sb = await start();
  });
  afterAll(() => sb.close());

  it('v1 creates a task in To do with notification periods and hyperlinks, and shows it in the tasks dataset', async () => {
    const a = await post(sb, catalog.operation('task-create').path, {
      Name: 'Collect evidence Q1',
      ResponsibleUser: 'Finn Smit',
      Reviewer: 'Grace Lee',
      NotificationPeriods: ['NP-1W'],
      Hyperlinks: [{ Url: 'https://intranet.example.com/q1' }],
    });
    expect(a.status).toBe(201);
    expect(await task(a.body.Id)).toMatchObject({
      Status: 'To do',
      ResponsibleUser: 'Finn Smit',
      NotificationPeriods: ['NP-1W'],
    });
    const bad = await post(sb, catalog.operation('task-create').path, {
      Name: 'x',
      ResponsibleUser: 'Nobody',
      NotificationPeriods: ['NP-9Y'],
    });
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'ResponsibleUser[0]',
      'NotificationPeriods[0]',
    ]);
  });

  it('v1 update changes the given fields and submits the task', async () => {
    const t = await inStatus('To do');
    expect(
      (await post(sb, path('task-update', t.Id), { Comment: 'Evidence attached', Score: 4 })).status,
    ).toBe(200);
    expect(await task(t.Id)).toMatchObject({
      Comment: 'Evidence attached',
      Score: 4,
      Status: 'Ready for review',
    });
  });

  it('v1 adds a document to a task', async () => {
    const t = await inStatus('To do');
    const a = await post(sb, path('task-document', t.Id), {
      FileName: 'evidence.xlsx',
      ContentBase64: 'AAEC',
    });
    expect(a.status).toBe(200);
    expect((await task(t.Id)).Documents).toEqual([
      expect.objectContaining({ Id: a.body.Id, FileName: 'evidence.xlsx' }),
    ]);
  });

  it('v2 update is a full update that does not submit the task', async () => {
    const t = await inStatus('Rejected');
    const a = await post(
      sb,
      path('task-update-v2', t.Id),
      v2body(t, { Name: 'Renamed', ActionDate: '2026-06-30', NotificationPeriods: ['NP-1M'] }),
    );
    expect(a.status).toBe(200);
    expect(await task(t.Id)).toMatchObject({
      Name: 'Renamed',
      ActionDate: '2026-06-30',
      NotificationPeriods: ['NP-1M'],
      Status: 'Rejected',
    });
    const partial = await post(sb, path('task-update-v2', t.Id), { Name: 'Only a name' });
    expect(partial.status).toBe(400);
  });

  it('v2 update with nulls clears those fields, as a full update', async () => {
    const t = await inStatus('Rejected');
    const filled = {
      Description: 'Check the vendor list',
      Reviewer: t.ResponsibleUser,
      ActionDate: '2026-06-30T12:00:00Z',
      Score: 4,
      Comment: 'Looks fine',
      NotificationPeriods: ['NP-1M'],
    };
    expect((await post(sb, path('task-update-v2', t.Id), v2body(t, filled))).status).toBe(200);
    expect(await task(t.Id)).toMatchObject({ ...filled, ActionDate: '2026-06-30' });
    const cleared = {
      Description: null,
      Reviewer: null,
      ActionDate: null,
      Score: null,
      Comment: null,
      NotificationPeriods: [],
    };
    expect((await post(sb, path('task-update-v2', t.Id), v2body(t, cleared))).status).toBe(200);
    expect(await task(t.Id)).toMatchObject({ ...cleared, Name: t.Name, Status: 'Rejected' });
  });

  it('Ready for review allows only the score and the comment to change (v1, v2 and score/status)', async () => {
    const t = await inStatus('Ready for review');
    expect(
      (await post(sb, path('task-update-v2', t.Id), v2body(t, { Score: 5, Comment: 'Fine' }))).status,
    ).toBe(200);
    const renamed = await post(sb, path('task-update-v2', t.Id), v2body(t, { Name: 'New name', Score: 5 }));
    expect(renamed.body.errors).toEqual([
      { field: 'Name', message: expect.stringMatching(/Ready for review: only the score and the comment/) },
    ]);
    expect(
      (await post(sb, path('task-update', t.Id), { ActionDate: '2027-01-01' })).body.errors[0].field,
    ).toBe('ActionDate');
    expect((await post(sb, path('task-score-status', t.Id), { Status: 'To do' })).body.errors[0].field).toBe(
      'Status',
    );
    expect(
      (await post(sb, path('task-score-status', t.Id), { Score: 2, Comment: 'Redo part 2' })).status,
    ).toBe(200);
    expect(await task(t.Id)).toMatchObject({
      Score: 2,
      Comment: 'Redo part 2',
      Status: 'Ready for review',
      Name: t.Name,
    });
  });

  it('score and status: sets a status outside Ready for review', async () => {
    const t = await inStatus('In review');
    expect(
      (await post(sb, path('task-score-status', t.Id), { Status: 'Rejected', Comment: 'Missing evidence' }))
        .status,
    ).toBe(200);
    expect(await task(t.Id)).toMatchObject({ Status: 'Rejected', Comment: 'Missing evidence' });
    expect((await post(sb, path('task-score-status', t.Id), {})).status).toBe(400);
  });

  it('workflow advance moves the task to the next step when the caller is its responsible user or reviewer', async () => {
    const t = await inStatus('To do', 1);
    const r1 = await call(sb, path('task-advance', t.Id), { as: userKey(t.ResponsibleUser), method: 'POST' });
    expect(r1.status).toBe(200);
    expect((await task(t.Id)).Status).toBe('Ready for review');
    expect(
      (await call(sb, path('task-advance', t.Id), { as: userKey(t.Reviewer), method: 'POST' })).status,
    ).toBe(200);
    expect((await task(t.Id)).Status).toBe('In review');
  });

  it('workflow advance is forbidden to anyone else, even an Application Administrator', async () => {
    const t = await inStatus('To do', 2);
    const other = ['Anna de Vries', 'Bram Jansen', 'Chloe Martin', 'Daan Bakker'].find(
      (n) => n !== t.ResponsibleUser && n !== t.Reviewer,
    )!;
    const a = await call(sb, path('task-advance', t.Id), { as: userKey(other), method: 'POST' });
    expect(a).toMatchObject({ status: 403, body: { message: 'Forbidden to execute action.' } });
    expect((await task(t.Id)).Status).toBe('To do');
  });

  it('answers 404 for a task that does not exist', async () => {
    expect(
      (await post(sb, path('task-update', '00000000-0000-4000-8000-000000000000'), { Comment: 'x' })).status,
    ).toBe(404);
  });
});
