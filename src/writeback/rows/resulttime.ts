import { isoToSerial, serialToIso } from '../../sheet/serial';
import type { Cell } from '../../workbook/port';

/**
 * Result time as Excel keeps date-times: a serial number of the user's local wall-clock time, shown with
 * a date-time format, so the column sorts, filters and reads like any other date in the workbook. Inside
 * write-back the time stays an ISO instant (a UTC string); it is converted only at the cell.
 */
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The serial of an instant in the local time zone; blank stays blank, other text is kept as typed. */
export function timeCell(iso: string): Cell {
  if (iso === '') return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const local = `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
  return isoToSerial(local);
}

/**
 * The ISO instant of a Result time cell: a serial (local time, to the second), or text as earlier
 * versions wrote it (an ISO instant). Anything else comes back as typed, so it reads as "not a time".
 */
export function timeOfCell(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'number') return String(cell).trim();
  const local = serialToIso(cell, 'datetime');
  if (!local) return String(cell);
  // An ISO date-time without an offset is local time (ECMAScript): the wall clock the serial holds.
  return new Date(local).toISOString();
}
