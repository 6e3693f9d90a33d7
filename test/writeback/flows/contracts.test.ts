import { contractsFlow } from '../../../src/writeback/flows/contracts';
import { G, row, setUp } from '../fixtures';

const flow = setUp(contractsFlow);
const base = { 'Third party': 'Acme', Name: 'Hosting' };
const codes = (r: { problems: { code: string; column: string }[] }) =>
  r.problems.map((p) => `${p.column}:${p.code}`);

describe('contract rows', () => {
  it('looks up the third party by name and defaults the notice period unit to None', () => {
    expect(flow.prepare(row({ ...base, Services: 'Hosting; Backup' })).request).toEqual({
      ThirdPartyGuid: G.acme,
      Name: 'Hosting',
      Services: ['Hosting', 'Backup'],
      NoticePeriodUnit: 'None',
    });
  });

  it('refuses a third party name shared by two, naming both GUIDs', () => {
    const r = flow.prepare(row({ ...base, 'Third party': 'Twin' }));
    expect(codes(r)).toEqual(['Third party:ambiguous-name']);
    expect(r.problems[0]!.message).toContain(G.twinA);
    expect(r.problems[0]!.message).toContain(G.twinB);
  });

  it('refuses an end date before the start date, and accepts the same day', () => {
    expect(
      codes(flow.prepare(row({ ...base, 'Start date': '2025-06-01', 'End date': '2025-05-31' }))),
    ).toEqual(['End date:end-before-start']);
    expect(
      flow.prepare(row({ ...base, 'Start date': '2025-06-01', 'End date': '2025-06-01' })).problems,
    ).toEqual([]);
  });

  it('needs a number for months, weeks or days, but not for None (spec, notice period)', () => {
    expect(codes(flow.prepare(row({ ...base, 'Notice period unit': 'Months' })))).toEqual([
      'Notice period:required',
    ]);
    expect(flow.prepare(row({ ...base, 'Notice period unit': 'none' })).request).toMatchObject({
      NoticePeriodUnit: 'None',
    });
    expect(
      flow.prepare(row({ ...base, 'Notice period': 3, 'Notice period unit': 'weeks' })).request,
    ).toMatchObject({ NoticePeriod: 3, NoticePeriodUnit: 'Weeks' });
  });

  it('refuses a number without a unit, an unknown unit and a negative or fractional period', () => {
    expect(codes(flow.prepare(row({ ...base, 'Notice period': 3 })))).toEqual([
      'Notice period unit:required',
    ]);
    expect(codes(flow.prepare(row({ ...base, 'Notice period': 3, 'Notice period unit': 'Years' })))).toEqual([
      'Notice period unit:unknown-unit',
    ]);
    expect(codes(flow.prepare(row({ ...base, 'Notice period': -1, 'Notice period unit': 'Days' })))).toEqual([
      'Notice period:not-whole',
    ]);
    expect(codes(flow.prepare(row({ ...base, 'Notice period': 1.5, 'Notice period unit': 'Days' })))).toEqual(
      ['Notice period:not-whole'],
    );
  });

  it('after an unknown outcome, adopts a contract created since the send, never an older lookalike', () => {
    const request = flow.prepare(row(base)).request!;
    const sent = { state: {}, at: new Date('2025-06-01T10:00:00Z') };
    const older = {
      Id: G.twinA,
      ThirdPartyGuid: G.acme,
      Name: 'Hosting',
      DateCreated: '2024-01-01T00:00:00Z',
    };
    const created = { ...older, Id: G.twinB, DateCreated: '2025-06-01T10:00:01Z' };
    expect(flow.find(request, [older], new Set(), sent)).toEqual({ kind: 'absent' });
    expect(flow.find(request, [older, created], new Set(), sent)).toEqual({ kind: 'found', guid: G.twinB });
  });
});
