/**
 * Issue 24, item 5: a task row's typed cells are each sent or refused on their own cell, for every action,
 * and a full update never sends null or [] for a field the row left blank: it carries the task's current
 * value where the environment's tasks dataset shows it, and otherwise refuses the row on that cell unless
 * the admin declared the field safe to omit. A PATCH (partial) update sends the typed cells only.
 */
import type { Binding, BoundDataset, BoundOperation, Placement } from '../../../src/catalog';
import type { Standing } from '../../../src/writeback/api';
import { fitFlow } from '../../../src/writeback/environment/fitted-flow';
import { bindEnvironment } from '../../../src/writeback/environment/context';
import { tasksFlow } from '../../../src/writeback/flows/tasks';
import { bindingWith } from '../binding-fixture';
import { G, row, standing } from '../fixtures';

const EVERY_COLUMN = {
  Name: 'Renamed',
  Description: 'New words',
  'Responsible user': 'Bob',
  Reviewer: 'Ann',
  'Action date': '2025-09-30',
  Score: 4,
  Comment: 'checked',
  Status: 'Rejected',
  'Notification periods': 'P1; P2',
};

/** The binding with the tasks dataset's records lacking some fields (the file's record schema has no place for them). */
function hiding(fields: string[], b: Binding = bindingWith({})): Binding {
  const ds = b.endpoints.tasks as BoundDataset;
  return {
    ...b,
    endpoints: {
      ...b.endpoints,
      tasks: { ...ds, placements: ds.placements.filter((p) => !fields.includes(p.field)) },
    },
  };
}
const withUpdate = (b: Binding, change: (op: BoundOperation) => BoundOperation): Binding => ({
  ...b,
  endpoints: { ...b.endpoints, 'task-update-v2': change(b.endpoints['task-update-v2'] as BoundOperation) },
});

/** Standing data as the environment would read it: the tasks without the fields its dataset does not show. */
function seen(hidden: string[], tasks = true): Standing {
  const out = new Map(standing);
  if (!tasks) out.delete('tasks');
  else
    out.set(
      'tasks',
      standing
        .get('tasks')!
        .map((t) => Object.fromEntries(Object.entries(t).filter(([k]) => !hidden.includes(k)))),
    );
  return out;
}

function readOn(
  binding: Binding | undefined,
  cells: Record<string, unknown>,
  hidden: string[] = [],
  tasks = true,
) {
  const env = bindEnvironment({ name: 'ACC', production: false, ...(binding ? { binding } : {}) });
  const bound = fitFlow(tasksFlow, env, seen(hidden, tasks));
  return bound.read(row(cells as never));
}
const marks = (r: { problems: { column: string; code: string; severity: string }[] }) =>
  r.problems.map((p) => `${p.column}:${p.code}:${p.severity}`);

