import { firstBodyRow } from '../../src/workbook/address';

describe('row numbers as Excel shows them', () => {
  it('puts the first body row just under the header cell, whatever the column', () => {
    expect(firstBodyRow('A1')).toBe(2);
    expect(firstBodyRow('C3')).toBe(4);
    expect(firstBodyRow('$AB$10')).toBe(11);
  });
});
