import { catalog } from '../../src/catalog';
import {
  CELL_TEXT_LIMIT,
  TRUNCATION_MARKER,
  columnSpecs,
  columnsOf,
  createRowConverter,
  isoToSerial,
  withExtraFields,
} from '../../src/sheet';

const riskColumns = columnsOf(catalog.dataset('risk').record);
const G1 = '0b5c3d1e-1111-4a4a-8b8b-000000000001';
const G2 = '0b5c3d1e-1111-4a4a-8b8b-000000000002';

function risk(i: number): Record<string, unknown> {
  return {
    Id: `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`,
    Identifier: `R-${i}`,
    Name: `Risk number ${i} about supplier continuity`,
    Description: 'A longer description of the risk, its causes and its consequences for the business.',
    Organization: 'Operations',
    Owner: 'j.doe@example.com',
    Status: 'Active',
    RiskCategory: 'Operational',
    RootCauseCategoryGuids: [G1, G2],
    GrossLikelihood: 3,
    GrossImpact: 4,
    NetLikelihood: 2,
    NetImpact: 2,
    DateIdentified: '2024-05-17',
    LastReviewDate: null,
    ControlGuids: [G1],
    FrameworkDimensions: ['ISO 27001', 'DORA'],
  };
}

describe('column model', () => {
  it('follows the record schema order and types the columns from the catalogue', () => {
    expect(riskColumns.map((c) => c.name).slice(0, 3)).toEqual(['Id', 'Identifier', 'Name']);
    const specs = columnSpecs(riskColumns);
    expect(specs.find((c) => c.name === 'DateIdentified')!.format).toBe('date');
    expect(specs.find((c) => c.name === 'GrossImpact')!.format).toBe('number');
    expect(specs.find((c) => c.name === 'ControlGuids')!.format).toBe('text');
    expect(columnSpecs(columnsOf(catalog.dataset('incidents').record)).find((c) => c.name === 'DateRegistered')!.format).toBe('datetime');
  });

  it('appends unknown fields at the right in first-seen order, typed by their first value', () => {
    const extended = withExtraFields(riskColumns, [
      { ...risk(1), Zeta: null },
      { ...risk(2), Zeta: 5, Alpha: 'x' },
      { ...risk(3), Beta: true },
    ]);
    expect(extended.slice(riskColumns.length).map((c) => [c.name, c.kind, c.known])).toEqual([
      ['Zeta', 'number', false],
      ['Alpha', 'text', false],
      ['Beta', 'boolean', false],
    ]);
  });

  it('returns the same model when no record carries an unknown field', () => {
    expect(withExtraFields(riskColumns, [risk(1), risk(2)])).toBe(riskColumns);
  });
});

describe('record to row', () => {
  it('writes dates as serials, numbers as numbers, joins GUID lists and leaves null empty', () => {
    const row = createRowConverter(riskColumns).convert(risk(7));
    const at = (name: string) => row[riskColumns.findIndex((c) => c.name === name)];
    expect(at('DateIdentified')).toBe(isoToSerial('2024-05-17'));
    expect(at('GrossImpact')).toBe(4);
    expect(at('RootCauseCategoryGuids')).toBe(`${G1}; ${G2}`);
    expect(at('FrameworkDimensions')).toBe('ISO 27001; DORA');
    expect(at('LastReviewDate')).toBeNull();
    expect(row).toHaveLength(riskColumns.length);
  });

  it('flattens nested values to compact JSON text', () => {
    const cols = columnsOf(catalog.dataset('riskcustomfields').record);
    const row = createRowConverter(cols).convert({ RiskGuid: G1, CustomFields: [{ Name: 'Impact area', Value: 'IT' }] });
    expect(row[1]).toBe('[{"Name":"Impact area","Value":"IT"}]');
  });

  it('keeps text and numbers-as-text in text columns as strings', () => {
    const row = createRowConverter(riskColumns).convert({ ...risk(1), Identifier: '=HYPERLINK("x")', Name: '00123', Organization: 42 });
    expect(row[1]).toBe('=HYPERLINK("x")');
    expect(row[2]).toBe('00123');
    expect(row[4]).toBe('42');
  });

  it('quotes formula-looking text that lands in a column that is not text', () => {
    const cols = withExtraFields(riskColumns, [{ Extra: 1 }]);
    const row = createRowConverter(cols).convert({ ...risk(1), Extra: '=1+1', DateIdentified: '-oops' });
    expect(row[cols.length - 1]).toBe("'=1+1");
    expect(row[riskColumns.findIndex((c) => c.name === 'DateIdentified')]).toBe("'-oops");
  });

  it('cuts text to the cell limit with a marker and counts it', () => {
    const conv = createRowConverter(riskColumns);
    const row = conv.convert({ ...risk(1), Description: 'x'.repeat(40_000) });
    const cell = row[3] as string;
    expect(cell).toHaveLength(CELL_TEXT_LIMIT);
    expect(cell.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(conv.truncated).toBe(1);
  });

  // How fast this runs is `npm run bench load`'s business (a timed test fails on a busy machine).
  it('converts many records with the same columns and no extra fields', () => {
    const records = Array.from({ length: 20_000 }, (_, i) => risk(i));
    const conv = createRowConverter(riskColumns);
    expect(withExtraFields(riskColumns, records)).toBe(riskColumns);
    const rows = records.map((r) => conv.convert(r));
    expect(rows).toHaveLength(20_000);
    expect(rows[19_999]).toEqual(conv.convert(risk(19_999)));
  });
});
