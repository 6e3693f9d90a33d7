import { pastedRows } from '../../../src/taskpane/writeback/pastedRows';

describe('pasting rows into a template in preview mode', () => {
  const columns = ['Name', 'Date detected', 'Estimated loss', 'Reported'];

  it('maps tab-separated lines by header, typing numbers and TRUE/FALSE as Excel does and leaving dates as typed', () => {
    const r = pastedRows(
      'Reported\tName\tEstimated loss\tDate detected\nFALSE\tLaptop\t2500\t03/04/2025\n',
      columns,
    );
    expect(r).toEqual({ ok: true, rows: [['Laptop', '03/04/2025', 2500, false]] });
  });

  it('refuses headers the table does not have, naming them', () => {
    expect(pastedRows('Name\tColour\nA\tred', columns)).toEqual({
      ok: false,
      message: expect.stringContaining('Colour'),
    });
  });
});
