import { thirdPartiesFlow } from '../../../src/writeback/flows/thirdparties';
import { G, row, setUp } from '../fixtures';

const flow = setUp(thirdPartiesFlow);
const codes = (r: { problems: { code: string; column: string }[] }) =>
  r.problems.map((p) => `${p.column}:${p.code}`);

describe('third party rows', () => {
  it('needs a name', () => {
    expect(codes(flow.prepare(row({ 'LEI code': '5493001KJTIIGC8Y1R12' })))).toEqual(['Name:required']);
  });

  it('accepts a valid LEI code (upper-cased) and refuses one whose check digits fail ISO 17442', () => {
    expect(flow.prepare(row({ Name: 'Acme', 'LEI code': '5493001kjtiigc8y1r12' })).request).toEqual({
      Name: 'Acme',
      LeiCode: '5493001KJTIIGC8Y1R12',
    });
    const bad = flow.prepare(row({ Name: 'Acme', 'LEI code': '5493001KJTIIGC8Y1R21' }));
    expect(bad.request).toBeUndefined();
    expect(codes(bad)).toEqual(['LEI code:lei-check-digits']);
  });

  it('sends framework dimensions as a list and a multi-select custom field as one entry per option', () => {
    const r = flow.prepare(
      row({ Name: 'Acme', 'Framework dimensions': 'ISO 27001; DORA', Regions: 'EU; US' }),
    );
    expect(r.request).toEqual({
      Name: 'Acme',
      FrameworkDimensions: ['ISO 27001', 'DORA'],
      CustomFields: [
        { CustomFieldGuid: G.tpRegions, Value: G.optEu },
        { CustomFieldGuid: G.tpRegions, Value: G.optUs },
      ],
    });
  });

  it('refuses duplicate entries for one multi-select field (spec, Third party)', () => {
    expect(codes(flow.prepare(row({ Name: 'Acme', Regions: 'EU; US; EU' })))).toEqual([
      'Regions:duplicate-option',
    ]);
  });

  it('refuses an option the field does not have and lists the options', () => {
    const r = flow.prepare(row({ Name: 'Acme', Regions: 'APAC' }));
    expect(codes(r)).toEqual(['Regions:unknown-option']);
    expect(r.problems[0]!.message).toContain('known: EU, US');
  });

  it('after an unknown outcome, adopts a record created since the send, never an older lookalike', () => {
    const request = flow.prepare(row({ Name: 'Acme' })).request!;
    const sent = { state: {}, at: new Date('2025-06-01T10:00:00Z') };
    const older = { Id: G.twinA, Name: 'Acme', DateCreated: '2023-02-03T08:00:00Z' };
    const created = { Id: G.twinB, Name: 'Acme', DateCreated: '2025-06-01T10:00:01Z' };
    expect(flow.find(request, [older], new Set(), sent)).toEqual({ kind: 'absent' });
    expect(flow.find(request, [older, created], new Set(), sent)).toEqual({ kind: 'found', guid: G.twinB });
    expect(flow.find(request, [{ Id: G.twinB, Name: 'Acme' }], new Set(), sent).kind).toBe('unclear');
  });
});
