import {
  bodyProblems,
  boundOf,
  catalog,
  columnsOf,
  decodeRecord,
  encodeRequest,
  indexList,
  listsOf,
  mappingRows,
  readCreatedId,
  recordsOf,
  requestTarget,
  boundOperation,
  type BoundDataset,
  type BoundOperation,
  type Placement,
} from '../../src/catalog';

const G1 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const G2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const G3 = '16fd2706-8baf-433b-82eb-8c7fada847da';

const lists = {
  organizations: indexList([
    { id: G1, name: 'Finance' },
    { id: G2, name: 'Legal' },
    { id: G3, name: 'Twin' },
    { id: '11111111-1111-4111-8111-111111111111', name: 'Twin' },
  ]),
};

const at = (field: string, pointer: string, encoding: Placement['encoding'], extra: Partial<Placement> = {}): Placement => ({
  field,
  in: 'body',
  at: pointer,
  fileName: pointer.split('/').pop()!,
  encoding,
  how: 'name',
  ...extra,
});

function op(placements: Placement[], more: Partial<BoundOperation> = {}): BoundOperation {
  return boundOperation.parse({
    kind: 'operation',
    method: 'POST',
    path: '/orgs/{orgId}/incidents',
    file: { path: '/api/orgs/{orgId}/incidents', pointer: '#/paths/x/post' },
    how: 'name',
    placements,
    extras: [],
    answer: { in: 'body', at: '/data/guid' },
    ...more,
  });
}

const body = (o: BoundOperation, values: Record<string, unknown>) => {
  const r = encodeRequest(o, values, lists);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.request.body;
};
const problems = (o: BoundOperation, values: Record<string, unknown>) => {
  const r = encodeRequest(o, values, lists);
  if (r.ok) throw new Error(`expected problems, got ${JSON.stringify(r.request)}`);
  return r.problems;
};

const pathParam = (field: string, name: string): Placement => ({
  field,
  in: 'path',
  at: name,
  fileName: name,
  encoding: { kind: 'plain' },
  how: 'name',
  required: true,
});

