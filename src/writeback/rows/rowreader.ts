import { z } from 'zod';
import type { Cell } from '../../workbook/port';
import type { Read } from './cells';
import * as cells from './cells';
import type { RowInput } from '../flow';
import type { FlowContext } from '../environment/context';
import type { NameIndex } from '../checks/nameindex';
import type { CellProblem } from '../problem';
import * as problem from '../problem';
import * as bodycheck from './bodycheck';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { readBoolean, readDate, readList, readNumber, readText } = cells;
const { cellError } = problem;
const { passesByField } = bodycheck;

export interface FieldOptions {
  required?: boolean;
  /** How the required message names the field: "the incident name is required". */
  what?: string;
}

/**
 * Reads a row's cells by column, collecting one problem per bad cell, so a flow's `prepare` reads as a
 * list of fields. A class, not closures: it is made once per row, 10,000 times per validation.
 */
export class RowReader {
  readonly problems: CellProblem[] = [];

  constructor(
    private readonly row: RowInput,
    private readonly ctx: FlowContext,
  ) {}

  /** A cell as it is, for the few reads the typed ones do not cover (custom fields, blank checks). */
  cell(column: string): Cell | undefined {
    return this.row(column);
  }

  private take<T>(column: string, r: Read<T>, o: FieldOptions | undefined): T | undefined {
    if (!r.ok) {
      this.problems.push(cellError(column, r.code, r.message));
      return undefined;
    }
    if (r.value === undefined && o?.required)
      this.problems.push(
        cellError(column, 'required', `${o.what ?? 'this field'} is required; fill in ${column}`),
      );
    return r.value;
  }

  text(column: string, o?: FieldOptions): string | undefined {
    return this.take(column, readText(this.row(column)), o);
  }
  number(column: string, o?: FieldOptions): number | undefined {
    return this.take(column, readNumber(this.row(column)), o);
  }
  date(column: string, o?: FieldOptions): string | undefined {
    return this.take(column, readDate(this.row(column)), o);
  }
  bool(column: string): boolean | undefined {
    return this.take(column, readBoolean(this.row(column)), undefined);
  }
  list(column: string, o?: FieldOptions): string[] | undefined {
    return this.take(column, readList(this.row(column)), o);
  }

  /** A name from standing data, as its GUID. */
  name(column: string, index: NameIndex, o?: FieldOptions): string | undefined {
    const text = this.text(column, o);
    if (text === undefined) return undefined;
    const r = index.resolve(text);
    if (!r.ok) this.problems.push(cellError(column, r.code, r.message));
    return r.ok ? r.id : undefined;
  }

  /** Several names from standing data, as GUIDs; a repeated name is refused. */
  names(column: string, index: NameIndex, o?: FieldOptions): string[] | undefined {
    const items = this.list(column, o);
    if (items === undefined) return undefined;
    const ids: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const r = index.resolve(item);
      if (!r.ok) this.problems.push(cellError(column, r.code, r.message));
      else if (ids.includes(r.id))
        this.problems.push(
          cellError(column, 'duplicate-entry', `"${item}" is listed twice; remove the repeat`),
        );
      else ids.push(r.id);
    }
    return ids;
  }

  error(column: string, code: string, message: string): void {
    this.problems.push(cellError(column, code, message));
  }

  get hasErrors(): boolean {
    return this.problems.some(isError);
  }

  /**
   * What `prepare` returns once the body is built: the request only when the row has no errors and the body
   * passes the operation's schema on this environment (its refusals are added to the row's problems, see
   * checkBody). Whether the environment's file can take every value is checked for all the row's calls
   * together (environment/fitted-flow.ts). `leftOut`: fields of the schema the body may lack because they are
   * not sent at all (a partial update's untyped fields), not because the row forgot them.
   */
  prepared<R>(
    operationId: string,
    body: unknown,
    columnOf: Record<string, string>,
    request: R,
    leftOut: readonly string[] = [],
  ): { request?: R; problems: CellProblem[] } {
    const full = this.ctx.environment.bodySchema(operationId);
    const schema = leftOut.length && full instanceof z.ZodObject ? partialOf(full, leftOut) : full;
    if (this.hasErrors || !checkBody(schema, body, columnOf, this.problems)) return { problems: this.problems };
    return { request, problems: this.problems };
  }
}

const isError = (p: CellProblem) => p.severity === 'error';

const partials = new WeakMap<z.ZodObject, Map<string, z.ZodType>>();

/** The schema with `leftOut` optional, made once per set of fields rather than once per row. */
function partialOf(full: z.ZodObject, leftOut: readonly string[]): z.ZodType {
  const fields = leftOut.filter((f) => f in full.shape);
  const key = JSON.stringify(fields);
  let made = partials.get(full);
  if (!made) partials.set(full, (made = new Map()));
  let schema = made.get(key);
  if (!schema) made.set(key, (schema = full.partial(Object.fromEntries(fields.map((f) => [f, true])) as Record<string, true>)));
  return schema;
}

/**
 * Checks a built body with the catalogue's body schema. A failure here means a row reached a shape the
 * service would refuse; it is reported on the column the field came from.
 */
export function checkBody(
  schema: z.ZodType | null,
  body: unknown,
  columnOf: Record<string, string>,
  problems: CellProblem[],
): boolean {
  if (!schema || passesByField(schema, body)) return true;
  const r = schema.safeParse(body);
  if (r.success) return true;
  for (const issue of r.error.issues) {
    const field = String(issue.path[0] ?? '');
    problems.push(
      cellError(
        columnOf[field] ?? field,
        'invalid-field',
        `${issue.message}; correct ${columnOf[field] ?? field}`,
      ),
    );
  }
  return false;
}
