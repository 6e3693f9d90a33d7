import type { ColumnSpec } from '../../workbook/port';
import type { RowReader } from '../rows/rowreader';
import type { ExtraProperty } from './availability';

/**
 * One more column per property the environment's file requires and no catalogue field fills (the
 * customer's service is stricter than the spec): a dropdown of the file's enum, the file's default when the
 * cell is blank, and the value sent as that property.
 */

const FORMAT: Record<string, ColumnSpec['format']> = {
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
};

export const extraColumns = (extras: readonly ExtraProperty[], lookupSheet: string): ColumnSpec[] =>
  extras.map((x) => ({
    name: x.name,
    format: FORMAT[x.type ?? ''] ?? 'text',
    ...(x.enum?.length ? { list: { sheet: lookupSheet, values: [...x.enum] } } : {}),
  }));

/** The row's values of the extra properties (the default for a blank cell); problems go to the reader. */
export function readExtras(r: RowReader, extras: readonly ExtraProperty[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const x of extras) {
    const format = FORMAT[x.type ?? ''];
    const value =
      format === 'number'
        ? r.number(x.name)
        : format === 'boolean'
          ? r.bool(x.name)
          : format === 'date'
            ? r.date(x.name)
            : r.text(x.name);
    if (value === undefined) {
      if (x.default === undefined)
        r.error(
          x.name,
          'required',
          `the service's API file requires ${x.name} and has no default for it; fill in ${x.name}`,
        );
      else out[x.name] = x.default;
      continue;
    }
    if (x.enum?.length && !x.enum.includes(String(value)))
      r.error(x.name, 'not-in-list', `"${String(value)}" is not one of ${x.enum.join(', ')}; pick one from the dropdown`);
    out[x.name] = value;
  }
  return out;
}
