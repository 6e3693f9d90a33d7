import {
  boundOperation,
  decodeRecord,
  encodeRequest,
  formatDate,
  formFields,
  indexList,
  parseDate,
  patternIn,
  readForm,
  urlencodedText,
  type BoundDataset,
  type BoundOperation,
  type Encoding,
} from '../../src/catalog';

/**
 * Custom field answers, select options, dates and forms as a customer's file documents them
 * (catalog/placement.ts): nothing typed is lost, and what is sent reads back as what was typed.
 */
const FIELD = '0f8fad5b-d9cb-469f-a165-70867728950e';
const DATE_FIELD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const OPT_A = '16fd2706-8baf-433b-82eb-8c7fada847da';
const OPT_B = '11111111-1111-4111-8111-111111111111';

const lists = {
  thirdpartycustomfields: indexList([
    { id: FIELD, name: 'Services provided' },
    { id: OPT_A, name: 'Cloud hosting' },
    { id: OPT_B, name: 'Payroll' },
  ]),
};

function op(encoding: Encoding, extra: Partial<BoundOperation> = {}): BoundOperation {
  return boundOperation.parse({
    kind: 'operation',
    method: 'POST',
    path: '/vendors',
    file: { path: '/vendors', pointer: '#/paths/~1vendors/post' },
    how: 'name',
    placements: [{ field: 'CustomFields', in: 'body', at: '/answers', fileName: 'answers', encoding, how: 'name' }],
    extras: [],
    answer: null,
    ...extra,
  });
}

/** A multi-select with two options chosen and a date answer, as the write-back makes them. */
const ANSWERS = [
  { CustomFieldGuid: FIELD, Value: OPT_A },
  { CustomFieldGuid: FIELD, Value: OPT_B },
  { CustomFieldGuid: DATE_FIELD, DateValue: '2026-02-14' },
];

const body = (e: Encoding) => {
  const r = encodeRequest(op(e), { CustomFields: ANSWERS }, lists);
  return r.ok ? (r.request.body as { answers: unknown }).answers : r.problems.map((p) => p.code);
};

const readBack = (e: Encoding, answers: unknown) =>
  decodeRecord({ ...op(e), kind: 'dataset', method: 'GET', records: '' } as unknown as BoundDataset, { answers }).CustomFields;

describe('custom field answers as a map keyed by the field GUID', () => {
  it('never keeps only the last option of a multi-select: a map of single values refuses two answers', () => {
    expect(body({ kind: 'custom-fields', style: 'map' })).toEqual(['one-value']);
  });

  it('sends the options as a list where the value takes one, and reads them back one entry each', () => {
    const e: Encoding = { kind: 'custom-fields', style: 'map', multi: 'array' };
    const sent = body(e);
    expect(sent).toEqual({ [FIELD]: [OPT_A, OPT_B], [DATE_FIELD]: ['2026-02-14'] });
    expect(readBack(e, sent)).toEqual([
      { CustomFieldGuid: FIELD, Value: OPT_A },
      { CustomFieldGuid: FIELD, Value: OPT_B },
      { CustomFieldGuid: DATE_FIELD, Value: '2026-02-14' },
    ]);
  });

  it('joins them with the separator the file gives (by option name where it asks), and splits them back', () => {
    const e: Encoding = { kind: 'custom-fields', style: 'map', multi: 'join', separator: '|', options: 'name', optionsList: 'thirdpartycustomfields' };
    const sent = body(e);
    expect(sent).toEqual({ [FIELD]: 'Cloud hosting|Payroll', [DATE_FIELD]: '2026-02-14' });
    expect((readBack(e, sent) as unknown[]).slice(0, 2)).toEqual([
      { CustomFieldGuid: FIELD, Value: 'Cloud hosting' },
      { CustomFieldGuid: FIELD, Value: 'Payroll' },
    ]);
  });

  it('refuses an option whose name it cannot find where the file wants names, rather than send the GUID', () => {
    const e: Encoding = { kind: 'custom-fields', style: 'map', multi: 'array', options: 'name', optionsList: 'incidenttypecustomfields' };
    expect(body(e)).toEqual(['no-list', 'no-list']);
  });
});