describe('encodeRequest: every encoding', () => {
  const withPath = (ps: Placement[]) => op([pathParam('{guid}', 'orgId'), ...ps]);
  const g = { '{guid}': G1 };

  test('plain: nested pointers, conversions, arrays', () => {
    const o = withPath([
      at('Name', '/incident/title', { kind: 'plain' }),
      at('Score', '/score', { kind: 'plain', as: 'string' }),
      at('Count', '/count', { kind: 'plain', as: 'integer' }),
      at('Flag', '/flag', { kind: 'plain', as: 'boolean' }),
      at('Tags', '/tags', { kind: 'plain', many: true }),
      at('One', '/ones', { kind: 'plain', many: true }),
    ]);
    expect(body(o, { ...g, Name: 'Leak', Score: 3, Count: '4', Flag: 'yes', Tags: ['a', 'b'], One: 'x' })).toEqual({
      incident: { title: 'Leak' },
      score: '3',
      count: 4,
      flag: true,
      tags: ['a', 'b'],
      ones: ['x'],
    });
    expect(problems(o, { ...g, Count: '4.5' })[0]).toMatchObject({ field: 'Count', code: 'bad-number' });
    expect(problems(o, { ...g, Flag: 'maybe' })[0]).toMatchObject({ field: 'Flag', code: 'bad-value' });
  });

  test('guid: names looked up, GUIDs passed, unknown and twin names refused, no list says type the GUID', () => {
    const o = withPath([
      at('Org', '/orgGuid', { kind: 'guid', list: 'organizations', value: 'name' }),
      at('Orgs', '/orgGuids', { kind: 'guid', list: 'organizations', value: 'name', many: true }),
      at('Person', '/userGuid', { kind: 'guid', list: 'users', value: 'name' }),
      at('Raw', '/raw', { kind: 'guid', value: 'guid' }),
    ]);
    expect(body(o, { ...g, Org: 'finance ', Orgs: ['Legal', G3], Raw: G2 })).toEqual({
      orgGuid: G1,
      orgGuids: [G2, G3],
      raw: G2,
    });
    expect(problems(o, { ...g, Org: 'Nowhere' })[0]).toMatchObject({ field: 'Org', code: 'unknown-name' });
    expect(problems(o, { ...g, Org: 'Twin' })[0]).toMatchObject({ field: 'Org', code: 'ambiguous-name' });
    const noList = problems(o, { ...g, Person: 'Ann' })[0]!;
    expect(noList).toMatchObject({ field: 'Person', code: 'no-list' });
    expect(noList.message).toMatch(/type its GUID/);
    expect(problems(o, { ...g, Raw: 'not-a-guid' })[0]).toMatchObject({ field: 'Raw', code: 'not-a-guid' });
    expect(problems(o, { ...g, Org: ['Finance', 'Legal'] })[0]).toMatchObject({ code: 'one-value' });
  });

  test('ref: {Guid, Name} objects, {id} objects, nested keys and arrays of them', () => {
    const o = withPath([
      at('ReportingOrganization', '/reportingOrganisation', {
        kind: 'ref',
        list: 'organizations',
        value: 'name',
        idAt: '/Guid',
        nameAt: '/Name',
      }),
      at('Classification', '/classification', { kind: 'ref', list: 'organizations', value: 'guid', idAt: '/id' }),
      at('Owner', '/owner', { kind: 'ref', value: 'guid', idAt: '/ref/id' }),
      at('AffectedOrganizations', '/affected', {
        kind: 'ref',
        list: 'organizations',
        value: 'name',
        idAt: '/Guid',
        nameAt: '/Name',
        many: true,
      }),
    ]);
    expect(
      body(o, { ...g, ReportingOrganization: 'Finance', Classification: G2, Owner: G3, AffectedOrganizations: ['Legal', G1] }),
    ).toEqual({
      reportingOrganisation: { Guid: G1, Name: 'Finance' },
      classification: { id: G2 },
      owner: { ref: { id: G3 } },
      affected: [
        { Guid: G2, Name: 'Legal' },
        { Guid: G1, Name: 'Finance' },
      ],
    });
  });

  test('date: date and date-time formats; not a date is a problem', () => {
    const o = withPath([
      at('DateDetected', '/detected', { kind: 'date', format: 'date-time' }),
      at('StartDate', '/start', { kind: 'date', format: 'date' }),
      at('EndDate', '/end', { kind: 'date', format: 'date-time' }),
    ]);
    expect(body(o, { ...g, DateDetected: '2026-03-01', StartDate: '2026-03-01T10:00:00Z', EndDate: '2026-03-02T10:30:00+01:00' })).toEqual({
      detected: '2026-03-01T00:00:00Z',
      start: '2026-03-01',
      end: '2026-03-02T10:30:00+01:00',
    });
    expect(problems(o, { ...g, StartDate: '1 March' })[0]).toMatchObject({ field: 'StartDate', code: 'bad-date' });
  });

  test("enum: the file's spelling, its extra values, anything else refused", () => {
    const o = withPath([
      at('Status', '/state', { kind: 'enum', values: ['OPEN', 'CLOSED', 'PARKED'], map: { Open: 'OPEN', Closed: 'CLOSED' } }),
    ]);
    expect(body(o, { ...g, Status: 'Open' })).toEqual({ state: 'OPEN' });
    expect(body(o, { ...g, Status: 'PARKED' })).toEqual({ state: 'PARKED' });
    expect(problems(o, { ...g, Status: 'Gone' })[0]).toMatchObject({ field: 'Status', code: 'not-in-list' });
  });

  test('number-unit: joined as text, as an object, as an ISO duration; the unit field lands with it', () => {
    const units = { Months: 'MONTHS', Weeks: 'WEEKS', Days: 'DAYS' };
    const text = withPath([at('NoticePeriod', '/notice', { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'text', units: {} })]);
    expect(body(text, { ...g, NoticePeriod: 3, NoticePeriodUnit: 'Months' })).toEqual({ notice: '3 Months' });
    const obj = withPath([
      at('NoticePeriod', '/notice', { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'object', valueAt: '/amount', unitAt: '/unit', units }),
    ]);
    expect(body(obj, { ...g, NoticePeriod: 2, NoticePeriodUnit: 'Weeks' })).toEqual({ notice: { amount: 2, unit: 'WEEKS' } });
    const iso = withPath([at('NoticePeriod', '/notice', { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'iso-duration', units: {} })]);
    expect(body(iso, { ...g, NoticePeriod: 30, NoticePeriodUnit: 'Days' })).toEqual({ notice: 'P30D' });
    expect(columnsOf(iso).fields).toEqual(['{guid}', 'NoticePeriod', 'NoticePeriodUnit']);
  });

  test('custom-fields: entries with their own keys, dates at their own key, a map by GUID', () => {
    const answers = [
      { CustomFieldGuid: G1, Value: 3 },
      { CustomFieldGuid: G2, DateValue: '2026-01-02' },
    ];
    const entries = withPath([
      at('CustomFields', '/customFieldValues', {
        kind: 'custom-fields',
        style: 'entries',
        guidAt: '/field/Guid',
        valueAt: '/value',
        dateAt: '/dateValue',
        valueAs: 'string',
      }),
    ]);
    expect(body(entries, { ...g, CustomFields: answers })).toEqual({
      customFieldValues: [
        { field: { Guid: G1 }, value: '3' },
        { field: { Guid: G2 }, dateValue: '2026-01-02' },
      ],
    });
    const map = withPath([at('CustomFields', '/custom', { kind: 'custom-fields', style: 'map' })]);
    expect(body(map, { ...g, CustomFields: answers })).toEqual({ custom: { [G1]: 3, [G2]: '2026-01-02' } });
  });

  test('objects: list entries field by field; a field of an entry with no place is a problem', () => {
    const o = withPath([
      at('Hyperlinks', '/links', {
        kind: 'objects',
        fields: [{ field: 'Url', at: '/href', fileName: 'href', encoding: { kind: 'plain' } }],
      }),
    ]);
    expect(body(o, { ...g, Hyperlinks: [{ Url: 'https://a' }] })).toEqual({ links: [{ href: 'https://a' }] });
    expect(problems(o, { ...g, Hyperlinks: [{ Url: 'https://a', Description: 'typed' }] })[0]).toMatchObject({
      field: 'Hyperlinks.Description',
      code: 'not-placed',
    });
  });
});

