import type { z } from 'zod';
import { PATH_GUID_FIELD, type bodies } from '../../catalog';
import { placesOf, type FlowDescription } from './description';

type UpdateV2 = z.infer<typeof bodies.updateTaskV2>;

/** The task update template's columns. */
export const TASK_COLUMNS = {
  task: 'Task',
  action: 'Action',
  name: 'Name',
  description: 'Description',
  responsible: 'Responsible user',
  reviewer: 'Reviewer',
  actionDate: 'Action date',
  score: 'Score',
  comment: 'Comment',
  status: 'Status',
  notificationPeriods: 'Notification periods',
} as const;
const C = TASK_COLUMNS;

/** Fields of a v2 full update, with the column each comes from. */
export const TASK_UPDATE_FIELDS = {
  Name: C.name,
  Description: C.description,
  ResponsibleUser: C.responsible,
  Reviewer: C.reviewer,
  ActionDate: C.actionDate,
  Score: C.score,
  Comment: C.comment,
  NotificationPeriods: C.notificationPeriods,
} as const satisfies Record<keyof UpdateV2, string>;

/**
 * Task updates (spec, Tasks API v2): a full update that does not submit, the workflow advance, and the
 * score-and-status update. The current tasks are loaded first; a blank cell keeps the task's current
 * value, and a row that would change anything but score and comment of a Ready-for-review task is
 * refused before sending.
 */
export const tasksDescription: FlowDescription<'tasks'> = {
  id: 'tasks',
  title: 'Task updates',
  resultStatus: 'done',
  tableName: 'GrcTaskUpdates',
  standingDatasets: ['tasks', 'users'],
  reconcileDataset: 'tasks',
  // Each action is an operation of its own: an environment lacking one refuses only that action's rows, and
  // the flow is unavailable only when it lacks all three (availability.ts).
  operations: [],
  places: {
    [C.task]: ['task-update-v2', 'task-advance', 'task-score-status'].map((operation) => ({ operation, field: PATH_GUID_FIELD })),
    ...placesOf('task-update-v2', TASK_UPDATE_FIELDS),
    [C.score]: [{ operation: 'task-update-v2', field: 'Score' }, { operation: 'task-score-status', field: 'Score' }],
    [C.comment]: [{ operation: 'task-update-v2', field: 'Comment' }, { operation: 'task-score-status', field: 'Comment' }],
    [C.status]: [{ operation: 'task-score-status', field: 'Status' }],
  },
  controls: [C.action],
  // A full update sends the whole task back (what the row does not change is kept): whole records.
  fieldsRead: { tasks: '*' },
  steps: {
    'task-update-v2': { what: 'update', column: C.action },
    'task-advance': { what: 'advance', column: C.action },
    'task-score-status': { what: 'score and status update', column: C.action },
  },
  datasetNeeds: {
    tasks:
      "Tasks cannot be looked up by identifier or checked before sending: type each task's GUID. A row whose outcome stayed unknown (the connection broke while it was sent) cannot be looked for in the service: it stays unknown, is never sent again by itself, and you check it in the service by hand.",
  },
};
