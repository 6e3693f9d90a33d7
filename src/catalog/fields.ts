import { z } from 'zod';

/**
 * How a field becomes an Excel column. The sheet module reads this from the registry, so the
 * catalogue's zod schema is the one place a column's type is stated.
 */
export type ColumnKind = 'text' | 'guid' | 'number' | 'date' | 'datetime' | 'boolean' | 'list' | 'json';

export const columnKinds = z.registry<{ kind: ColumnKind }>();

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isGuid = (s: string): boolean => GUID.test(s);

// The service's date format is not shown; accept ISO dates with or without a time and offset.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
export const isIsoDate = (s: string): boolean => ISO_DATE.test(s) && !Number.isNaN(Date.parse(s.slice(0, 10)));

function kind<T extends z.ZodType>(schema: T, k: ColumnKind) {
  // Fields the service leaves empty come as null or are missing; both are allowed in a read record.
  const field = schema.nullable().optional();
  columnKinds.add(field as z.ZodType, { kind: k });
  return field;
}

export const text = () => kind(z.string(), 'text');
export const guid = () => kind(z.string().regex(GUID, 'expected a GUID'), 'guid');
export const number = () => kind(z.number(), 'number');
export const bool = () => kind(z.boolean(), 'boolean');
export const date = () => kind(z.string().regex(ISO_DATE, 'expected an ISO date'), 'date');
export const datetime = () => kind(z.string().regex(ISO_DATE, 'expected an ISO date-time'), 'datetime');
export const guidList = () => kind(z.array(z.string().regex(GUID, 'expected a GUID')), 'list');
export const textList = () => kind(z.array(z.string()), 'list');
/** Nested values (name/value pairs, option lists): flattened to JSON text in a cell. */
export const nested = () => kind(z.unknown(), 'json');

/** Request-body building blocks: required unless wrapped by the caller. */
export const guidValue = () => z.string().regex(GUID, 'expected a GUID');
export const dateValue = () => z.string().regex(ISO_DATE, 'expected an ISO date (yyyy-mm-dd)');

export function columnKindOf(schema: z.ZodType): ColumnKind {
  return columnKinds.get(schema)?.kind ?? 'text';
}