describe('encodeRequest: method, path, query, extras, nothing dropped', () => {
  const contract = op(
    [
      pathParam('ThirdPartyGuid', 'id'),
      { field: 'Name', in: 'query', at: 'name', fileName: 'name', encoding: { kind: 'plain' }, how: 'name' },
      at('Services', '/services', { kind: 'plain', many: true }),
    ],
    {
      method: 'PUT',
      path: '/vendors/{id}/agreements/{kind}',
      extras: [
        {
          key: 'path:kind',
          header: 'kind',
          in: 'path',
          at: 'kind',
          fileName: 'kind',
          cell: 'text',
          values: ['master', 'sub'],
          encoding: { kind: 'enum', values: ['master', 'sub'], map: {} },
          required: true,
          default: 'master',
        },
        {
          key: 'body:/regulator',
          header: 'regulator (GUID)',
          in: 'body',
          at: '/regulator',
          fileName: 'regulator',
          cell: 'guid',
          encoding: { kind: 'ref', value: 'guid', idAt: '/id' },
          required: true,
        },
      ],
    },
  );

  test('the bound method, every path parameter filled and escaped, query parameters, extras and defaults', () => {
    const r = encodeRequest(contract, { ThirdPartyGuid: 'a b', Name: 'Cloud & co', Services: ['x'], 'body:/regulator': G1 }, lists);
    expect(r).toEqual({
      ok: true,
      request: {
        method: 'PUT',
        path: '/vendors/a%20b/agreements/master',
        query: [['name', 'Cloud & co']],
        body: { services: ['x'], regulator: { id: G1 } },
      },
    });
    if (r.ok) expect(requestTarget(r.request)).toBe('/vendors/a%20b/agreements/master?name=Cloud%20%26%20co');
  });

  test('a required extra without value or default, a missing path value: problems naming them', () => {
    const p = problems(contract, { Services: ['x'] });
    expect(p.map((x) => [x.field, x.code])).toEqual(
      expect.arrayContaining([
        ['ThirdPartyGuid', 'required'],
        ['body:/regulator', 'required'],
      ]),
    );
    expect(p.find((x) => x.field === 'body:/regulator')!.message).toMatch(/regulator \(GUID\)/);
  });

  test('NOTHING DROPPED: every non-empty value without a placement is a problem; empty ones are not', () => {
    const p = problems(contract, {
      ThirdPartyGuid: G1,
      'body:/regulator': G1,
      LeiCode: 'X',
      StartDate: '2026-01-01',
      EndDate: '',
      Description: null,
      Tags: [],
    });
    expect(p.map((x) => [x.field, x.code])).toEqual([
      ['LeiCode', 'not-placed'],
      ['StartDate', 'not-placed'],
    ]);
    expect(p[0]!.message).toMatch(/no place for it in PUT \/vendors\/\{id\}\/agreements\/\{kind\}/);
    // The field is a value beside the words: whoever shows the problem names it (a cell by its column), once.
    expect(p.every((x) => !x.message.startsWith(x.field))).toBe(true);
  });

  test('a placed null is sent as null (a full update clearing a field)', () => {
    const o = op([pathParam('{guid}', 'orgId'), at('Description', '/description', { kind: 'plain' })]);
    expect(body(o, { '{guid}': G1, Description: null })).toEqual({ description: null });
  });

  test('listsOf names the lists the operation may look names up in', () => {
    const o = op([
      at('A', '/a', { kind: 'guid', list: 'organizations', value: 'name' }),
      at('B', '/b', { kind: 'objects', fields: [{ field: 'U', at: '/u', fileName: 'u', encoding: { kind: 'ref', list: 'users', value: 'name', idAt: '/id' } }] }),
    ]);
    expect(listsOf(o).sort()).toEqual(['organizations', 'users']);
  });
});

