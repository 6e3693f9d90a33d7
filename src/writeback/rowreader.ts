import { catalog } from '../catalog';
import { readBoolean, readDate, readList, readNumber, readText, type Read } from './cells';
import type { RowInput } from './flow';
import type { NameIndex } from './names';
import { cellError, type CellProblem } from './problem';

/**
 * Reads a row's cells by column, collecting one problem per bad cell, so a flow's `prepare` reads as a
 * list of fields.
 */
export function rowReader(row: RowInput) {
  const problems: CellProblem[] = [];

  function take<T>(column: string, r: Read<T>, required: boolean, what: string): T | undefined {
    if (!r.ok) {
      problems.push(cellError(column, r.code, r.message));
      return undefined;
    }
    if (r.value === undefined && required)
      problems.push(cellError(column, 'required', `${what} is required; fill in ${column}`));
    return r.value;
  }
  const req = (o?: { required?: boolean; what?: string }) =>
    [o?.required ?? false, o?.what ?? 'this field'] as const;

  return {
    problems,
    text: (column: string, o?: { required?: boolean; what?: string }) =>
      take(column, readText(row(column)), ...req(o)),
    number: (column: string, o?: { required?: boolean; what?: string }) =>
      take(column, readNumber(row(column)), ...req(o)),
    date: (column: string, o?: { required?: boolean; what?: string }) =>
      take(column, readDate(row(column)), ...req(o)),
    bool: (column: string) => take(column, readBoolean(row(column)), false, ''),
    list: (column: string, o?: { required?: boolean; what?: string }) =>
      take(column, readList(row(column)), ...req(o)),
    /** A name from standing data, as its GUID. */
    name(column: string, index: NameIndex, o?: { required?: boolean; what?: string }): string | undefined {
      const text = take(column, readText(row(column)), ...req(o));
      if (text === undefined) return undefined;
      const r = index.resolve(text);
      if (!r.ok) problems.push(cellError(column, r.code, r.message));
      return r.ok ? r.id : undefined;
    },
    /** Several names from standing data, as GUIDs; a repeated name is refused. */
    names(column: string, index: NameIndex, o?: { required?: boolean; what?: string }): string[] | undefined {
      const items = take(column, readList(row(column)), ...req(o));
      if (items === undefined) return undefined;
      const ids: string[] = [];
      for (const item of items) {
        const r = index.resolve(item);
        if (!r.ok) problems.push(cellError(column, r.code, r.message));
        else if (ids.includes(r.id))
          problems.push(cellError(column, 'duplicate-entry', `"${item}" is listed twice; remove the repeat`));
        else ids.push(r.id);
      }
      return ids;
    },
    error(column: string, code: string, message: string) {
      problems.push(cellError(column, code, message));
    },
  };
}

export type RowReader = ReturnType<typeof rowReader>;

/**
 * Checks a built body with the catalogue's body schema. A failure here means a row reached a shape the
 * service would refuse; it is reported on the column the field came from.
 */
export function checkBody(
  operationId: string,
  body: unknown,
  columnOf: Record<string, string>,
  problems: CellProblem[],
): boolean {
  const schema = catalog.operation(operationId).body;
  if (!schema) return true;
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
