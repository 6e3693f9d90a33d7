import { z } from 'zod';
import type { FlowContext } from '../environment/context';
import type { RowReader } from '../rows/rowreader';

/** What the environment's tasks dataset lets a row know of a task: whether it is there, which fields it shows. */
export interface Known {
  listed: boolean;
  shown: ReadonlySet<string>;
}

export interface FullRequest {
  /** The catalogue operation: its file's method made it a full update (catalog/full-update.ts). */
  operationId: string;
  /** Catalogue field -> the column it is typed in. */
  fields: Readonly<Record<string, string>>;
  /** The row's values by field; undefined where the cell is blank. */
  typed: Readonly<Record<string, unknown>>;
  /** The task as the tasks dataset shows it. */
  task: Readonly<Record<string, unknown>>;
  /** What the request does, as the refusal says it: "Update replaces every field of the task". */
  what: string;
  /** Another way to the user's end, added to the refusal. */
  instead?: string;
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The body of a full update (the service replaces every field it takes, so a field left out or sent empty
 * may be erased): a typed cell as typed; a blank one carries the task's current value, read from the tasks
 * dataset. An empty current value is left out where the file lets the request lack it (its schema may not
 * take null: a springdoc number). Where the dataset does not show the field, the row is refused on that
 * cell, unless the admin declared the field safe to omit (then it is left out). Never null or [] for a field
 * that has a value nobody touched. `leftOut`: the fields the body lacks; `carried`: those filled from the task.
 */
export function fullUpdateBody(ctx: FlowContext, known: Known, r: RowReader, q: FullRequest) {
  const { operationId } = q;
  const op = ctx.environment.operation(operationId);
  const placed = ctx.environment.placedFields(operationId);
  const schema = ctx.environment.bodySchema(operationId);
  // Bound: the file says what the request must carry; unbound: the catalogue's schema (the v2 update: all).
  const bound = ctx.environment.catalog.operation(operationId).binding !== undefined;
  const own = (field: string) =>
    schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[field] : undefined;
  const placement = (field: string) => op.placements.find((p) => p.field === field);
  const requires = (field: string) =>
    bound ? placement(field)?.required === true : own(field)?.safeParse(undefined).success === false;
  const takesNull = (field: string) =>
    bound ? placement(field)?.nullable === true : own(field)?.safeParse(null).success === true;
  const body: Record<string, unknown> = {};
  const leftOut: string[] = [];
  const carried: string[] = [];
  for (const [field, column] of Object.entries(q.fields)) {
    const value = q.typed[field];
    if (value !== undefined) body[field] = value;
    else if (!placed.has(field))
      leftOut.push(field); // the file takes no such field: never sent, never blanked
    else if (known.shown.has(field)) {
      const now = q.task[field] ?? (field === 'NotificationPeriods' ? [] : null);
      if (isEmpty(now) && !requires(field)) leftOut.push(field);
      else if (now === null && !takesNull(field)) {
        leftOut.push(field);
        r.error(
          column,
          'no-current-value',
          `${q.what} (${op.method} ${op.file.path}) and the API file requires ${column} there without allowing it empty, but the task has none; type the task's ${column}`,
        );
      } else {
        body[field] = now;
        carried.push(field);
      }
    } else {
      leftOut.push(field);
      if (!op.omit?.includes(field))
        r.error(
          column,
          'current-unknown',
          `${q.what} (${op.method} ${op.file.path}), and ${known.listed ? "this environment's tasks dataset does not show" : 'this environment has no tasks dataset to read'} its ${column}, so a blank ${column} would erase it in the service; type the task's ${column} (its current value keeps it), or ask the administrator to declare it safe to omit ("omit ${operationId} ${field}" in the overrides file, docs/binding.md)${q.instead ? `; ${q.instead}` : ''}`,
        );
    }
  }
  return { body, leftOut, carried };
}
