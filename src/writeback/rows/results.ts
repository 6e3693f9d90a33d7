import type { Cell, ColumnSpec } from '../../workbook/port';
import { timeCell } from './resulttime';
import * as resulttime from './resulttime';

// Copied into module constants: under the CommonJS the CLI runs as, an imported binding is read through a
// getter on every call, and validation makes these calls for every row (the first validation runs them cold).
const { timeOfCell } = resulttime;

/**
 * The result columns a write-back adds to the right of its table: the row's journal. A run writes
 * "sending" before a request goes out and the outcome as soon as it is known, so the sheet always says
 * what may have happened to each row, even after a crash.
 */
export const RESULT_COLUMNS = ['Result', 'Result GUID', 'Result message', 'Result time'] as const;

export const resultColumnSpecs: readonly ColumnSpec[] = [
  { name: 'Result', format: 'text' },
  { name: 'Result GUID', format: 'text' },
  { name: 'Result message', format: 'text' },
  { name: 'Result time', format: 'datetime' },
];

export const STATUSES = ['sending', 'created', 'done', 'failed', 'not sent', 'unknown'] as const;
export type Status = (typeof STATUSES)[number];

export interface RowResult {
  status: Status | '';
  guid: string;
  message: string;
  /** An ISO instant; the cell holds it as a local date-time serial (resulttime.ts). */
  time: string;
}

const isNone = (c: Cell | undefined) => c === null || c === undefined;
const text = (c: Cell | undefined) => (c === null || c === undefined ? '' : String(c).trim());

export function readResult(cells: readonly Cell[]): RowResult {
  // A row not posted yet, as most are when validated: nothing to read.
  if (isNone(cells[0]) && isNone(cells[1]) && isNone(cells[2]) && isNone(cells[3])) return { status: '', guid: '', message: '', time: '' };
  const status = text(cells[0]).toLowerCase();
  return {
    status: (STATUSES as readonly string[]).includes(status) ? (status as Status) : '',
    guid: text(cells[1]),
    message: text(cells[2]),
    time: timeOfCell(cells[3]),
  };
}

export const resultCells = (r: RowResult): Cell[] => [r.status, r.guid, r.message, timeCell(r.time)];

/**
 * What a Post does with a row, by its Result:
 * - blank or "not sent": send it (unless Result GUID holds one: someone recorded the record by hand);
 * - "sending" (a run stopped mid-request) or "unknown": look for its record in the service first;
 * - "created", "done", "failed": leave it (clear Result to send a fixed row again).
 */
export type Disposition = 'send' | 'check' | 'skip';

export function dispositionOf(r: RowResult): Disposition {
  if (r.status === '' && r.guid !== '') return 'skip';
  if (r.status === '' || r.status === 'not sent') return 'send';
  if (r.status === 'sending' || r.status === 'unknown') return 'check';
  return 'skip';
}
