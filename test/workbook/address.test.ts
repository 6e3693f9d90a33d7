import { firstBodyRow } from '../../src/workbook/address';

describe('row numbers as Excel shows them', () => {
  it('puts the first body row just under the header cell, whatever the column', () => {
    expect(firstBodyRow('A1')).toBe(2);
    expect(firstBodyRow('C3')).toBe(4);
    expect(firstBodyRow('$AB$10')).toBe(11);
  });
});

describe('sheetCell', () => {
  it('quotes a sheet name only where Excel would', () => {
    const { sheetCell } = jest.requireActual<typeof import('../../src/workbook/address')>('../../src/workbook/address');
    expect(sheetCell('Risks', 4, 2)).toBe('Risks!C5');
    expect(sheetCell('Risk register', 4, 2)).toBe("'Risk register'!C5");
    expect(sheetCell("Bob's", 0, 0)).toBe("'Bob''s'!A1");
    expect(sheetCell('2024', 0, 0)).toBe("'2024'!A1");
    expect(sheetCell('AB12', 0, 0)).toBe("'AB12'!A1");
    expect(sheetCell('R1C1', 0, 0)).toBe("'R1C1'!A1");
    expect(sheetCell('Überblick_2024', 0, 0)).toBe('Überblick_2024!A1');
    expect(sheetCell('R&D', 0, 0)).toBe("'R&D'!A1");
  });
});