describe('a task row with every column typed, per action', () => {
  test('Score and status: Score, Comment and Status are sent; every other typed cell is refused on its own cell, naming the action that sends it', () => {
    const r = readOn(undefined, { Task: 'TASK-1', Action: 'Score and status', ...EVERY_COLUMN });
    expect(r.request).toBeUndefined();
    expect(marks(r).sort()).toEqual(
      ['Name', 'Description', 'Responsible user', 'Reviewer', 'Action date', 'Notification periods']
        .map((c) => `${c}:not-sent-by-action:error`)
        .sort(),
    );
    const name = r.problems.find((p) => p.column === 'Name')!;
    expect(name.message).toBe(
      'Score and status sends only Score, Comment and Status, so Name would not be sent; clear Name, or type it on a row for this task whose Action is Update (rows of one task are sent in sheet order)',
    );
    // Cleared, the same row goes with exactly what it says.
    const ok = readOn(undefined, {
      Task: 'TASK-1',
      Action: 'Score and status',
      Score: 4,
      Comment: 'checked',
      Status: 'Rejected',
    });
    expect(ok.problems).toEqual([]);
    expect(ok.request).toEqual({
      action: 'score-status',
      guid: G.taskTodo,
      body: { Score: 4, Comment: 'checked', Status: 'Rejected' },
    });
  });

  test('Advance: every typed cell is refused on its own cell, Status included', () => {
    const r = readOn(undefined, { Task: 'TASK-1', Action: 'Advance', ...EVERY_COLUMN });
    expect(r.request).toBeUndefined();
    expect(marks(r).sort()).toEqual(
      Object.keys(EVERY_COLUMN)
        .map((c) => `${c}:not-sent-by-action:error`)
        .sort(),
    );
    expect(r.problems.find((p) => p.column === 'Status')!.message).toBe(
      'Advance only moves the task to its next workflow step, which the service chooses; it sends nothing else, so Status would not be sent; clear Status, or type it on a row for this task whose Action is Score and status (rows of one task are sent in sheet order)',
    );
    expect(r.problems.find((p) => p.column === 'Score')!.message).toMatch(
      /type it on a row for this task whose Action is Update or Score and status /,
    );
  });

  test('Update: every field is sent; Status is refused on its cell', () => {
    const r = readOn(undefined, { Task: 'TASK-1', Action: 'Update', ...EVERY_COLUMN });
    expect(marks(r)).toEqual(['Status:not-sent-by-action:error']);
    const { Status: _status, ...rest } = EVERY_COLUMN;
    const ok = readOn(undefined, { Task: 'TASK-1', Action: 'Update', ...rest });
    expect(ok.problems).toEqual([]);
    expect(ok.request).toMatchObject({
      body: {
        Name: 'Renamed',
        Description: 'New words',
        ResponsibleUser: 'Bob',
        Reviewer: 'Ann',
        ActionDate: '2025-09-30',
        Score: 4,
        Comment: 'checked',
        NotificationPeriods: ['P1', 'P2'],
      },
    });
  });

  test("an extra column of the update's file operation typed on an Advance row is refused on its cell", () => {
    const b = withUpdate(bindingWith({}), (op) => ({
      ...op,
      extras: [
        {
          key: 'body:/Severity',
          header: 'Severity',
          in: 'body',
          at: '/Severity',
          fileName: 'Severity',
          cell: 'text',
          encoding: { kind: 'plain' },
          required: false,
        },
      ],
    }));
    const r = readOn(b, { Task: 'TASK-1', Action: 'Advance', Severity: 'High' });
    expect(r.request).toBeUndefined();
    expect(r.problems).toEqual([
      expect.objectContaining({
        column: 'Severity',
        code: 'not-sent-by-action',
        severity: 'error',
        message:
          'Severity goes with the update, which this row does not make, so it would not be sent; clear Severity, or type it on a row that makes the update',
      }),
    ]);
  });
});