describe('bodyProblems: encodeRequest\'s problems without the request', () => {
  // A file that takes every value as it is, one property each, two of them required.
  const asItIs = op(
    [
      at('Name', '/name', { kind: 'plain' }, { required: true }),
      at('Code', '/code', { kind: 'plain' }, { required: true }),
      at('Tags', '/tags', { kind: 'plain' }),
      at('Note', '/note', { kind: 'plain' }),
    ],
    { path: '/incidents' },
  );
  const values: unknown[] = [undefined, null, '', 'x', 0, false, [], ['a'], { a: 1 }];
  const fields = ['Name', 'Code', 'Tags', 'Note', 'Other', 'More'];

  test('the same problems, in the same order, as encoding a copy of the body, for every mix of given, empty and unplaced values', () => {
    let checked = 0;
    for (let n = 0; n < 400; n++) {
      const body: Record<string, unknown> = {};
      // A fixed walk through the mixes (no randomness): each field absent or one of the values, in turn.
      for (let i = 0; i < fields.length; i++) {
        const pick = (n * (i + 3) + i * 7) % (values.length + 1);
        if (pick < values.length) body[fields[(i + n) % fields.length]!] = values[pick];
      }
      const encoded = encodeRequest(asItIs, { ...body }, lists);
      expect(bodyProblems(asItIs, body)).toEqual(encoded.ok ? [] : encoded.problems);
      checked++;
    }
    expect(checked).toBe(400);
    expect(bodyProblems(asItIs, { Tags: ['a'], Other: 'x' })!.map((p) => [p.field, p.code])).toEqual([
      ['Name', 'required'],
      ['Code', 'required'],
      ['Other', 'not-placed'],
    ]);
  });

  test('undefined where values need more than being taken as they are: a path parameter, a conversion, a list, a nested place, two at one place', () => {
    const plain = at('Name', '/name', { kind: 'plain' });
    expect(bodyProblems(op([plain]), {})).toBeUndefined(); // the path has {orgId}
    expect(bodyProblems(op([plain], { path: '/x' }), {})).toEqual([]);
    for (const other of [
      at('N', '/n', { kind: 'plain', as: 'number' }),
      at('N', '/n', { kind: 'plain', many: true }),
      at('N', '/n', { kind: 'guid', list: 'organizations', value: 'name' }),
      at('N', '/a/n', { kind: 'plain' }),
      at('N', '/name', { kind: 'plain' }),
      at('N', '/__proto__', { kind: 'plain' }),
      at('toString', '/n', { kind: 'plain' }),
      { field: 'N', in: 'query' as const, at: 'n', fileName: 'n', encoding: { kind: 'plain' as const }, how: 'name' as const },
    ])
      expect(bodyProblems(op([plain, other], { path: '/x' }), {})).toBeUndefined();
  });
});

