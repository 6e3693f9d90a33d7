import { z } from 'zod';
import type { Cell, ColumnSpec } from '../../workbook/port';

/**
 * What the next Post needs to know about a row that its Result does not say: a follow-up step still to do
 * (an incident's hyperlink whose call found the service busy), the status a task's advance was sent from
 * (to tell, after a lost answer, whether it moved on). Kept as JSON in a hidden column beside the row key,
 * written with every result, never parsed from the Result message a person reads and may edit.
 */
export const ROW_STATE_COLUMN = 'Row state';

export const rowStateSpec: ColumnSpec = {
  name: ROW_STATE_COLUMN,
  format: 'text',
  hidden: true,
  width: 24,
  headerNote:
    'Row state: what the add-in must remember about this row for the next Post (a step still to do). Do not edit it; sorting and filtering are fine.',
};

const rowState = z.object({
  /** The follow-up step still to do, by what it adds ("hyperlink"). */
  step: z.string().optional(),
  /** The task status an advance was sent from. */
  from: z.string().optional(),
});
export type RowState = z.infer<typeof rowState>;

/** A state cell; blank, unreadable or edited by hand reads as no state. */
export function readState(cell: Cell | undefined): RowState {
  if (typeof cell !== 'string' || !cell.trim().startsWith('{')) return {};
  try {
    const r = rowState.safeParse(JSON.parse(cell));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

export const stateCell = (state: RowState | undefined): Cell =>
  state && Object.values(state).some((v) => v !== undefined) ? JSON.stringify(state) : null;
