import type { z } from 'zod';
import type { bodies } from '../../catalog';
import { ACTIVE_USERS, NOTIFICATION_PERIODS } from '../data/standing';
import { code, type Rec } from '../data/context';
import { failure, ok, rejected, type Outcome, type Problem } from '../errors';
import { invalidBase64, newDocumentId, onRecord, stamp, type WriteHandler } from './context';
import { checkKnown } from './known';

const READY_FOR_REVIEW = 'Ready for review';
/**
 * Workflow steps. The spec names To do, Rejected, Ready for review and In review; the step after In review
 * is not shown, we call it Completed.
 */
const NEXT_STEP: Record<string, string> = {
  'To do': READY_FOR_REVIEW,
  Rejected: READY_FOR_REVIEW,
  [READY_FOR_REVIEW]: 'In review',
  'In review': 'Completed',
};

function checkTaskFields(
  body: { ResponsibleUser?: string; Reviewer?: string | null; NotificationPeriods?: string[] },
  problems: Problem[],
) {
  if (body.ResponsibleUser !== undefined)
    checkKnown('ResponsibleUser', [body.ResponsibleUser], ACTIVE_USERS, 'active user', problems);
  if (body.Reviewer) checkKnown('Reviewer', [body.Reviewer], ACTIVE_USERS, 'active user', problems);
  checkKnown(
    'NotificationPeriods',
    body.NotificationPeriods,
    NOTIFICATION_PERIODS,
    'notification period identifier',
    problems,
  );
}

/** Spec: a task in Ready for review allows only the score and the comment to change. */
function onlyScoreAndComment(task: Rec, changes: Rec): Outcome | null {
  if (task.Status !== READY_FOR_REVIEW) return null;
  const changed = Object.keys(changes).filter(
    (k) =>
      k !== 'Score' &&
      k !== 'Comment' &&
      JSON.stringify(changes[k] ?? null) !== JSON.stringify(task[k] ?? null),
  );
  return changed.length
    ? rejected(
        changed.map((field) => ({
          field,
          message: `Task ${String(task.Identifier)} is Ready for review: only the score and the comment may change.`,
        })),
      )
    : null;
}

/** The body as given, with ActionDate cut to the day the tasks dataset holds (a body may give a date-time). */
function withActionDay(body: { ActionDate?: string | null }): Rec {
  return typeof body.ActionDate === 'string'
    ? { ...body, ActionDate: body.ActionDate.slice(0, 10) }
    : { ...body };
}

/** What both task updates refuse: changes to a task in review, and unknown users or notification periods. */
function refusedUpdate(task: Rec, body: Parameters<typeof checkTaskFields>[0], changes: Rec): Outcome | null {
  const refused = onlyScoreAndComment(task, changes);
  if (refused) return refused;
  const problems: Problem[] = [];
  checkTaskFields(body, problems);
  return problems.length ? rejected(problems) : null;
}

export const createTask: WriteHandler<z.infer<typeof bodies.createTask>> = ({ store, body }) => {
  const problems: Problem[] = [];
  checkTaskFields(body, problems);
  if (problems.length) return rejected(problems, 'The task was not created.');
  const index = store.nextIndex('task', store.generatedCount('tasks'));
  const id = store.ctx.guid('task', index);
  store.add('tasks', {
    Id: id,
    Identifier: code('TASK', index),
    Name: body.Name,
    Description: body.Description ?? null,
    Status: 'To do',
    Score: null,
    Comment: null,
    ActionDate: body.ActionDate?.slice(0, 10) ?? null,
    ResponsibleUser: body.ResponsibleUser,
    Reviewer: body.Reviewer ?? null,
    NotificationPeriods: body.NotificationPeriods ?? [],
    Documents: [],
    Hyperlinks: body.Hyperlinks ?? [],
  });
  return ok({ Id: id }, 201);
};

/**
 * v1 update: partial, and it submits the task (To do or Rejected moves to Ready for review). The spec says
 * v2 "no longer submits the task", so v1 did; the exact v1 semantics are not shown.
 */
export const updateTaskV1 = onRecord<z.infer<typeof bodies.updateTaskV1>>(
  'tasks',
  'task',
  ({ store, body }, task) => {
    const changes = withActionDay(body);
    const refused = refusedUpdate(task, body, changes);
    if (refused) return refused;
    const submits = task.Status === 'To do' || task.Status === 'Rejected';
    store.patch('tasks', task.Id as string, { ...changes, ...(submits ? { Status: READY_FOR_REVIEW } : {}) });
    return ok({ Id: task.Id });
  },
);

/**
 * v2 update: every field an Application Administrator can edit, all required (null clears one), applied as
 * given; it does not submit the task.
 */
export const updateTaskV2 = onRecord<z.infer<typeof bodies.updateTaskV2>>(
  'tasks',
  'task',
  ({ store, body }, task) => {
    const changes = withActionDay(body);
    const refused = refusedUpdate(task, body, changes);
    if (refused) return refused;
    store.patch('tasks', task.Id as string, changes);
    return ok({ Id: task.Id });
  },
);

export const addTaskDocument = onRecord<z.infer<typeof bodies.addDocument>>(
  'tasks',
  'task',
  ({ store, body, now }, task) => {
    const refused = invalidBase64(body.ContentBase64);
    if (refused) return refused;
    const id = newDocumentId(store);
    const documents = (task.Documents as unknown[] | undefined) ?? [];
    store.patch('tasks', task.Id as string, {
      Documents: [...documents, { Id: id, FileName: body.FileName, Added: stamp(now) }],
    });
    return ok({ Id: id });
  },
);

/** Spec: moves the task to the next workflow step; only its responsible user or reviewer may. */
export const advanceTask = onRecord('tasks', 'task', ({ store, key }, task) => {
  if (task.ResponsibleUser !== key.owner.name && task.Reviewer !== key.owner.name)
    return failure('forbidden');
  const next = NEXT_STEP[String(task.Status)];
  if (!next)
    return rejected([
      {
        field: 'Status',
        message: `Task ${String(task.Identifier)} is ${String(task.Status)}, the last workflow step.`,
      },
    ]);
  store.patch('tasks', task.Id as string, { Status: next });
  return ok({ Id: task.Id, Status: next });
});

export const setTaskScoreAndStatus = onRecord<z.infer<typeof bodies.taskScoreAndStatus>>(
  'tasks',
  'task',
  ({ store, body }, task) => {
    const changes: Rec = { ...body };
    const refused = onlyScoreAndComment(task, changes);
    if (refused) return refused;
    store.patch('tasks', task.Id as string, changes);
    return ok({ Id: task.Id });
  },
);
