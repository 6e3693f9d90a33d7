import type { ColumnSpec } from '../../workbook/port';
import type { WritebackApi } from '../api';
import type { ExtraProperty } from './availability';
import type { PreparedFlow } from '../flow';
import { RowReader } from '../rows/rowreader';

/** A row's request with the values it gives for the binding's extra properties. */
export interface WithExtras {
  request: unknown;
  extra: Record<string, unknown>;
}

const FORMAT: Record<string, ColumnSpec['format']> = {
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
};

/**
 * A flow with one more column per property the environment's binding requires and the flow does not
 * fill (the customer's service is stricter than the spec): a dropdown of the file's enum, the file's
 * default when the cell is blank, and the value sent as that property. No binding, no extra: the flow as it is.
 */
export function withExtras(
  prepared: PreparedFlow<unknown>,
  extras: readonly ExtraProperty[],
): PreparedFlow<unknown> {
  if (extras.length === 0) return prepared;
  const read = (r: RowReader, x: ExtraProperty): unknown => {
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
      return x.default;
    }
    if (x.enum?.length && !x.enum.includes(String(value)))
      r.error(
        x.name,
        'not-in-list',
        `"${String(value)}" is not one of ${x.enum.join(', ')}; pick one from the dropdown`,
      );
    return value;
  };
  return {
    ...prepared,
    columns: (lookupSheet) => [
      ...prepared.columns(lookupSheet),
      ...extras.map((x): ColumnSpec => ({
        name: x.name,
        format: FORMAT[x.type ?? ''] ?? 'text',
        ...(x.enum?.length ? { list: { sheet: lookupSheet, values: [...x.enum] } } : {}),
      })),
    ],
    prepare(row) {
      const inner = prepared.prepare(row);
      const r = new RowReader(row);
      const extra: Record<string, unknown> = {};
      for (const x of extras) {
        const v = read(r, x);
        if (v !== undefined) extra[x.name] = v;
      }
      const problems = [...inner.problems, ...r.problems];
      return inner.request === undefined || r.problems.length
        ? { problems }
        : { request: { request: inner.request, extra } satisfies WithExtras, problems };
    },
    send(request, api, signal) {
      const { request: inner, extra } = request as WithExtras;
      const withExtra: WritebackApi = {
        download: api.download,
        call: (id, o) => api.call(id, { ...o, extra: { ...extra, ...o?.extra } }),
      };
      return prepared.send(inner, withExtra, signal);
    },
    find: (request, records, taken, sent) =>
      prepared.find((request as WithExtras).request, records, taken, sent),
    ...(prepared.journalNote
      ? { journalNote: (request: unknown) => prepared.journalNote!((request as WithExtras).request) }
      : {}),
    ...(prepared.serialKey
      ? { serialKey: (request: unknown) => prepared.serialKey!((request as WithExtras).request) }
      : {}),
  };
}
