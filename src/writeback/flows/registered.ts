/**
 * How far the service's clock may be behind ours. A record registered up to this long before the row was
 * first sent may still be the row's own (the service stamped it with a slower clock); a record registered
 * earlier existed before the row was sent and can only be someone else's.
 */
export const CLOCK_SKEW_MS = 2 * 60_000;

/** The widest gap between a local time and UTC (UTC-12 to UTC+14): a time with no zone lies within it. */
const ZONE_SPREAD_MS = 14 * 3_600_000;
const DAY_MS = 86_400_000;

const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The span a registration time certainly lies in, in ms since the epoch: exact with a zone (`Z` or an
 * offset); widened by every possible zone when the service writes none (the spec does not say which it
 * uses); the whole day, widened the same way, when only a date is given. Undefined when missing or unreadable.
 */
export function instantSpan(value: unknown): { earliest: number; latest: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = INSTANT.exec(value.trim());
  if (!m) return undefined;
  const [, day, time, zone] = m;
  if (time === undefined) {
    const start = Date.parse(`${day}T00:00:00Z`);
    return Number.isNaN(start)
      ? undefined
      : { earliest: start - ZONE_SPREAD_MS, latest: start + DAY_MS + ZONE_SPREAD_MS };
  }
  const offset = zone === undefined ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const at = Date.parse(`${day}T${time}${offset}`);
  if (Number.isNaN(at)) return undefined;
  return zone === undefined
    ? { earliest: at - ZONE_SPREAD_MS, latest: at + ZONE_SPREAD_MS }
    : { earliest: at, latest: at };
}

/**
 * Whether a record was registered after a row was first sent (`since`, our clock), and so may be the
 * row's own: `after` (it may be), `before` (it existed already: a stranger's), or `unknown` (no time, or
 * one too vague to tell).
 */
export function registeredSince<T extends object>(
  record: T,
  field: keyof T & string,
  since: Date,
): 'after' | 'before' | 'unknown' {
  const span = instantSpan(record[field]);
  if (!span) return 'unknown';
  const from = since.getTime() - CLOCK_SKEW_MS;
  if (span.latest < from) return 'before';
  return span.earliest >= from ? 'after' : 'unknown';
}
