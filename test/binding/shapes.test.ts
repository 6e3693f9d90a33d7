import { bodies, records, toJsonSchema, toWire } from '../../src/catalog';
import { mapShape } from '../../src/binding/shapes';
import { tokens } from '../../src/binding/match';

const G = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('property maps from a file schema', () => {
  it('matches snake_case and Guid-suffixed names, and maps enum spellings', () => {
    const file = {
      allOf: [
        {
          type: 'object',
          properties: {
            third_party: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } },
          },
        },
        {
          type: 'object',
          required: ['name', 'notice_period_unit'],
          properties: {
            name: { type: 'string' },
            notice_period_unit: { type: 'string', enum: ['MONTHS', 'WEEKS', 'DAYS', 'NONE'] },
            start_date: { type: 'string', format: 'date-time' },
          },
        },
      ],
    };
    const m = mapShape(toJsonSchema(bodies.createContract), file, 'body');
    expect(m.shape.properties).toMatchObject({
      ThirdPartyGuid: 'third_party.id',
      Name: 'name',
      NoticePeriodUnit: 'notice_period_unit',
      StartDate: 'start_date',
    });
    expect(m.shape.enums.NoticePeriodUnit).toEqual({
      values: ['MONTHS', 'WEEKS', 'DAYS', 'NONE'],
      map: { Months: 'MONTHS', Weeks: 'WEEKS', Days: 'DAYS', None: 'NONE' },
    });
    expect(toWire(m.shape, { ThirdPartyGuid: G, Name: 'c', NoticePeriodUnit: 'Days' })).toEqual({
      third_party: { id: G },
      name: 'c',
      notice_period_unit: 'DAYS',
    });
    expect(m.differences.map((d) => d.message)).toEqual(
      expect.arrayContaining([
        'StartDate: date in the catalogue, date-time in the file (start_date)',
        'Services: the file has no such property; the value is not sent',
      ]),
    );
  });

  it('reads a reference object by its name for a name field', () => {
    const file = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          Organization: {
            type: 'object',
            properties: { Guid: { type: 'string' }, Name: { type: 'string' } },
          },
        },
      },
    };
    const m = mapShape(toJsonSchema(records.control), file, 'record');
    expect(m.shape.properties.Organization).toBe('Organization.Name');
  });

  it('tokenises names in any casing, singular, with adjacent words joined', () => {
    const t = tokens('ThirdParties_Create', '/api/thirdpartydata/v1/third_parties/{guid}');
    for (const w of ['third', 'party', 'thirdparty', 'create']) expect(t.has(w)).toBe(true);
    for (const w of ['api', 'data', 'guid', 'thirdpartydata', 'parties']) expect(t.has(w)).toBe(false);
  });
});
