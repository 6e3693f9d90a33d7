import type { z } from 'zod';
import { bodies, isGuid, PATH_GUID_FIELD, replacesFields } from '../../catalog';
import { downloadRecords, records, str } from '../api';
import { directory, knownPeople } from '../checks/names';
import type { Flow, Found } from '../flow';
import { cellWarning } from '../problem';
import { isBlank } from '../rows/cells';
import { RowReader } from '../rows/rowreader';
import { sameList } from './common';
import { TASK_COLUMNS, TASK_UPDATE_FIELDS, tasksDescription } from '../../contracts/flows/tasks';

export { TASK_COLUMNS };
import { fullUpdateBody } from './task-full-update';

type UpdateV2 = z.infer<typeof bodies.updateTaskV2>;
type ScoreAndStatus = z.infer<typeof bodies.taskScoreAndStatus>;

export type TaskRequest =
  /**
   * `given`: the fields the row's cells set; the body's others were filled from the task as read. A field
   * the body lacks is not sent (a partial update's blank cell, or one the admin declared safe to omit).
   */
  | { action: 'update'; guid: string; body: Partial<UpdateV2>; given: Partial<UpdateV2> }
  | { action: 'advance'; guid: string; fromStatus: string }
  /** `carried`: a full (PUT) score-and-status update's fields filled from the task as read, not typed. */
  | { action: 'score-status'; guid: string; body: ScoreAndStatus; carried?: string[] };

export const TASK_ACTIONS = {
  update: 'Update',
  advance: 'Advance',
  'score-status': 'Score and status',
} as const;
type Action = keyof typeof TASK_ACTIONS;
const OPERATION_OF: Record<Action, string> = { update: 'task-update-v2', advance: 'task-advance', 'score-status': 'task-score-status' };

const C = TASK_COLUMNS;
const UPDATE_FIELDS = TASK_UPDATE_FIELDS;

const SCORE_STATUS_FIELDS = { Score: C.score, Comment: C.comment, Status: C.status } as const;

/** The value columns each action sends: a cell typed in any other is refused on that cell, never dropped. */
const SENDS: Record<Action, readonly string[]> = {
  update: Object.values(UPDATE_FIELDS),
  'score-status': Object.values(SCORE_STATUS_FIELDS),
  advance: [],
};
/** The columns that hold values, in template order (problems are listed in it). */
const VALUE_COLUMNS = [C.name, C.description, C.responsible, C.reviewer, C.actionDate, C.score, C.comment, C.status, C.notificationPeriods];

/** Why an action does not send a column, for the refusal on its cell. */
const WHY_NOT: Record<Action, string> = {
  update: 'Update does not change the status',
  'score-status': 'Score and status sends only Score, Comment and Status',
  advance: 'Advance only moves the task to its next workflow step, which the service chooses; it sends nothing else',
};

/** Spec, Task transitions: a task in Ready for review may change its score and comment, nothing else. */
const READY_FOR_REVIEW = 'ready for review';
const EDITABLE_IN_REVIEW: readonly string[] = ['Score', 'Comment'];

const same = (a: unknown, b: unknown) =>
  Array.isArray(b)
    ? sameList(a, b as string[])
    : (a ?? null) === (b ?? null) ||
      (typeof a === 'string' && typeof b === 'string' && a.slice(0, 10) === b && b.length === 10);

/**
 * Task updates (spec, Tasks API v2): a full update that does not submit, the workflow advance, and the
 * score-and-status update. The current tasks are loaded first; a blank cell keeps the task's current
 * value, and a row that would change anything but score and comment of a Ready-for-review task is
 * refused before sending.
 */
