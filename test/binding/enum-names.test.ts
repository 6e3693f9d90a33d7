/**
 * Reading what an enum's values mean, in the ways real files say it (src/binding/enum-names.ts), and the
 * encodings made from it: names to the file's values and back, numbers as JSON numbers, values only the
 * file has offered by name, and nothing guessed where the file names nothing.
 */
import { encodeRequest, offeredValues, recordDecoder, type BoundDataset, type BoundOperation } from '../../src/catalog';
import { enumEncoding } from '../../src/binding/encoding';
import { enumNames } from '../../src/binding/enum-names';
import { parseOverrides } from '../../src/binding/overrides';
import { normalize } from '../../src/binding/schema';

const UNITS = ['Months', 'Weeks', 'Days', 'None'];
const NAMED = { '0': 'None', '1': 'Days', '2': 'Weeks', '3': 'Months' };

describe('enumNames', () => {
  test.each([
    ['Swashbuckle XML comment, one per line', 'Notice period unit\n\n0 = None\n\n1 = Days\n\n2 = Weeks\n\n3 = Months'],
    ['comma separated', '0 = None, 1 = Days, 2 = Weeks, 3 = Months'],
    ['colons', '0: None; 1: Days; 2: Weeks; 3: Months'],
    ['name first', 'None = 0\nDays = 1\nWeeks = 2\nMonths = 3'],
    ['an HTML list with explanations', '<p>Possible values:</p><ul><li><b>0</b> - None (no notice)</li><li><b>1</b> - Days</li><li><b>2</b> - Weeks</li><li><b>3</b> - Months</li></ul>'],
    ['a title before the pairs', 'Unit of the notice period: 0 = None; 1 = Days; 2 = Weeks; 3 = Months'],
  ])('reads a description: %s', (_, description) => {
    expect(enumNames({ description }, [0, 1, 2, 3])).toEqual(NAMED);
  });

  test('x-enumNames (NSwag), x-enum-varnames (openapi-generator), x-ms-enum (Azure)', () => {
    expect(enumNames({ 'x-enumNames': ['None', 'Days', 'Weeks', 'Months'] }, [0, 1, 2, 3])).toEqual(NAMED);
    expect(enumNames({ 'x-enum-varnames': ['NONE', 'DAYS'] }, [0, 10])).toEqual({ '0': 'NONE', '10': 'DAYS' });
    const msEnum = { values: [{ value: 'M', name: 'Months' }, { value: 'D', name: 'Days', description: 'calendar days' }] };
    expect(enumNames({ 'x-ms-enum': msEnum }, ['M', 'D'])).toEqual({ M: 'Months', D: 'Days' });
  });

  test('names nothing where the file says nothing, and never takes words for names of word values', () => {
    expect(enumNames({ description: 'The unit.' }, [0, 1, 2, 3])).toBeUndefined();
    expect(enumNames({ description: 'MONTHS - counted in calendar months' }, ['MONTHS', 'DAYS'])).toBeUndefined();
    expect(enumNames({ 'x-enumNames': ['None', 'Days'] }, [0, 1, 2])).toBeUndefined(); // not one name per value
  });
});