describe('a full update never sends what it does not know', () => {
  test('blank cells carry the current values the tasks dataset shows (never null for a value the task has)', () => {
    const r = readOn(undefined, { Task: 'TASK-2', Action: 'Update', Comment: 'better' });
    expect(r.problems).toEqual([]);
    expect(r.request).toMatchObject({
      body: {
        Name: 'Review logs',
        Description: 'Weekly',
        ResponsibleUser: 'Ann',
        Reviewer: 'Bob',
        Score: 3,
        Comment: 'better',
        NotificationPeriods: ['P1'],
      },
    });
  });

  test("the customer's case: the tasks dataset does not show Description and Notification periods, Comment alone typed: refused on those two cells, with the reason and the fix", () => {
    const hidden = ['Description', 'NotificationPeriods'];
    const r = readOn(hiding(hidden), { Task: 'TASK-2', Action: 'Update', Comment: 'better' }, hidden);
    expect(r.request).toBeUndefined();
    expect(marks(r)).toEqual([
      'Description:current-unknown:error',
      'Notification periods:current-unknown:error',
    ]);
    expect(r.problems[0]!.message).toBe(
      `Update replaces every field of the task (POST /taskdata/v2/tasks/{guid}), and this environment's tasks dataset does not show its Description, so a blank Description would erase it in the service; type the task's Description (its current value keeps it), or ask the administrator to declare it safe to omit ("omit task-update-v2 Description" in the overrides file, docs/binding.md); to change only the score, comment or status, choose Score and status, which leaves the rest as it is`,
    );
    // Typed, they are sent as typed; the fields the dataset shows still carry their current values.
    const typed = readOn(
      hiding(hidden),
      {
        Task: 'TASK-2',
        Action: 'Update',
        Comment: 'better',
        Description: 'Weekly',
        'Notification periods': 'P1',
      },
      hidden,
    );
    expect(typed.problems).toEqual([]);
    expect(typed.request).toMatchObject({
      body: { Name: 'Review logs', Description: 'Weekly', NotificationPeriods: ['P1'], Comment: 'better' },
    });
  });

  test('a field the admin declared safe to omit is left out of the request, not sent as null or []', () => {
    const hidden = ['Description', 'NotificationPeriods'];
    const b = withUpdate(hiding(hidden), (op) => ({ ...op, omit: ['Description', 'NotificationPeriods'] }));
    const r = readOn(b, { Task: 'TASK-2', Action: 'Update', Comment: 'better' }, hidden);
    expect(r.problems).toEqual([]);
    const body = (r.request as { body: Record<string, unknown> }).body;
    expect(body).toEqual({
      Name: 'Review logs',
      ResponsibleUser: 'Ann',
      Reviewer: 'Bob',
      Score: 3,
      Comment: 'better',
    });
    expect('Description' in body || 'NotificationPeriods' in body).toBe(false);
  });

  test('without a tasks dataset at all, an update by GUID must type every field the file takes (or the admin omits them)', () => {
    const r = readOn(undefined, { Task: G.taskReview, Action: 'Update', Comment: 'better' }, [], false);
    expect(r.request).toBeUndefined();
    expect(marks(r)).toEqual(
      [
        'Name',
        'Description',
        'Responsible user',
        'Reviewer',
        'Action date',
        'Score',
        'Notification periods',
      ].map((c) => `${c}:current-unknown:error`),
    );
    expect(r.problems[0]!.message).toMatch(
      /^Update replaces every field of the task \(POST \/taskdata\/v2\/tasks\/\{guid\}\), and this environment has no tasks dataset to read its Name/,
    );
  });

  test("a field the file's update has no place for is never sent, so its blank cell is no refusal", () => {
    const hidden = ['Description'];
    const b = withUpdate(hiding(hidden), (op) => ({
      ...op,
      placements: op.placements.filter((p) => p.field !== 'Description'),
    }));
    const r = readOn(b, { Task: 'TASK-2', Action: 'Update', Comment: 'better' }, hidden);
    expect(r.problems).toEqual([]);
  });

  test('a field the task has empty is left out where the file does not require it, sent as null where the file requires it and takes null, refused on its cell where it takes none', () => {
    const r = readOn(bindingWith({}), { Task: 'TASK-1', Action: 'Update', Comment: 'done' });
    expect(r.problems).toEqual([]);
    expect((r.request as { body: unknown }).body).toEqual({
      Name: 'Check access',
      ResponsibleUser: 'Ann',
      Reviewer: 'Bob',
      ActionDate: '2025-05-01',
      Comment: 'done',
    });
    const score = (patch: Partial<Placement>) =>
      withUpdate(bindingWith({}), (op) => ({
        ...op,
        placements: op.placements.map((p) => (p.field === 'Score' ? { ...p, ...patch } : p)),
      }));
    const nullable = readOn(score({ required: true, nullable: true }), {
      Task: 'TASK-1',
      Action: 'Update',
      Comment: 'done',
    });
    expect((nullable.request as { body: unknown }).body).toMatchObject({ Score: null });
    // A springdoc number: required, no null. The task has no score, so the user must give one.
    const strict = readOn(score({ required: true }), { Task: 'TASK-1', Action: 'Update', Comment: 'done' });
    expect(strict.request).toBeUndefined();
    expect(strict.problems).toEqual([
      {
        column: 'Score',
        code: 'no-current-value',
        severity: 'error',
        message:
          "Update replaces every field of the task (POST /taskdata/v2/tasks/{guid}) and the API file requires Score there without allowing it empty, but the task has none; type the task's Score",
      },
    ]);
  });

  test("a file's PUT for score and status replaces all three: a blank Score or Status carries the task's, one the dataset does not show is refused", () => {
    const put = (b: Binding): Binding => ({
      ...b,
      endpoints: {
        ...b.endpoints,
        'task-score-status': { ...(b.endpoints['task-score-status'] as BoundOperation), method: 'PUT' },
      },
    });
    const r = readOn(put(bindingWith({})), { Task: 'TASK-2', Action: 'Score and status', Comment: 'better' });
    expect(r.problems).toEqual([]);
    expect(r.request).toEqual({
      action: 'score-status',
      guid: G.taskReview,
      body: { Score: 3, Comment: 'better', Status: 'Ready for review' },
      carried: ['Score', 'Status'],
    });
    const hidden = readOn(
      put(hiding(['Status'])),
      { Task: 'TASK-2', Action: 'Score and status', Comment: 'better' },
      ['Status'],
    );
    expect(marks(hidden)).toEqual(['Status:current-unknown:error']);
    expect(hidden.problems[0]!.message).toMatch(
      /^Score and status replaces the task's score, comment and status together here \(PUT \/taskdata\/v2\/tasks\/\{guid\}\/scoreandstatus\), and this environment's tasks dataset does not show its Status/,
    );
  });

  test('a PATCH (partial) update sends the typed cells only, whatever the dataset shows', () => {
    const hidden = ['Description', 'NotificationPeriods'];
    const b = withUpdate(hiding(hidden), (op) => ({ ...op, method: 'PATCH' }));
    const r = readOn(b, { Task: 'TASK-2', Action: 'Update', Comment: 'better' }, hidden);
    expect(r.problems).toEqual([]);
    expect((r.request as { body: unknown }).body).toEqual({ Comment: 'better' });
  });
});