export const tasksFlow: Flow<TaskRequest, 'tasks'> = {
  ...tasksDescription,
  setup(standing, ctx) {
    // The task statuses, with those the environment's file adds.
    const statuses = ctx.environment.enumValues('task-score-status', 'Status', bodies.TASK_STATUSES);
    // Without the tasks dataset (the environment lacks it) a task is named by its GUID and not checked first.
    const listed = standing.has('tasks');
    const tasks = records(standing, 'tasks');
    const users = directory(standing).users;
    const byKey = new Map<string, (typeof tasks)[number][]>();
    for (const t of tasks) {
      for (const k of [str(t, 'Id'), str(t, 'Identifier')]) {
        if (!k) continue;
        const list = byKey.get(k.toLowerCase()) ?? [];
        list.push(t);
        byKey.set(k.toLowerCase(), list);
      }
    }
    // What a full update can carry over: the fields the environment's tasks dataset shows.
    const known = { listed, shown: listed ? ctx.environment.recordFields('tasks') : new Set<string>() };
    const shown = known.shown;
    // Where Update would be refused for a field it cannot carry over, Score and status may be what the user wants.
    const scoreInstead = ctx.skippedStep({ operationId: OPERATION_OF['score-status'] })
      ? undefined
      : `to change only the score, comment or status, choose ${TASK_ACTIONS['score-status']}, which leaves the rest as it is`;
    const fullBody = (
      r: RowReader,
      operationId: string,
      fields: Readonly<Record<string, string>>,
      typed: Readonly<Record<string, unknown>>,
      task: Readonly<Record<string, unknown>>,
    ) =>
      fullUpdateBody(ctx, known, r, {
        operationId,
        fields,
        typed,
        task,
        what:
          operationId === 'task-update-v2'
            ? 'Update replaces every field of the task'
            : `${TASK_ACTIONS['score-status']} replaces the task's score, comment and status together here`,
        ...(operationId === 'task-update-v2' && scoreInstead ? { instead: scoreInstead } : {}),
      });

    return {
      requiredColumns: [C.task, C.action],
      columns: (lookupSheet) => [
        { name: C.task, format: 'text' },
        // The actions this environment can do; a row with another is refused on its Action cell.
        {
          name: C.action,
          format: 'text',
          list: {
            sheet: lookupSheet,
            values: (Object.keys(TASK_ACTIONS) as Action[])
              .filter((a) => !ctx.skippedStep({ operationId: OPERATION_OF[a] }))
              .map((a) => TASK_ACTIONS[a]),
          },
        },
        { name: C.name, format: 'text' },
        { name: C.description, format: 'text' },
        { name: C.responsible, format: 'text' },
        { name: C.reviewer, format: 'text' },
        { name: C.actionDate, format: 'date' },
        { name: C.score, format: 'number' },
        { name: C.comment, format: 'text' },
        { name: C.status, format: 'text', list: { sheet: lookupSheet, values: statuses } },
        { name: C.notificationPeriods, format: 'text' },
      ],
      prepare(row) {
        const r = new RowReader(row, ctx);
        const key = r.text(C.task, { required: true, what: 'the task (its GUID or identifier)' });
        const actionText = r.text(C.action, { required: true, what: 'the action' });
        const action = (Object.keys(TASK_ACTIONS) as Action[]).find(
          (a) => TASK_ACTIONS[a].toLowerCase() === actionText?.toLowerCase(),
        );
        if (actionText !== undefined && !action)
          r.error(
            C.action,
            'unknown-action',
            `"${actionText}" is not an action; choose ${Object.values(TASK_ACTIONS).join(', ')}`,
          );
        if (action)
          for (const column of VALUE_COLUMNS)
            if (!SENDS[action].includes(column) && !isBlank(r.cell(column))) {
              const others = (Object.keys(SENDS) as Action[])
                .filter((a) => SENDS[a].includes(column) && !ctx.skippedStep({ operationId: OPERATION_OF[a] }))
                .map((a) => TASK_ACTIONS[a]);
              r.error(
                column,
                'not-sent-by-action',
                `${WHY_NOT[action]}, so ${column} would not be sent; clear ${column}${others.length ? `, or type it on a row for this task whose Action is ${others.join(' or ')} (rows of one task are sent in sheet order)` : ''}`,
              );
            }
        const found =
          key === undefined
            ? []
            : !listed && isGuid(key)
              ? [{ Id: key }]
              : (byKey.get(key.toLowerCase()) ?? []);
        if (key !== undefined && found.length !== 1) {
          r.error(
            C.task,
            found.length ? 'ambiguous-name' : 'unknown-name',
            found.length
              ? `${found.length} tasks match "${key}": ${found.map((t) => str(t, 'Id')).join(', ')}; type the GUID of the one you mean`
              : listed
                ? `no task has the GUID or identifier "${key}"; copy it from the Tasks dataset`
                : `"${key}" is not a GUID: this environment lacks the tasks dataset, so tasks are named by their GUID`,
          );
        }
        const cells = {
          Name: r.text(C.name),
          Description: r.text(C.description),
          ResponsibleUser: knownPeople(r, C.responsible, users, true)?.[0],
          Reviewer: knownPeople(r, C.reviewer, users, true)?.[0],
          ActionDate: r.date(C.actionDate),
          Score: r.number(C.score),
          Comment: r.text(C.comment),
          NotificationPeriods: r.list(C.notificationPeriods),
        };
        const statusText = r.text(C.status);
        const known = statuses;
        const status = (
          statusText === undefined ? undefined : known.find((s) => s.toLowerCase() === statusText.toLowerCase())
        ) as ScoreAndStatus['Status'];
        if (statusText !== undefined && !status)
          r.error(C.status, 'unknown-status', `"${statusText}" is not a task status; choose ${known.join(', ')}`);
        const current = found.length === 1 ? found[0]! : undefined;
        if (!current || !action || r.hasErrors) return { problems: r.problems };

        const guid = str(current, 'Id')!;
        const inReview = str(current, 'Status')?.toLowerCase() === READY_FOR_REVIEW;
        const refuseInReview = (column: string) =>
          r.error(
            column,
            'ready-for-review',
            `task ${str(current, 'Identifier') ?? guid} is Ready for review: only Score and Comment may change; clear ${column}`,
          );

        if (action === 'advance')
          return {
            request: { action, guid, fromStatus: str(current, 'Status') ?? '' },
            problems: r.problems,
          };

        if (action === 'score-status') {
          const typed = { Score: cells.Score, Comment: cells.Comment, Status: status };
          if (inReview && status !== undefined && status.toLowerCase() !== READY_FOR_REVIEW)
            refuseInReview(C.status);
          // The spec's score-and-status update sends what is typed; a file's PUT replaces all three.
          if (!replacesFields('task-score-status', ctx.environment.operation('task-score-status').method)) {
            const body: ScoreAndStatus = typed;
            return r.prepared('task-score-status', body, { ...SCORE_STATUS_FIELDS, '': C.score }, { action, guid, body });
          }
          const full = fullBody(r, 'task-score-status', SCORE_STATUS_FIELDS, typed, current);
          if (r.hasErrors) return { problems: r.problems };
          const body = full.body as ScoreAndStatus;
          return r.prepared('task-score-status', body, { ...SCORE_STATUS_FIELDS, '': C.score }, { action, guid, body, carried: full.carried }, full.leftOut);
        }

        const full = replacesFields('task-update-v2', ctx.environment.operation('task-update-v2').method);
        const { body, leftOut } = full
          ? fullBody(r, 'task-update-v2', UPDATE_FIELDS, cells, current)
          : { body: Object.fromEntries(Object.entries(cells).filter(([, v]) => v !== undefined)), leftOut: Object.keys(UPDATE_FIELDS) };
        if (r.hasErrors) return { problems: r.problems };
        // A typed field the dataset does not show may or may not change it: the service tells (it refuses
        // such a change on a Ready-for-review task).
        const changed = (Object.keys(UPDATE_FIELDS) as (keyof UpdateV2)[]).filter(
          (f) => cells[f] !== undefined && (!shown.has(f) || !same(current[f], cells[f])),
        );
        if (inReview)
          for (const f of changed)
            if (!EDITABLE_IN_REVIEW.includes(f) && shown.has(f)) refuseInReview(UPDATE_FIELDS[f]);
        if (!changed.length)
          r.problems.push(
            cellWarning(
              C.task,
              'no-change',
              'no cell differs from the task in the service; posting changes nothing',
            ),
          );
        const given = Object.fromEntries(
          Object.entries(cells).filter(([, v]) => v !== undefined),
        ) as Partial<UpdateV2>;
        return r.prepared('task-update-v2', body, UPDATE_FIELDS, { action, guid, body, given }, leftOut);
      },
      call(request) {
        const guid = request.guid;
        const task = { [PATH_GUID_FIELD]: C.task };
        if (request.action === 'advance') return { operation: 'task-advance', guid, columnOf: task };
        if (request.action === 'score-status')
          return { operation: 'task-score-status', guid, body: request.body, columnOf: { ...task, ...SCORE_STATUS_FIELDS } };
        // The body's untyped fields came from the task as read (fullBody); the file may have no place for some.
        const untyped = Object.keys(UPDATE_FIELDS).filter((f) => request.given[f as keyof UpdateV2] === undefined);
        return { operation: 'task-update-v2', guid, body: request.body, columnOf: { ...task, ...UPDATE_FIELDS }, untyped };
      },
      done: (request) => (request.action === 'advance' ? 'Advanced to the next step' : 'Updated'),
      sentState: (request) => (request.action === 'advance' ? { from: request.fromStatus } : {}),
      serialKey: (request) => request.guid.toLowerCase(),
      // Rows for one task go in sheet order, each on the state the previous ones left: a blank cell of an
      // update keeps what an earlier row set, and an advance leaves the status the earlier rows caused.
      async rebase(request, before, api, signal) {
        if (!before.length) return request;
        if (request.action === 'update') {
          // A partial update sends the row's own cells, whatever earlier rows set.
          if (!replacesFields('task-update-v2', ctx.environment.operation('task-update-v2').method)) return request;
          const body = { ...request.body } as Record<string, unknown>;
          for (const field of Object.keys(UPDATE_FIELDS) as (keyof UpdateV2)[]) {
            if (request.given[field] !== undefined) continue;
            for (const b of before) {
              const set =
                b.action === 'update' || (b.action === 'score-status' && (field === 'Score' || field === 'Comment'))
                  ? b.body[field as keyof typeof b.body]
                  : undefined;
              if (set !== undefined) body[field] = set;
            }
          }
          return { ...request, body: body as Partial<UpdateV2> };
        }
        if (request.action === 'score-status' && request.carried?.length) {
          // A full score-and-status update carries what the earlier rows left (an advance moved the status):
          // the service's to say, read now.
          const tasks = await downloadRecords(api, 'tasks', signal);
          const task: Readonly<Record<string, unknown>> | undefined = tasks.find((t) => str(t, 'Id')?.toLowerCase() === request.guid.toLowerCase());
          if (!task) return request;
          const body: Record<string, unknown> = { ...request.body };
          for (const field of request.carried) body[field] = task[field] ?? null;
          return { ...request, body: body as ScoreAndStatus };
        }
        if (request.action === 'advance' && before.some((b) => b.action !== 'update')) {
          // The status an earlier advance led to is the service's to say: read it now.
          const tasks = await downloadRecords(api, 'tasks', signal);
          const task = tasks.find((t) => str(t, 'Id')?.toLowerCase() === request.guid.toLowerCase());
          return { ...request, fromStatus: (task && str(task, 'Status')) ?? request.fromStatus };
        }
        return request;
      },
      find(request, rs, _taken, { state }): Found {
        const task = rs.find((t) => str(t, 'Id')?.toLowerCase() === request.guid.toLowerCase());
        if (!task) return { kind: 'absent' };
        if (request.action === 'advance') {
          const from = state.from;
          // Without the status it was sent from, only a person can tell whether the advance happened.
          if (from === undefined)
            return {
              kind: 'unclear',
              message: `check in the service whether task ${request.guid} moved to its next step, then set Result to done or clear it`,
            };
          return str(task, 'Status') !== from ? { kind: 'found', guid: request.guid } : { kind: 'absent' };
        }
        const body = request.body as Record<string, unknown>;
        // The body's fields are the task's own (the update body shares the record's names), read by name.
        const current: Readonly<Record<string, unknown>> = task;
        const applied = Object.entries(body).every(([f, v]) => v === undefined || same(current[f], v));
        return applied ? { kind: 'found', guid: request.guid } : { kind: 'absent' };
      },
    };
  },
};
