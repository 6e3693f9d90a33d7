import { followBody, movedTotalCell, sharedFromOutside, type BodyRows } from '../../../src/workbook/file/totalRow';

/** A table at A1:E12 (header row 1, body rows 2-11, total row 12) whose body now ends at row 301. */
const grown: BodyRows = { first: 1, oldLast: 10, newLast: 300, col0: 0, col1: 4 };

describe("a table's total row, moved", () => {
  it('ends an A1 range over exactly a whole body column at the new last body row, as Excel keeps it over the body', () => {
    expect(followBody('SUM(E2:E11)', grown)).toBe('SUM(E2:E301)');
    expect(followBody('SUM($E$2:$E$11)/COUNT(D2:E11)', grown)).toBe('SUM($E$2:$E$301)/COUNT(D2:E301)');
    expect(followBody('SUM(E2:E11)', { ...grown, newLast: 3 })).toBe('SUM(E2:E4)');
  });

  it('leaves every other reference as it is: part of the body, outside the table, other sheets, text, structured names', () => {
    const same = [
      'SUM(E3:E11)',
      'SUM(E2:E10)',
      'SUM(G2:G11)',
      'E11',
      'SUM(Other!E2:E11)',
      "SUM('My sheet'!E2:E11)",
      'IF(A1="E2:E11","E2:E11",0)',
      'SUBTOTAL(109,tbl_risk[GrossImpact])',
      "SUM(tbl_risk[[#Totals],[E2:E11]],tbl_risk['[E2:E11])",
      'SUM(AE2:AE11)',
    ];
    for (const f of same) expect([f, followBody(f, grown)]).toEqual([f, f]);
  });

  it('writes the cell at its new place with its style, drops a formula result that totals the old rows, keeps labels', () => {
    expect(movedTotalCell('<c r="A12" s="3" t="s"><v>7</v></c>', 'A302', 290, grown)).toBe('<c r="A302" s="3" t="s"><v>7</v></c>');
    expect(movedTotalCell('<c r="B12" s="3"/>', 'B302', 290, grown)).toBe('<c r="B302" s="3"/>');
    expect(movedTotalCell('<c r="D12" s="3"><f>SUBTOTAL(109,tbl_risk[GrossImpact])</f><v>30</v></c>', 'D302', 290, grown)).toBe('<c r="D302" s="3"><f>SUBTOTAL(109,tbl_risk[GrossImpact])</f></c>');
    expect(movedTotalCell('<c r="E12" t="str"><f>IF(SUM(E2:E11)&gt;0,"&lt;yes&gt;","no")</f><v>&lt;yes&gt;</v></c>', 'E302', 290, grown)).toBe(
      '<c r="E302"><f>IF(SUM(E2:E301)&gt;0,&quot;&lt;yes&gt;&quot;,&quot;no&quot;)</f></c>',
    );
  });

  it("moves a shared or array formula's range with the row", () => {
    expect(movedTotalCell('<c r="D12"><f t="shared" ref="D12:E12" si="0">SUBTOTAL(109,D2:D11)</f><v>30</v></c>', 'D302', 290, grown)).toBe(
      '<c r="D302"><f t="shared" ref="D302:E302" si="0">SUBTOTAL(109,D2:D301)</f></c>',
    );
    expect(movedTotalCell('<c r="E12"><f t="shared" si="0"/><v>550</v></c>', 'E302', 290, grown)).toBe('<c r="E302"><f t="shared" si="0"/></c>');
    expect(movedTotalCell('<c r="C12"><f t="array" ref="C12">SUM(C2:C11*1)</f><v>3</v></c>', 'C52', 40, { ...grown, newLast: 50 })).toBe('<c r="C52"><f t="array" ref="C52">SUM(C2:C51*1)</f></c>');
  });

  it('finds a total-row cell whose shared formula comes from outside the row, which cannot move alone', () => {
    const row = (...cells: string[]) => new Map(cells.map((xml, c) => [c, xml]));
    expect(sharedFromOutside(row('<c r="A12"/>', '<c r="B12"><f t="shared" ref="B12:C12" si="2">SUM(B2:B11)</f></c>', '<c r="C12"><f t="shared" si="2"/></c>'))).toBeUndefined();
    expect(sharedFromOutside(row('<c r="A12"/>', '<c r="B12"><f>SUM(B2:B11)</f></c>', '<c r="C12"><f t="shared" si="0"/><v>1</v></c>'))).toBe(2);
  });
});
