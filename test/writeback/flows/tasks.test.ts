import { tasksFlow } from '../../../src/writeback/flows/tasks';
import { G, row, setUp, standing } from '../fixtures';

const flow = setUp(tasksFlow);
const codes = (r: { problems: { code: string; column: string }[] }) =>
  r.problems.map((p) => `${p.column}:${p.code}`);

describe('task update rows', () => {
  it('v2 update: blank cells keep the current values, so the full update changes only what the row says', () => {
    const r = flow.prepare(
      row({ Task: 'TASK-1', Action: 'Update', Comment: 'done', 'Action date': '2025-06-30' }),
    );
    expect(r.problems).toEqual([]);
    expect(r.request).toEqual({
      action: 'update',
      guid: G.taskTodo,
      body: {
        Name: 'Check access',
        Description: null,
        ResponsibleUser: 'Ann',
        Reviewer: 'Bob',
        ActionDate: '2025-06-30',
        Score: null,
        Comment: 'done',
        NotificationPeriods: [],
      },
      given: { ActionDate: '2025-06-30', Comment: 'done' },
    });
  });

  it('on a Ready for review task, refuses any change but score and comment, on the changed cells', () => {
    const r = flow.prepare(
      row({ Task: G.taskReview, Action: 'Update', Name: 'Renamed', Reviewer: 'Bob', Score: 4 }),
    );
    expect(r.request).toBeUndefined();
    expect(codes(r)).toEqual(['Name:ready-for-review']);
    expect(r.problems[0]!.message).toContain('only Score and Comment may change');
  });

  it('on a Ready for review task, lets score and comment change', () => {
    const r = flow.prepare(
      row({ Task: 'TASK-2', Action: 'Update', Score: 4, Comment: 'better', 'Notification periods': 'P1' }),
    );
    expect(r.problems).toEqual([]);
    expect(r.request).toMatchObject({
      action: 'update',
      body: { Score: 4, Comment: 'better', Description: 'Weekly', NotificationPeriods: ['P1'] },
    });
  });

  it('score and status: refuses a status change on a Ready for review task, allows it on a To do task', () => {
    expect(codes(flow.prepare(row({ Task: 'TASK-2', Action: 'Score and status', Status: 'To do' })))).toEqual(
      ['Status:ready-for-review'],
    );
    expect(
      flow.prepare(row({ Task: 'TASK-1', Action: 'Score and status', Status: 'Rejected', Score: 2 })).request,
    ).toEqual({
      action: 'score-status',
      guid: G.taskTodo,
      body: { Score: 2, Status: 'Rejected' },
    });
  });

  it('advance: remembers the status it advances from, and later recognises that the advance happened', () => {
    const r = flow.prepare(row({ Task: 'TASK-1', Action: 'Advance' }));
    expect(r.request).toEqual({ action: 'advance', guid: G.taskTodo, fromStatus: 'To do' });
    const state = flow.sentState!(r.request!);
    expect(state).toEqual({ from: 'To do' });
    expect(
      flow.find(r.request!, [{ Id: G.taskTodo, Status: 'Ready for review' }], new Set(), {
        state,
        at: undefined,
      }),
    ).toEqual({
      kind: 'found',
      guid: G.taskTodo,
    });
    expect(
      flow.find(r.request!, [{ Id: G.taskTodo, Status: 'To do' }], new Set(), { state, at: undefined }),
    ).toEqual({
      kind: 'absent',
    });
  });

  it('update: recognises an applied update in the current tasks', () => {
    const r = flow.prepare(row({ Task: 'TASK-1', Action: 'Update', Comment: 'done' }));
    const applied = { ...standing.get('tasks')![0], Comment: 'done' };
    expect(flow.find(r.request!, [applied], new Set(), { state: {}, at: undefined })).toEqual({
      kind: 'found',
      guid: G.taskTodo,
    });
    expect(flow.find(r.request!, standing.get('tasks')!, new Set(), { state: {}, at: undefined })).toEqual({
      kind: 'absent',
    });
  });

  it('refuses an unknown task, an unknown action, and sends several rows of one task one after the other', () => {
    expect(codes(flow.prepare(row({ Task: 'TASK-9', Action: 'Update' })))).toEqual(['Task:unknown-name']);
    expect(codes(flow.prepare(row({ Task: 'TASK-1', Action: 'Submit' })))).toEqual(['Action:unknown-action']);
    const a = flow.prepare(row({ Task: 'TASK-1', Action: 'Advance' })).request!;
    expect(flow.serialKey!(a)).toBe(G.taskTodo);
  });
});
