import { records } from '../../src/catalog';
import { checkRecords, compileRecord } from '../../src/client/record-check';
import { z } from 'zod';

const GUID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

describe('record check compiled from the catalogue schema', () => {
  it('compiles every record schema in the catalogue (none falls back to zod per record)', () => {
    for (const [name, schema] of Object.entries(records))
      expect([name, compileRecord(schema as z.ZodType) !== null]).toEqual([name, true]);
  });

  it('accepts and refuses exactly what zod accepts and refuses, field value by field value', () => {
    const values: unknown[] = [
      undefined,
      null,
      '',
      'text',
      GUID,
      GUID.toUpperCase(),
      `${GUID}x`,
      '2024-03-01',
      '2024-03-01T10:00:00Z',
      '01/03/2024',
      0,
      1.5,
      -3,
      true,
      false,
      [],
      [GUID],
      ['a'],
      [GUID, 1],
      {},
      { a: 1 },
    ];
    const fast = compileRecord(records.riskV3)!;
    for (const field of Object.keys(records.riskV3.shape)) {
      for (const v of values) {
        const record = { [field]: v };
        expect([field, v, fast(record)]).toEqual([field, v, records.riskV3.safeParse(record).success]);
      }
    }
    for (const v of [null, [], 'x', 3]) expect(fast(v)).toBe(records.riskV3.safeParse(v).success);
  });

  it('keeps fields the schema does not know, on the same objects', () => {
    const input = [{ Id: GUID, Brand: 'new' }];
    const result = checkRecords(records.riskV3, input, 0);
    expect(result).toEqual({ ok: true, records: input });
    if (result.ok) expect(result.records[0]).toBe(input[0]);
  });

  it('names the first bad record by its position in the dataset and the field by its path', () => {
    const result = checkRecords(records.riskV3, [{ Id: GUID }, { Id: GUID, ControlGuids: [GUID, 'x'] }], 500);
    expect(result).toEqual({
      ok: false,
      problem: { index: 501, field: 'ControlGuids[1]', message: 'expected a GUID' },
    });
  });

  it('leaves a schema it cannot compile to zod, with the same answers', () => {
    const schema = z.looseObject({ Score: z.number().min(0) });
    expect(compileRecord(schema)).toBeNull();
    expect(checkRecords(schema, [{ Score: 1 }], 0).ok).toBe(true);
    expect(checkRecords(schema, [{ Score: -1 }], 0)).toMatchObject({
      ok: false,
      problem: { index: 0, field: 'Score' },
    });
  });
});