describe('readCreatedId', () => {
  const create = (answer: BoundOperation['answer']) => op([], { answer });
  const ok = (id: string) => expect.objectContaining({ ok: true, id });

  test('where the binding says: an envelope pointer, a top-level Guid, a bare GUID, the Location header', () => {
    expect(readCreatedId(create({ in: 'body', at: '/data/guid' }), { status: 201, headers: {}, body: { data: { guid: G1 } } })).toEqual(ok(G1));
    expect(readCreatedId(create({ in: 'body', at: '/Guid' }), { status: 200, headers: {}, body: { Guid: G1 } })).toEqual(ok(G1));
    expect(readCreatedId(create({ in: 'body', at: '' }), { status: 200, headers: {}, body: G1 })).toEqual(ok(G1));
    expect(
      readCreatedId(create({ in: 'header', at: 'location' }), { status: 201, headers: { location: `/api/incidents/${G2}?x=1` }, body: undefined }),
    ).toEqual(ok(G2));
  });

  test('falls back to the usual places when the file documents the answer loosely; says so when none has it', () => {
    const loose = create({ in: 'body', at: '/Id' });
    expect(readCreatedId(loose, { status: 201, headers: { location: `/x/${G3}` }, body: '' })).toEqual(ok(G3));
    expect(readCreatedId(loose, { status: 200, headers: {}, body: { result: { uuid: G2 } } })).toEqual(ok(G2));
    expect(readCreatedId(loose, { status: 200, headers: {}, body: JSON.stringify({ Guid: G1 }) })).toEqual(ok(G1));
    const none = readCreatedId(loose, { status: 200, headers: {}, body: { done: true } });
    expect(none).toEqual({ ok: false, message: expect.stringMatching(/without the new record's id \(the binding reads it from body \/Id\)/) });
  });
});

describe('decodeRecord and recordsOf', () => {
  const ds: BoundDataset = {
    kind: 'dataset',
    method: 'GET',
    path: '/incidents',
    file: { path: '/incidents', pointer: '#' },
    how: 'name',
    records: '/data/items',
    placements: [
      at('Name', '/title', { kind: 'plain' }),
      at('ReportingOrganization', '/org', { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid' }),
      at('IncidentTypes', '/types', { kind: 'ref', value: 'guid', idAt: '/id', many: true }),
      at('Status', '/state', { kind: 'enum', values: ['OPEN'], map: { Open: 'OPEN' } }),
      at('NoticePeriod', '/notice', { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'iso-duration', units: {} }),
    ],
  };

  test('reads the file shape back into catalogue fields; properties nobody reads are kept', () => {
    const wire = { title: 'Leak', org: { Guid: G1 }, types: [{ id: G2 }], state: 'OPEN', notice: 'P3M', severity: 'High' };
    expect(decodeRecord(ds, wire, lists)).toEqual({
      Name: 'Leak',
      ReportingOrganization: 'Finance',
      IncidentTypes: [G2],
      Status: 'Open',
      NoticePeriod: 3,
      NoticePeriodUnit: 'Months',
      severity: 'High',
    });
    expect(recordsOf(ds, { data: { items: [wire] } })).toEqual([wire]);
    expect(recordsOf(ds, [wire])).toBeUndefined();
  });
});

describe('identity: the catalogue without a binding', () => {
  test("boundOf gives the catalogue's own placements; encodeRequest sends what the catalogue always sent", () => {
    const hyperlink = boundOf(catalog.operation('incident-hyperlink')) as BoundOperation;
    const r = encodeRequest(hyperlink, { '{guid}': G1, Url: 'https://x', Description: 'd' }, {});
    expect(r).toEqual({
      ok: true,
      request: { method: 'POST', path: `/incidents/${G1}/hyperlink`, query: [], body: { Url: 'https://x', Description: 'd' } },
    });
    const create = boundOf(catalog.operation('incident-create')) as BoundOperation;
    expect(create.answer).toEqual({ in: 'body', at: '/Id' });
  });
});

describe('mappingRows: the mapping in the file\'s words (report and flow notice)', () => {
  test('one row per placement and extra column, with where, meaning and encoding', () => {
    const o = op(
      [
        pathParam('{guid}', 'orgId'),
        at('ReportingOrganization', '/incident/reportingOrganisation', { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid', nameAt: '/Name' }),
      ],
      {
        extras: [
          { key: 'body:/severity', header: 'severity', in: 'body', at: '/severity', fileName: 'severity', cell: 'text', values: ['Low', 'High'], encoding: { kind: 'enum', values: ['Low', 'High'], map: {} }, required: true },
        ],
      },
    );
    expect(mappingRows(o)).toEqual([
      { file: 'path {orgId}', meaning: 'the record it is about', encoding: 'as is', required: true },
      { file: 'body /incident/reportingOrganisation', meaning: 'ReportingOrganization', encoding: 'name -> {Guid: GUID, Name: name} (organizations)', required: false },
      { file: 'body /severity', meaning: 'extra column "severity"', encoding: 'one of Low|High', required: true },
    ]);
  });
});

describe('single: the file keeps one value in an array', () => {
  test('sent as a list of one, read back as the one value', () => {
    const o = op([at('ReportingOrganization', '/orgs', { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid', many: true, single: true })]);
    const r = encodeRequest({ ...o, path: '/x' }, { ReportingOrganization: 'Finance' }, lists);
    expect(r).toMatchObject({ ok: true, request: { body: { orgs: [{ Guid: G1 }] } } });
    const ds: BoundDataset = { kind: 'dataset', method: 'GET', path: '/x', file: { path: '/x', pointer: '#' }, how: 'name', records: '', placements: o.placements };
    expect(decodeRecord(ds, { orgs: [{ Guid: G1 }] }, lists)).toEqual({ ReportingOrganization: 'Finance' });
  });
});

describe('entries that are plain values in the file', () => {
  const options = at('AnswerOptions', '/options', {
    kind: 'objects',
    fields: [
      { field: 'Id', at: '', fileName: '', encoding: { kind: 'plain' } },
      { field: 'Value', at: '', fileName: '', encoding: { kind: 'plain' } },
      { field: 'Name', at: '', fileName: '', encoding: { kind: 'plain' } },
    ],
  });

  test('options listed as names read as {Id, Name} and are written back as the names', () => {
    const ds: BoundDataset = { kind: 'dataset', method: 'GET', path: '/x', file: { path: '/x', pointer: '#' }, how: 'name', records: '', placements: [options] };
    expect(decodeRecord(ds, { options: ['Low', 'High'] })).toEqual({
      AnswerOptions: [
        { Id: 'Low', Value: 'Low', Name: 'Low' },
        { Id: 'High', Value: 'High', Name: 'High' },
      ],
    });
    // An option as a store keeps it ({Id: GUID, Name, Value}) goes out as its name.
    expect(body(op([options], { path: '/x' }), { AnswerOptions: [{ Id: G1, Name: 'Low', Value: 'low' }] })).toEqual({ options: ['Low'] });
  });

  test('a joined notice period of "None" reads as no number, unit None', () => {
    const ds: BoundDataset = {
      kind: 'dataset',
      method: 'GET',
      path: '/x',
      file: { path: '/x', pointer: '#' },
      how: 'name',
      records: '',
      placements: [at('NoticePeriod', '/notice', { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'text', units: {} })],
    };
    expect(decodeRecord(ds, { notice: 'None' })).toEqual({ NoticePeriod: null, NoticePeriodUnit: 'None' });
    expect(decodeRecord(ds, { notice: '3 Months' })).toEqual({ NoticePeriod: 3, NoticePeriodUnit: 'Months' });
  });
});
