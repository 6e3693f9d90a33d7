import { bodies, createCatalog, enumValues, identityMap, widenBody } from '../../src/catalog';
import { bindPaths } from './bind-paths';

describe('widenBody: the enum values a customer file adds', () => {
  const shape = () => {
    const s = identityMap(bodies.createContract);
    s.enums.NoticePeriodUnit = { values: ['Months', 'Weeks', 'Days', 'None', 'Years'] };
    return s;
  };

  test("a body with the file's extra value passes the widened schema, and the spec's values still do", () => {
    const body = { ThirdPartyGuid: '10000000-0000-4000-8000-000000000001', Name: 'x', NoticePeriod: 2 };
    const wide = widenBody(bodies.createContract, shape());
    expect(bodies.createContract.safeParse({ ...body, NoticePeriodUnit: 'Years' }).success).toBe(false);
    expect(wide.safeParse({ ...body, NoticePeriodUnit: 'Years' }).success).toBe(true);
    expect(wide.safeParse({ ...body, NoticePeriodUnit: 'Months' }).success).toBe(true);
    expect(wide.safeParse({ ...body, NoticePeriodUnit: 'Decades' }).success).toBe(false);
    expect(enumValues(wide, 'NoticePeriodUnit')).toEqual(['Months', 'Weeks', 'Days', 'None', 'Years']);
  });

  test("a bound catalogue's operation takes the file's values, the default catalogue does not", () => {
    const b = structuredClone(bindPaths({ 'contract-create': '/contracts' }));
    b.endpoints['contract-create'] = { ...b.endpoints['contract-create']!, body: shape() };
    expect(enumValues(createCatalog(b).operation('contract-create').body, 'NoticePeriodUnit')).toContain(
      'Years',
    );
    expect(enumValues(createCatalog().operation('contract-create').body, 'NoticePeriodUnit')).not.toContain(
      'Years',
    );
  });
});
