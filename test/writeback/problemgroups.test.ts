import type { Problem } from '../../src/writeback/problem';
import { describeGroup, groupProblems, problemCell, rowsText } from '../../src/writeback/problemgroups';

const warn = (row: number, column = 'Description', message = 'begins with "="'): Problem => ({
  row,
  column,
  code: 'formula-like-text',
  message,
  severity: 'warning',
});
const err = (row: number, column: string, message: string): Problem => ({ row, column, code: 'x', message, severity: 'error' });

describe('the problem list', () => {
  it('puts errors first, table-level ones at the top, and one line for the same warning on many rows', () => {
    const groups = groupProblems([
      warn(0),
      err(3, 'Name', 'the incident name is required'),
      warn(1),
      warn(2),
      warn(4),
      warn(1, 'Name'),
      err(-1, 'Reporting organization', 'the table has no column'),
      err(1, 'Date detected', 'ambiguous'),
    ]);
    expect(groups.map((g) => describeGroup(g, 2))).toEqual([
      'Reporting organization: the table has no column',
      'Row 3, Date detected: ambiguous',
      'Row 5, Name: the incident name is required',
      'Rows 2-4, 6, Description (warning): begins with "="',
      'Row 3, Name (warning): begins with "="',
    ]);
  });

  it('shortens runs of rows', () => {
    expect(rowsText([0, 1, 2, 3, 7, 9, 10], 5)).toBe('Rows 5-8, 12, 14, 15');
    expect(rowsText([4], 2)).toBe('Row 6');
  });

  it("names the cell of a problem's first row, wherever the table starts", () => {
    const table = { topLeft: 'C3', columns: ['Name', 'Reporting organization', 'Description'] };
    const [g] = groupProblems([warn(4), warn(2)]);
    expect(problemCell(g!, table)).toBe('E6'); // body row 2 is sheet row 3 + 1 + 2
    expect(problemCell({ ...g!, rows: [], column: 'Missing' }, table)).toBe('C3');
  });
});
