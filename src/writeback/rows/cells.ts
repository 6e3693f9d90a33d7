import type { Cell } from '../../workbook/port';
import * as catalog from '../../catalog';
import * as serial from '../../sheet/serial';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { isIsoDate } = catalog;
const { isoToSerial, serialToIso } = serial;

/**
 * Reading one cell as the type a field needs. A failure is a value with a code and a message that says
 * what to type instead; the caller adds the row and the column.
 */
export type Read<T> =
  | { readonly ok: true; readonly value: T | undefined }
  | { readonly ok: false; readonly code: string; readonly message: string };

const ok = <T>(value: T | undefined): Read<T> => ({ ok: true, value });
const fail = <T>(code: string, message: string): Read<T> => ({ ok: false, code, message });
/** A blank cell's read, one for all (most cells of a row are blank): callers only read it. */
const NONE: Read<never> = ok(undefined);

export const isBlank = (c: Cell | undefined): boolean =>
  c === null || c === undefined || (typeof c === 'string' && c.trim() === '');

export function readText(c: Cell | undefined): Read<string> {
  if (isBlank(c)) return NONE;
  return ok(String(c).trim());
}

export function readNumber(c: Cell | undefined): Read<number> {
  if (isBlank(c)) return NONE;
  if (typeof c === 'number') return ok(c);
  const s = String(c).trim();
  // Only plain digits with a dot: "1,5" is 1.5 in some locales and 15 in others.
  if (/^-?\d+(\.\d+)?$/.test(s)) return ok(Number(s));
  return fail('not-a-number', `"${s}" is not a number; type digits with a dot for decimals, e.g. 3 or 2.5`);
}

export function readBoolean(c: Cell | undefined): Read<boolean> {
  if (isBlank(c)) return NONE;
  if (typeof c === 'boolean') return ok(c);
  if (c === 1 || c === 0) return ok(c === 1);
  const s = String(c).trim().toLowerCase();
  if (['true', 'yes', 'waar', 'ja'].includes(s)) return ok(true);
  if (['false', 'no', 'onwaar', 'nee'].includes(s)) return ok(false);
  return fail('not-a-boolean', `"${String(c)}" is not yes or no; type TRUE or FALSE`);
}

const SLASHED = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/;
const pad = (n: number) => String(n).padStart(2, '0');

// A date column repeats a few days: the last serial's text is kept, so a run of the same day converts once.
let lastSerial = NaN;
let lastIso: string | null = null;

/**
 * A date is a real date cell (a serial number) or ISO text (2025-04-03). Text like 03/04/2025 is refused:
 * it is 3 April in most of Europe and 4 March in the US, and guessing would post the wrong date.
 */
export function readDate(c: Cell | undefined): Read<string> {
  if (isBlank(c)) return NONE;
  if (typeof c === 'number') {
    if (c !== lastSerial) {
      lastSerial = c;
      lastIso = c >= 1 ? serialToIso(c, 'date') : null;
    }
    const iso = lastIso;
    return iso
      ? ok(iso)
      : fail('not-a-date', `${c} is not a date; type the date as yyyy-mm-dd or use a date cell`);
  }
  if (typeof c === 'boolean')
    return fail('not-a-date', `${String(c)} is not a date; type the date as yyyy-mm-dd`);
  const s = String(c).trim();
  if (isIsoDate(s)) {
    if (isoToSerial(s.slice(0, 10)) === null)
      return fail('not-a-date', `${s} is not a day of the calendar; check the day and the month`);
    return ok(s.slice(0, 10));
  }
  const m = SLASHED.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    const year = m[3]!.length === 2 ? `20${m[3]}` : m[3]!;
    if (a <= 12 && b <= 12 && a !== b) {
      return fail(
        'ambiguous-date',
        `"${s}" could be ${year}-${pad(b)}-${pad(a)} (day first) or ${year}-${pad(a)}-${pad(b)} (month first); type the date as yyyy-mm-dd or use a date cell`,
      );
    }
    const [day, month] = a > 12 ? [a, b] : [b, a];
    if (month > 12 || day > 31)
      return fail('not-a-date', `"${s}" is not a date; type the date as yyyy-mm-dd or use a date cell`);
    return fail(
      'date-text',
      `"${s}" is text, not a date; type it as ${year}-${pad(month)}-${pad(day)} or use a date cell`,
    );
  }
  return fail(
    'not-a-date',
    `"${s}" is not a date; type the date as yyyy-mm-dd (e.g. 2025-04-03) or use a date cell`,
  );
}

/** Several values in one cell are separated by semicolons or line breaks: commas occur inside names. */
export function readList(c: Cell | undefined): Read<string[]> {
  if (isBlank(c)) return NONE;
  // A loop rather than split, map and filter: a list cell is read on every row, and the chain made three
  // arrays and two closures per cell (and arrays of changing kinds, which cost the first validation a deopt).
  const s = String(c);
  const items: string[] = [];
  let from = 0;
  for (let i = 0; i <= s.length; i++) {
    const ch = i < s.length ? s.charCodeAt(i) : SEMICOLON;
    if (ch !== SEMICOLON && ch !== NEWLINE) continue;
    const item = s.slice(from, i).trim();
    if (item !== '') items.push(item);
    from = i + 1;
  }
  return ok(items.length ? items : undefined);
}

const SEMICOLON = 59;
const NEWLINE = 10;
