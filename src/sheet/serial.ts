/**
 * Excel serial dates (OADate, 1900 date system) both ways, with no time zone arithmetic: a value is the
 * wall-clock date and time written in the ISO text, so 2025-03-04 reads back as 2025-03-04 wherever the
 * workbook is opened. An offset in the text (`Z`, `+02:00`) is not applied: the service's time zone
 * semantics are not shown in the spec, and shifting would move dates across midnight.
 */

const MS_PER_DAY = 86_400_000;
// Serial 25569 is 1970-01-01. Excel counts a 29 February 1900 that never was (serial 60), so dates before
// 1 March 1900 are one lower than the plain day count.
const UNIX_EPOCH_SERIAL = 25_569;
const FAKE_LEAP_DAY = 60;

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?/;

/** The serial of an ISO date or date-time, or null when the text is not one. */
export function isoToSerial(iso: string): number | null {
  const m = ISO.exec(iso);
  if (!m) return null;
  const y = +m[1]!;
  const mo = +m[2]!;
  const d = +m[3]!;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const days = Date.UTC(y, mo - 1, d) / MS_PER_DAY;
  // Date.UTC rolls 2025-02-30 over to March: refuse it rather than write a different date.
  if (new Date(days * MS_PER_DAY).getUTCDate() !== d) return null;
  let serial = days + UNIX_EPOCH_SERIAL;
  if (serial <= FAKE_LEAP_DAY) serial -= 1;
  if (serial < 1) return null;
  if (m[4] === undefined) return serial;
  const h = +m[4];
  const mi = +m[5]!;
  const s = m[6] === undefined ? 0 : +m[6];
  const frac = m[7] === undefined ? 0 : +`0.${m[7]}`;
  if (h > 23 || mi > 59 || s > 59) return null;
  return serial + (h * 3600 + mi * 60 + s + frac) / 86_400;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * The ISO text of a serial: `yyyy-mm-dd` for a date, `yyyy-mm-ddThh:mm:ss` (no offset) for a date-time,
 * rounded to the second. Null for a value that is not a serial Excel can show (negative, not finite).
 */
export function serialToIso(serial: number, kind: 'date' | 'datetime'): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return null;
  let totalSeconds = Math.round(serial * 86_400);
  let day = Math.floor(totalSeconds / 86_400);
  if (kind === 'date') totalSeconds = day * 86_400;
  const secondsOfDay = totalSeconds - day * 86_400;
  if (day === FAKE_LEAP_DAY) return null; // 1900-02-29 does not exist
  if (day < FAKE_LEAP_DAY) day += 1;
  const dt = new Date((day - UNIX_EPOCH_SERIAL) * MS_PER_DAY);
  const date = `${pad(dt.getUTCFullYear(), 4)}-${pad(dt.getUTCMonth() + 1)}-${pad(dt.getUTCDate())}`;
  if (kind === 'date') return date;
  const h = Math.floor(secondsOfDay / 3600);
  const mi = Math.floor((secondsOfDay % 3600) / 60);
  return `${date}T${pad(h)}:${pad(mi)}:${pad(secondsOfDay % 60)}`;
}