describe('an integer enum by meaning', () => {
  const schema = normalize({ type: 'integer', format: 'int32', enum: [0, 1, 2, 3, 4], description: '0 = None, 1 = Days, 2 = Weeks, 3 = Months, 4 = Years' });
  const e = enumEncoding(UNITS, schema);

  test("maps the catalogue's values and names the file's own (Years)", () => {
    expect(e).toEqual({ kind: 'enum', values: ['0', '1', '2', '3', '4'], map: { Months: '3', Weeks: '2', Days: '1', None: '0', Years: '4' }, as: 'integer' });
    expect(offeredValues(UNITS, e)).toEqual([...UNITS, 'Years']);
  });

  const op: BoundOperation = {
    kind: 'operation', method: 'POST', path: '/contracts', file: { path: '/contracts', pointer: '' }, how: 'name', answer: null, extras: [],
    placements: [{ field: 'NoticePeriodUnit', in: 'body', at: '/unit', fileName: 'unit', encoding: e, how: 'name' }],
  };

  test('sends JSON numbers, by name or by the number itself, and refuses what the file does not have', () => {
    const body = (v: string) => {
      const r = encodeRequest(op, { NoticePeriodUnit: v }, {});
      return r.ok ? r.request.body : r.problems.map((p) => p.message);
    };
    expect([body('Months'), body('years'), body('3')]).toEqual([{ unit: 3 }, { unit: 4 }, { unit: 3 }]);
    expect(body('Decades')).toEqual([expect.stringContaining('"Decades" is not one of Months, Weeks, Days, None, Years')]);
  });

  test('reads the numbers back as the names', () => {
    const ds: BoundDataset = { ...op, kind: 'dataset', method: 'GET', records: '' };
    expect(recordDecoder(ds, {})({ unit: 3 })).toMatchObject({ NoticePeriodUnit: 'Months' });
    expect(recordDecoder(ds, {})({ unit: 4 })).toMatchObject({ NoticePeriodUnit: 'Years' });
  });

  test('an unnamed integer enum maps nothing by guess', () => {
    expect(enumEncoding(UNITS, normalize({ type: 'integer', enum: [0, 1, 2, 3] }))).toEqual({ kind: 'enum', values: ['0', '1', '2', '3'], map: {}, as: 'integer' });
  });
});

describe('the overrides line map', () => {
  test('reads a catalogue value and the file value as JSON', () => {
    expect(parseOverrides('o', 'map contract-create NoticePeriodUnit "Months" = 3  # the file says 3\nmap task-score-status Status "Ready for review" = "RFR"')).toMatchObject([
      { kind: 'map', id: 'contract-create', field: 'NoticePeriodUnit', value: 'Months', to: 3 },
      { kind: 'map', id: 'task-score-status', field: 'Status', value: 'Ready for review', to: 'RFR' },
    ]);
  });
  test('refuses a line it cannot read, naming the file and line', () => {
    expect(() => parseOverrides('o', 'map contract-create NoticePeriodUnit "Months" = three')).toThrow(/^o:1: the values are JSON/);
    expect(() => parseOverrides('o', 'map contract-create NoticePeriodUnit "Months" = [3]')).toThrow(/^o:1: the catalogue value is text/);
  });
});

test('a notice period as {length, unit} with an integer unit: the unit by meaning, as a number, read back', () => {
  const op: BoundOperation = {
    kind: 'operation', method: 'POST', path: '/contracts', file: { path: '/contracts', pointer: '' }, how: 'name', answer: null, extras: [],
    placements: [{
      field: 'NoticePeriod', in: 'body', at: '/noticePeriod', fileName: 'noticePeriod', how: 'name',
      encoding: { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'object', valueAt: '/length', unitAt: '/unit', units: { None: '0', Days: '1', Weeks: '2', Months: '3' }, unitAs: 'integer' },
    }],
  };
  const r = encodeRequest(op, { NoticePeriod: 3, NoticePeriodUnit: 'Months' }, {});
  expect(r.ok && r.request.body).toEqual({ noticePeriod: { length: 3, unit: 3 } });
  const bad = encodeRequest(op, { NoticePeriod: 3, NoticePeriodUnit: 'Years' }, {});
  expect(bad.ok ? [] : bad.problems.map((p) => p.field)).toEqual(['NoticePeriodUnit']);
  const ds: BoundDataset = { ...op, kind: 'dataset', method: 'GET', records: '' };
  expect(recordDecoder(ds, {})({ noticePeriod: { length: 2, unit: 2 } })).toMatchObject({ NoticePeriod: 2, NoticePeriodUnit: 'Weeks' });
});
