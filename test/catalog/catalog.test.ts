import { catalog, columnKindOf, fillPath } from '../../src/catalog';

describe('catalogue', () => {
  it('lists every documented DirectData dataset of the spec', () => {
    const documented = catalog.datasets.filter((d) => d.documented).map((d) => d.path);
    expect(documented).toEqual(
      expect.arrayContaining([
        '/directdata/v1/risiko',
        '/directdata/v3/risk',
        '/directdata/v1/incidents',
        '/directdata/v3/riskcustomfields',
        '/directdata/v3/riskcustomfieldvalues',
        '/directdata/v3/riskrootcausecategory',
        '/directdata/v1/auditworkflow',
        '/findingreportdata/findingreportassessments',
      ]),
    );
    expect(documented).toHaveLength(23);
  });

  it('normalises the spec leading /api segment away', () => {
    expect(catalog.endpoints.some((e) => e.path.startsWith('/api/'))).toBe(false);
  });

  it('marks the old risk dataset as superseded by v3', () => {
    expect(catalog.dataset('risiko').supersededBy).toBe('risk');
  });

  it('matches method and path, and tells a wrong method from an unknown path', () => {
    expect(catalog.match('GET', '/directdata/v3/risk')).toMatchObject({ ok: true, endpoint: { id: 'risk' } });
    expect(catalog.match('DELETE', '/directdata/v3/risk')).toEqual({ ok: false, reason: 'method-not-allowed', allow: ['GET'] });
    expect(catalog.match('GET', '/directdata/v3/nothing')).toEqual({ ok: false, reason: 'not-found' });
  });

  it.each(['/directdata/v3/..%2Frisk', '/directdata/%2e%2e/risk', '/directdata/v3/risk%00', '//evil.example/x', '/directdata/v3/%252e', '/directdata\\v3/risk', '/directdata/v3/risk;x'])(
    'refuses the unsafe path %s',
    (p) => expect(catalog.match('GET', p).ok).toBe(false),
  );

  it('takes GUID parameters only where the template has one', () => {
    const g = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(catalog.match('POST', `/taskdata/v2/tasks/${g}/workflow/advance`)).toMatchObject({ ok: true, params: { guid: g } });
    expect(catalog.match('POST', '/taskdata/v2/tasks/not-a-guid/workflow/advance').ok).toBe(false);
    expect(fillPath('/incidents/{guid}/document', { guid: g })).toBe(`/incidents/${g}/document`);
    expect(() => fillPath('/incidents/{guid}/document', { guid: '../x' })).toThrow();
  });

  it('gives each record field a column kind', () => {
    const shape = catalog.dataset('incidents').record.shape;
    expect(columnKindOf(shape.DateDetected!)).toBe('date');
    expect(columnKindOf(shape.RiskGuids!)).toBe('list');
    expect(columnKindOf(shape.Id!)).toBe('guid');
  });

  it('keeps fields it does not know', () => {
    const parsed = catalog.dataset('risk').record.parse({ Id: '0f8fad5b-d9cb-469f-a165-70867728950e', Extra: 1 });
    expect(parsed.Extra).toBe(1);
  });
});
