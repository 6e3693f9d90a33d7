/**
 * The custom field cells of a row someone else typed (the taskpane door's sample rows: test/e2e/door-customers.ts),
 * as read-wants.ts's customFieldProblems reads them: each field's definition in the sandbox with the cell as typed.
 * A multi-select typed as "A; B" (the taskpane's list separator with a space) is the options A and B, written
 * "A;B" as read-wants.ts splits it; a checkbox typed TRUE or FALSE (as the grid shows a boolean) is that boolean.
 */
import type { Sandbox } from '../../../src/sandbox';
import type { Cell } from '../../../src/workbook/port';
import { customFieldCells, type TypedField } from './read-wants';

export function typedFields(sandbox: Sandbox, dataset: string, row: Readonly<Record<string, Cell>>): TypedField[] {
  const typed = Object.keys(row).filter((c) => row[c] !== null && row[c] !== '');
  return customFieldCells({ sandbox }, dataset, typed).map((f) => {
    const cell = row[f.column]!;
    if (typeof cell !== 'string') return { ...f, cell };
    if (f.def.Type === 'MultiSelect') return { ...f, cell: cell.split(';').map((o) => o.trim()).join(';') };
    if (f.def.Type === 'Checkbox' && /^(true|false)$/i.test(cell)) return { ...f, cell: cell.toLowerCase() === 'true' };
    return { ...f, cell };
  });
}
