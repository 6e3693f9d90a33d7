import type { ExtraColumn } from '../../catalog';
import type { ColumnSpec } from '../../workbook/port';
import type { RowReader } from '../rows/rowreader';

/**
 * One more column per property of the environment's file that no catalogue field fills (the customer's
 * service asks for more than the spec): headed in the file's words, typed from the file's schema, a
 * dropdown of the file's enum. Its value is encoded with the row's call (environment/encode.ts), which
 * also says when a required one is blank and has no default.
 */

const FORMAT: Record<ExtraColumn['cell'], ColumnSpec['format']> = {
  text: 'text',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  'date-time': 'datetime',
  guid: 'text',
  name: 'text',
};

export const extraColumns = (extras: readonly ExtraColumn[], lookupSheet: string): ColumnSpec[] =>
  extras.map((x) => ({
    name: x.header,
    format: x.many ? 'text' : FORMAT[x.cell],
    ...(x.values?.length ? { list: { sheet: lookupSheet, values: [...x.values], allowOther: x.many === true } } : {}),
  }));

/** The row's values of the extra columns, by key; a blank cell gives none (its default, if any, is the encoder's). */
export function readExtras(r: RowReader, extras: readonly ExtraColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const x of extras) {
    const value = x.many
      ? r.list(x.header)
      : x.cell === 'number' || x.cell === 'integer'
        ? r.number(x.header)
        : x.cell === 'boolean'
          ? r.bool(x.header)
          : x.cell === 'date' || x.cell === 'date-time'
            ? r.date(x.header)
            : r.text(x.header);
    if (value !== undefined) out[x.key] = value;
  }
  return out;
}
