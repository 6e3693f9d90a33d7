import type { Cell } from './cell-types';
import type { Column } from './columns';
import { isoToSerial } from './serial';

/** Excel's limit on the text of one cell. */
export const CELL_TEXT_LIMIT = 32_767;
export const TRUNCATION_MARKER = ' [truncated by grc-sheets]';

export const LIST_SEPARATOR = '; ';

/**
 * Turns records into rows for one column model. Built once per load so the per-record work is a plain
 * loop over precomputed converters (200,000 risks convert in well under a second).
 */
export interface RowConverter {
  convert(record: Record<string, unknown>): Cell[];
  /** How many cells were cut to the cell text limit so far. */
  readonly truncated: number;
}

type ToCell = (value: unknown) => Cell;

export function createRowConverter(columns: readonly Column[]): RowConverter {
  let truncated = 0;

  const fit = (s: string): string => {
    if (s.length <= CELL_TEXT_LIMIT) return s;
    truncated++;
    return s.slice(0, CELL_TEXT_LIMIT - TRUNCATION_MARKER.length) + TRUNCATION_MARKER;
  };
  const json = (v: unknown): string => fit(JSON.stringify(v));
  const anyText = (v: unknown): string => (typeof v === 'string' ? fit(v) : typeof v === 'object' ? json(v) : String(v));

  // Text columns get the "@" format, so everything in them is written as a string: numbers too, which
  // keeps an identifier like 00123 or 1E5 exactly as sent.
  const text: ToCell = (v) => (v === null || v === undefined ? null : anyText(v));
  const list: ToCell = (v) => {
    if (v === null || v === undefined) return null;
    if (!Array.isArray(v)) return anyText(v);
    return fit((v.every((x) => typeof x === 'string') ? v : v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))).join(LIST_SEPARATOR));
  };
  const nested: ToCell = (v) => (v === null || v === undefined ? null : json(v));
  // A typed column receiving something else (only possible for fields the catalogue does not know, since
  // known fields are schema-checked) shows it as text; a leading quote keeps formula-looking text inert in
  // a column whose format is not "@".
  const off = (v: unknown): Cell => {
    const s = anyText(v);
    return /^[=+\-@]/.test(s) ? `'${s}` : s;
  };
  const number: ToCell = (v) => (v === null || v === undefined ? null : typeof v === 'number' ? v : off(v));
  const boolean: ToCell = (v) => (v === null || v === undefined ? null : typeof v === 'boolean' ? v : off(v));
  const yesNo: ToCell = (v) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : text(v));
  // Datasets repeat the same dates many times over; parsing each distinct text once halves the cost.
  const serials = new Map<string, number | null>();
  const date: ToCell = (v) => {
    if (v === null || v === undefined || v === '') return null;
    if (typeof v === 'string') {
      let serial = serials.get(v);
      if (serial === undefined) {
        if (serials.size > 100_000) serials.clear();
        serials.set(v, (serial = isoToSerial(v)));
      }
      if (serial !== null) return serial;
    }
    return off(v);
  };

  const byKind: Record<Column['kind'], ToCell> = {
    text,
    guid: text,
    list,
    json: nested,
    number,
    boolean,
    date,
    datetime: date,
  };
  const names = columns.map((c) => c.field);
  const fns = columns.map((c) => (c.yesNo ? yesNo : byKind[c.kind]));
  const width = names.length;

  return {
    convert(record) {
      const row: Cell[] = new Array(width);
      for (let i = 0; i < width; i++) row[i] = fns[i]!(record[names[i]!]);
      return row;
    },
    get truncated() {
      return truncated;
    },
  };
}