describe('custom field answers as entries', () => {
  it('with Values: [string], one entry per field holding every option (a date as a list of one)', () => {
    const e: Encoding = { kind: 'custom-fields', style: 'entries', guidAt: '/CustomFieldGuid', valueAt: '/Values', multi: 'array' };
    expect(body(e)).toEqual([
      { CustomFieldGuid: FIELD, Values: [OPT_A, OPT_B] },
      { CustomFieldGuid: DATE_FIELD, Values: ['2026-02-14'] },
    ]);
  });

  it('joined in one text value, the date in its own slot as a date-time where the file says so', () => {
    const e: Encoding = { kind: 'custom-fields', style: 'entries', guidAt: '/id', valueAt: '/value', dateAt: '/date', multi: 'join', dateFormat: 'date-time' };
    const sent = body(e);
    expect(sent).toEqual([
      { id: FIELD, value: `${OPT_A}; ${OPT_B}` },
      { id: DATE_FIELD, date: '2026-02-14T00:00:00Z' },
    ]);
    expect(readBack(e, sent)).toEqual([
      { CustomFieldGuid: FIELD, Value: OPT_A },
      { CustomFieldGuid: FIELD, Value: OPT_B },
      { CustomFieldGuid: DATE_FIELD, DateValue: '2026-02-14T00:00:00Z' },
    ]);
  });

  it('repeated, one entry per option, only where the encoding says so; a date in the file\'s pattern', () => {
    const e: Encoding = { kind: 'custom-fields', style: 'entries', guidAt: '/id', valueAt: '/value', multi: 'repeat', datePattern: 'dd-MM-yyyy' };
    expect(body(e)).toEqual([
      { id: FIELD, value: OPT_A },
      { id: FIELD, value: OPT_B },
      { id: DATE_FIELD, value: '14-02-2026' },
    ]);
  });
});

describe('date patterns', () => {
  it('are found in the words of a description or a format, never for ISO', () => {
    expect(patternIn('Date in dd-MM-yyyy format')).toBe('dd-MM-yyyy');
    expect(patternIn('format: dd/MM/yyyy')).toBe('dd/MM/yyyy');
    expect(patternIn('When it happened (dd.MM.yyyy HH:mm).')).toBe('dd.MM.yyyy HH:mm');
    expect(patternIn('MM/dd/yyyy')).toBe('MM/dd/yyyy');
    expect(patternIn('A date, yyyy-MM-dd')).toBeUndefined();
    expect(patternIn('The day the incident was detected.')).toBeUndefined();
  });

  it('write and read a date both ways; a day that does not exist is not a date', () => {
    expect(formatDate('2026-03-02', 'dd-MM-yyyy')).toBe('02-03-2026');
    expect(formatDate('2026-03-02T09:05:00', "d/M/yy 'at' HH:mm")).toBe('2/3/26 at 09:05');
    expect(parseDate('02-03-2026', 'dd-MM-yyyy')).toBe('2026-03-02');
    expect(parseDate('02.03.2026 09:05', 'dd.MM.yyyy HH:mm')).toBe('2026-03-02T09:05:00');
    expect(parseDate('31-02-2026', 'dd-MM-yyyy')).toBeUndefined();
    expect(parseDate('2026-03-02', 'dd-MM-yyyy')).toBeUndefined();
  });

  it('are what a date placement sends', () => {
    const dated = op({ kind: 'plain' }, {
      placements: [{ field: 'StartDate', in: 'body', at: '/start', fileName: 'start', encoding: { kind: 'date', format: 'date', pattern: 'dd-MM-yyyy' }, how: 'name' }],
    });
    const r = encodeRequest(dated, { StartDate: '2026-01-31' }, {});
    expect(r.ok && r.request.body).toEqual({ start: '31-01-2026' });
  });
});

describe('form bodies', () => {
  it('write a list as the field repeated and read back the same fields, urlencoded and multipart', () => {
    const fields = formFields({ Url: 'https://x.example/a b', Tags: ['a', 'b'], Note: null, Done: true });
    expect(fields).toEqual([
      { name: 'Url', value: 'https://x.example/a b' },
      { name: 'Tags', value: 'a' },
      { name: 'Tags', value: 'b' },
      { name: 'Note', value: '' },
      { name: 'Done', value: 'true' },
    ]);
    const text = urlencodedText(fields);
    expect(readForm(new TextEncoder().encode(text), 'application/x-www-form-urlencoded')).toEqual({ ok: true, fields });
    const multipart = new TextEncoder().encode(
      '--xy\r\nContent-Disposition: form-data; name="Url"\r\n\r\nhttps://x.example\r\n' +
        '--xy\r\nContent-Disposition: form-data; name="file"; filename="é.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--xy--\r\n',
    );
    expect(readForm(multipart, 'multipart/form-data; boundary=xy')).toEqual({
      ok: true,
      fields: [
        { name: 'Url', value: 'https://x.example' },
        { name: 'file', file: { filename: 'é.txt', base64: 'aGk=' } },
      ],
    });
  });

  it('mark the encoded request as the binding\'s form', () => {
    const form = op({ kind: 'plain' }, {
      form: 'urlencoded',
      placements: [{ field: 'Url', in: 'body', at: '/link', fileName: 'link', encoding: { kind: 'plain' }, how: 'name' }],
    });
    const r = encodeRequest(form, { Url: 'https://x.example' }, {});
    expect(r.ok && r.request).toMatchObject({ form: 'urlencoded', body: { link: 'https://x.example' } });
  });
});
