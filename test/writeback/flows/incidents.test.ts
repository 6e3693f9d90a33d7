import { bodies } from '../../../src/catalog';
import { incidentsFlow } from '../../../src/writeback/flows/incidents';
import { isoToSerial } from '../../../src/sheet/serial';
import { catalogueEnvironment, flowContext } from '../../../src/writeback/environment/context';
import { G, row, setUp, standing } from '../fixtures';

const flow = setUp(incidentsFlow);
const base = { Name: 'Laptop lost', 'Reporting organization': 'Finance' };
const codes = (r: { problems: { code: string; column: string }[] }) =>
  r.problems.map((p) => `${p.column}:${p.code}`);

describe('incident rows', () => {
  it('needs only the name and the reporting organization (spec, Incident rule 1)', () => {
    const r = flow.prepare(row(base));
    expect(r.problems).toEqual([]);
    expect(r.request?.body).toEqual({ Name: 'Laptop lost', ReportingOrganization: 'Finance' });
    expect(bodies.createIncident.safeParse(r.request!.body).success).toBe(true);
  });

  it('refuses a row without a name or a reporting organization, naming the column', () => {
    const r = flow.prepare(row({ Description: 'x' }));
    expect(r.request).toBeUndefined();
    expect(codes(r)).toEqual(['Name:required', 'Reporting organization:required']);
  });

  it('sends names as GUIDs: incident types, classification, root cause category', () => {
    const r = flow.prepare(
      row({
        ...base,
        'Incident types': 'Data breach; Operational incident',
        Classification: 'major',
        'Root cause category': 'Process',
        'Records affected [Data breach]': 10,
      }),
    );
    expect(r.request?.body).toMatchObject({
      IncidentTypes: [G.breach, G.operational],
      Classification: G.major,
      RootCauseCategory: G.rootCause,
    });
  });

  it('leaves a blank detection date to the service, which makes it today (rule 4), and sends a date cell as ISO', () => {
    expect(flow.prepare(row(base)).request?.body.DateDetected).toBeUndefined();
    expect(
      flow.prepare(row({ ...base, 'Date detected': isoToSerial('2025-03-04') })).request?.body.DateDetected,
    ).toBe('2025-03-04');
    expect(codes(flow.prepare(row({ ...base, 'Date detected': '03/04/2025' })))).toEqual([
      'Date detected:ambiguous-date',
    ]);
  });

  it('refuses an archived incident type (rule 9)', () => {
    const r = flow.prepare(row({ ...base, 'Incident types': 'Old type' }));
    expect(r.request).toBeUndefined();
    expect(codes(r)).toEqual(['Incident types:archived-type']);
  });

  it('checks every name of a several-type cell, which the dropdown lets the user type', () => {
    const r = flow.prepare(row({ ...base, 'Incident types': 'Operational incident; Data breech' }));
    expect(codes(r)).toEqual(['Incident types:unknown-name']);
    expect(r.problems[0]!.message).toContain('Data breach');
  });

  it('refuses an unknown classification with candidates rather than guessing', () => {
    const r = flow.prepare(row({ ...base, Classification: 'Majr' }));
    expect(codes(r)).toEqual(['Classification:unknown-name']);
    expect(r.problems[0]!.message).toContain('"Major"');
  });

  it('refuses a custom field of an incident type the row does not select, on that cell (rule 5)', () => {
    const r = flow.prepare(
      row({ ...base, 'Incident types': 'Operational incident', 'Records affected [Data breach]': 5 }),
    );
    expect(r.request).toBeUndefined();
    expect(codes(r)).toEqual(['Records affected [Data breach]:field-of-unselected-type']);
    expect(r.problems[0]!.message).toContain('Data breach');
  });

  it('reports a blank required custom field as needed for Waiting for acceptance, a warning that does not stop creation (rule 2)', () => {
    const r = flow.prepare(row({ ...base, 'Incident types': 'Data breach' }));
    expect(r.problems).toEqual([
      expect.objectContaining({
        column: 'Records affected [Data breach]',
        code: 'needed-for-acceptance',
        severity: 'warning',
      }),
    ]);
    expect(r.request).toBeDefined();
  });

  it('sends a checkbox left FALSE as false, not as empty (rule 6)', () => {
    const r = flow.prepare(
      row({
        ...base,
        'Incident types': 'Data breach',
        'Records affected [Data breach]': 3,
        'Reported to authority [Data breach]': false,
      }),
    );
    expect(r.request?.body.CustomFields).toEqual([
      { CustomFieldGuid: G.cfRecords, Value: 3 },
      { CustomFieldGuid: G.cfReported, Value: false },
    ]);
  });

  it('sends dropdown options as their ids, one entry per multi-select option, and refuses an option given twice', () => {
    const r = flow.prepare(
      row({
        ...base,
        'Incident types': 'Operational incident',
        'Impact [Operational incident]': 'High',
        'Systems [Operational incident]': 'CRM; ERP',
      }),
    );
    expect(r.request?.body.CustomFields).toEqual([
      { CustomFieldGuid: G.cfImpact, Value: G.optHigh },
      { CustomFieldGuid: G.cfSystems, Value: G.optCrm },
      { CustomFieldGuid: G.cfSystems, Value: G.optErp },
    ]);
    const twice = flow.prepare(
      row({
        ...base,
        'Incident types': 'Operational incident',
        'Systems [Operational incident]': 'CRM; crm',
      }),
    );
    expect(codes(twice)).toEqual(['Systems [Operational incident]:duplicate-option']);
  });

  it('has a column per visible custom field, with dropdowns for answer options', () => {
    const cols = flow.columns('Lists');
    expect(cols.map((c) => c.name)).toContain('Impact [Operational incident]');
    expect(cols.map((c) => c.name)).not.toContain('Hidden [Operational incident]');
    expect(cols.find((c) => c.name === 'Impact [Operational incident]')?.list?.values).toEqual([
      'High',
      'Low',
    ]);
    // Multi-valued columns offer their choices but accept "A; B"; archived types are not offered.
    expect(cols.find((c) => c.name === 'Incident types')?.list).toMatchObject({
      values: ['Operational incident', 'Data breach'],
      allowOther: true,
    });
    expect(cols.find((c) => c.name === 'Systems [Operational incident]')?.list?.allowOther).toBe(true);
    expect(cols.find((c) => c.name === 'Impact [Operational incident]')?.list?.allowOther).toBe(false);
    expect(cols.find((c) => c.name === 'Classification')?.list?.values).toEqual(['Minor', 'Major']);
  });

  describe('hyperlinks (spec, Hyperlink: at most 32,767 characters, no whitespace)', () => {
    const filled = { ...base, Assessors: 'Ann', Responsible: 'Bob', Description: 'd' };
    it('keeps a valid hyperlink for after creation', () => {
      expect(flow.prepare(row({ ...filled, Hyperlink: 'https://example.com/a' })).request?.hyperlink).toBe(
        'https://example.com/a',
      );
    });
    it('refuses one with whitespace or longer than 32,767 characters', () => {
      expect(codes(flow.prepare(row({ ...filled, Hyperlink: 'https://example.com/a b' })))).toEqual([
        'Hyperlink:invalid-hyperlink',
      ]);
      expect(
        codes(flow.prepare(row({ ...filled, Hyperlink: `https://e.com/${'a'.repeat(32767)}` }))),
      ).toEqual(['Hyperlink:invalid-hyperlink']);
      expect(
        flow.prepare(row({ ...filled, Hyperlink: `https://e.com/${'a'.repeat(32767 - 14)}` })).problems,
      ).toEqual([]);
    });
    it('says the fix that fits: spaces removed from a link with spaces, a link too long shortened', () => {
      const spaced = flow.prepare(row({ ...filled, Hyperlink: 'https://example.com/a b' })).problems[0]!.message;
      expect(spaced).toBe('a hyperlink may not contain whitespace or line breaks; remove the spaces and line breaks (a space inside a link is written %20)');
      const long = flow.prepare(row({ ...filled, Hyperlink: `https://e.com/${'a'.repeat(32767)}` })).problems[0]!.message;
      expect(long).toBe('a hyperlink is at most 32,767 characters; shorten it (a link to a document in the service, or a short link, fits)');
    });
    it('refuses one while the fields required before additions are empty (spec, errors table)', () => {
      const r = flow.prepare(row({ ...base, Hyperlink: 'https://example.com/a' }));
      expect(codes(r)).toEqual(['Hyperlink:hyperlink-needs-required-fields']);
      expect(r.problems[0]!.message).toContain('Assessors, Responsible, Description');
    });
  });

  describe('finding its record after an unknown outcome', () => {
    const sent = { state: {}, at: new Date('2025-06-01T10:00:00Z') };
    const request = flow.prepare(row({ ...base, Description: 'd' })).request!;
    const mine = {
      Id: G.twinA,
      Name: 'Laptop lost',
      ReportingOrganization: 'Finance',
      Description: 'd',
      DateRegistered: '2025-06-01T10:00:03Z',
    };
    const other = { ...mine, Id: G.twinB };

    it('adopts the one matching record registered after the row was sent, skipping records other rows hold', () => {
      expect(flow.find(request, [mine], new Set(), sent)).toEqual({ kind: 'found', guid: G.twinA });
      expect(flow.find(request, [mine, other], new Set([G.twinB]), sent)).toEqual({
        kind: 'found',
        guid: G.twinA,
      });
      expect(flow.find(request, [mine, other], new Set(), sent).kind).toBe('unclear');
      expect(flow.find(request, [], new Set(), sent)).toEqual({ kind: 'absent' });
    });

    it('never adopts a lookalike registered before the row was sent: the row is sent', () => {
      const lastYear = { ...other, DateRegistered: '2024-06-01T10:00:00Z' };
      expect(flow.find(request, [lastYear], new Set(), sent)).toEqual({ kind: 'absent' });
      expect(flow.find(request, [lastYear, mine], new Set(), sent)).toEqual({ kind: 'found', guid: G.twinA });
    });

    it('allows the service clock to be up to two minutes behind ours', () => {
      const slowClock = { ...mine, DateRegistered: '2025-06-01T09:58:30Z' };
      const tooEarly = { ...mine, DateRegistered: '2025-06-01T09:57:59Z' };
      expect(flow.find(request, [slowClock], new Set(), sent)).toEqual({ kind: 'found', guid: G.twinA });
      expect(flow.find(request, [tooEarly], new Set(), sent)).toEqual({ kind: 'absent' });
      expect(
        flow.find(request, [{ ...mine, DateRegistered: '2025-06-01T12:00:00+02:00' }], new Set(), sent).kind,
      ).toBe('found');
    });

    it('leaves the row unknown, saying what to check, when a match has no usable registration time', () => {
      const { DateRegistered: _, ...untimed } = mine;
      const missing = flow.find(request, [untimed], new Set(), sent);
      expect(missing).toEqual({
        kind: 'unclear',
        message: expect.stringContaining(`DateRegistered of ${G.twinA} is missing`),
      });
      expect(missing.kind === 'unclear' && missing.message).toContain('set Result to created');
      // Only a date, or a time without a zone, cannot be placed against a send minutes earlier.
      expect(flow.find(request, [{ ...mine, DateRegistered: '2025-06-01' }], new Set(), sent).kind).toBe(
        'unclear',
      );
      expect(
        flow.find(request, [{ ...mine, DateRegistered: '2025-06-01T10:00:03' }], new Set(), sent).kind,
      ).toBe('unclear');
      // ... but a date long before the send is still a stranger's.
      expect(flow.find(request, [{ ...mine, DateRegistered: '2025-05-01' }], new Set(), sent)).toEqual({
        kind: 'absent',
      });
      const noSendTime = flow.find(request, [mine], new Set(), { state: {}, at: undefined });
      expect(noSendTime).toEqual({ kind: 'unclear', message: expect.stringContaining('Result time') });
    });
  });
});

describe('on an environment that lacks the lists of types, classifications and root cause categories', () => {
  const lacking = new Map([...standing].filter(([id]) => !['incidenttypes', 'incidentclassifications', 'riskrootcausecategory'].includes(id)));
  const bare = incidentsFlow.setup(lacking, flowContext(incidentsFlow, catalogueEnvironment(), lacking));

  it('takes their GUIDs as typed (the flow says to type them), and refuses names it cannot check', () => {
    const ok = bare.prepare(
      row({ Name: 'Outage', 'Reporting organization': 'Finance', 'Incident types': G.operational, Classification: G.minor, 'Root cause category': G.rootCause }),
    );
    expect(ok.problems).toEqual([]);
    expect(ok.request?.body).toMatchObject({ IncidentTypes: [G.operational], Classification: G.minor, RootCauseCategory: G.rootCause });
    const named = bare.prepare(row({ Name: 'Outage', 'Reporting organization': 'Finance', Classification: 'Minor' }));
    expect(named.request).toBeUndefined();
    expect(named.problems.map((p) => p.column)).toEqual(['Classification']);
  });
});
