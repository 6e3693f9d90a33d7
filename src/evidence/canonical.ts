import type { Cell } from '../sheet/cell-types';

/**
 * What a date or date-time cell means, as fingerprints and control totals compare it (docs/evidence.md,
 * "Canonical values"). Excel keeps a date-time as a day serial (a double); tools that rewrite the file
 * (openpyxl) turn it into a date-time with microseconds and back, and write a last digit that differs. The
 * service gives date-times to the second or the millisecond, so the serial is compared at the millisecond:
 * - the serial times 86,400,000, rounded half up to a whole number of milliseconds;
 * - written as `yyyy-mm-dd` when that falls on midnight, else `yyyy-mm-ddThh:mm:ss.sss` (no offset; the
 *   serial is wall-clock time, src/sheet/serial.ts), in Excel's 1900 date system (serial 60 is the
 *   29 February 1900 Excel counts, which never was).
 */
const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_SERIAL = 25_569;
const FAKE_LEAP_DAY = 60;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The canonical text of a day serial; null for a number that is no date Excel can show. */
export function serialText(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return null;
  const total = Math.floor(serial * MS_PER_DAY + 0.5);
  let day = Math.floor(total / MS_PER_DAY);
  const ms = total - day * MS_PER_DAY;
  if (day === FAKE_LEAP_DAY) return ms ? `1900-02-29T${timeOf(ms)}` : '1900-02-29';
  if (day < FAKE_LEAP_DAY) day += 1;
  const d = new Date((day - UNIX_EPOCH_SERIAL) * MS_PER_DAY);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return ms ? `${date}T${timeOf(ms)}` : date;
}

function timeOf(ms: number): string {
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** A cell of a date or date-time column as compared: a number as its canonical date text, anything else as it is. */
export function dateCell(c: Cell): Cell {
  return typeof c === 'number' ? (serialText(c) ?? c) : c;
}

/**
 * The exact decimal sum of numbers, as plain decimal text (no exponent, no trailing zeros, "0" for none):
 * each number counts as the shortest decimal that reads back as it (JavaScript's and Python's repr), so
 * the sum does not depend on the order of the rows or on floating-point rounding.
 */
export class DecimalSum {
  private units = 0n;
  /** Digits after the point `units` is counted in. */
  private scale = 0;
  // Whole numbers add up exactly in a double below 2^53; other values are counted by value and turned
  // into decimals once each (a column repeats its values: scores, amounts), so a row costs no BigInt.
  private whole = 0;
  private counts = new Map<number, number>();
  /** A cell's number as the sheet holds it; counted at 15 significant digits. */
  add(n: number): void {
    if (!Number.isFinite(n)) return;
    if (Number.isInteger(n) && Math.abs(n) < 2 ** 52) {
      this.whole += n;
      if (Math.abs(this.whole) >= 2 ** 52) this.flushWhole();
      return;
    }
    this.counts.set(n, (this.counts.get(n) ?? 0) + 1);
    if (this.counts.size > 50_000) this.flushCounts();
  }
  private flushWhole(): void {
    this.addDecimal(BigInt(this.whole), 0);
    this.whole = 0;
  }
  private flushCounts(): void {
    for (const [raw, count] of this.counts) {
      // Excel's 15 significant digits, as the fingerprints count a figure.
      const n = Number(raw.toPrecision(15));
      const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(n.toExponential());
      if (!m) continue;
      const digits = m[2]! + (m[3] ?? '');
      this.addDecimal(BigInt(m[1]! + digits) * BigInt(count), digits.length - 1 - Number(m[4]));
    }
    this.counts.clear();
  }
  private addDecimal(value: bigint, scale: number): void {
    if (scale > this.scale) {
      this.units *= 10n ** BigInt(scale - this.scale);
      this.scale = scale;
    } else if (scale < this.scale) value *= 10n ** BigInt(this.scale - scale);
    this.units += value;
  }
  text(): string {
    this.flushWhole();
    this.flushCounts();
    return decimalText(this.units, this.scale);
  }
}

function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale < 0) digits += '0'.repeat(-scale);
  else if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '');
  }
  return digits === '0' ? '0' : `${negative ? '-' : ''}${digits}`;
}
