import { catalog } from '../../../src/catalog';
import { choiceSummary, chosenFields, columnItems, moved, toggled } from '../../../src/taskpane/datasets/columns';

describe("the Load panel's column choice", () => {
  const initial = columnItems(catalog.dataset('thirdpartycustomfieldvalues').record);

  it('lists the fields as the table shows them, the record key marked as always loaded', () => {
    expect(initial.map((i) => [i.header, i.key])).toEqual([
      ['Value', false],
      ['Third party GUID', true],
      ['Custom field ID', true],
    ]);
    expect(choiceSummary(initial, initial)).toBe('All 3 columns');
    expect(chosenFields(initial, initial)).toBeUndefined();
  });

  it('gives the load the shown fields in order and the ones left out; the key cannot be unticked', () => {
    const risk = columnItems(catalog.dataset('risk').record);
    let items = toggled(risk, 'Description');
    items = toggled(items, 'Id'); // the key: unchanged
    items = moved(moved(items, 'Status', -1), 'Status', -1);
    expect(items.find((i) => i.field === 'Id')!.shown).toBe(true);
    expect(choiceSummary(items, risk)).toBe('16 of 17 columns, your order');
    const choice = chosenFields(items, risk)!;
    expect(choice.leftOut).toEqual(['Description']);
    expect(choice.columns.slice(0, 4)).toEqual(['Identifier', 'Name', 'Status', 'Organization']);
    expect(moved(items, 'Identifier', -1)).toEqual(items);
  });
});
