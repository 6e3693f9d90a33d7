import { bodies, boundOf, catalog, createCatalog, enumValues, widenBody, type BoundOperation } from '../../src/catalog';
import { bindPaths } from './bind-paths';

describe('widenBody: the enum values a customer file adds', () => {
  const withYears = (): BoundOperation => {
    const op = structuredClone(boundOf(catalog.operation('contract-create')) as BoundOperation);
    op.placements = op.placements.map((p) =>
      p.field === 'NoticePeriodUnit'
        ? { ...p, encoding: { kind: 'enum', values: ['MONTHS', 'Weeks', 'Days', 'None', 'Years'], map: { Months: 'MONTHS' } } }
        : p,
    );
    return op;
  };

  test("a body with the file's extra value passes the widened schema, and the spec's values still do", () => {
    const body = { ThirdPartyGuid: '10000000-0000-4000-8000-000000000001', Name: 'x', NoticePeriod: 2 };
    const wide = widenBody(bodies.createContract, withYears());
    expect(bodies.createContract.safeParse({ ...body, NoticePeriodUnit: 'Years' }).success).toBe(false);
    expect(wide.safeParse({ ...body, NoticePeriodUnit: 'Years' }).success).toBe(true);
    expect(wide.safeParse({ ...body, NoticePeriodUnit: 'Months' }).success).toBe(true);
    expect(wide.safeParse({ ...body, NoticePeriodUnit: 'Decades' }).success).toBe(false);
    // MONTHS is the file's spelling of Months, not one more value.
    expect(enumValues(wide, 'NoticePeriodUnit')).toEqual(['Months', 'Weeks', 'Days', 'None', 'Years']);
  });

  test("a bound catalogue's operation takes the file's values, the default catalogue does not", () => {
    const b = bindPaths({ 'contract-create': '/contracts' });
    b.endpoints['contract-create'] = { ...withYears(), path: '/contracts' };
    expect(enumValues(createCatalog(b).operation('contract-create').body, 'NoticePeriodUnit')).toContain('Years');
    expect(enumValues(createCatalog().operation('contract-create').body, 'NoticePeriodUnit')).not.toContain('Years');
  });

  test("a body with a refinement (a task's score and status) widens and keeps its refinement: integer statuses named by the file", () => {
    const op = structuredClone(boundOf(catalog.operation('task-score-status')) as BoundOperation);
    op.placements = op.placements.map((p) =>
      p.field === 'Status'
        ? {
            ...p,
            encoding: {
              kind: 'enum',
              values: ['0', '1', '2', '3', '4'],
              map: { 'To do': '0', Rejected: '1', 'Ready for review': '2', 'In review': '3', Done: '4' },
              as: 'integer',
            },
          }
        : p,
    );
    const b = bindPaths({ 'task-score-status': '/tasks/{guid}/status' });
    b.endpoints['task-score-status'] = { ...op, path: '/tasks/{guid}/status' };
    // This threw "Cannot overwrite keys on object schemas containing refinements" and stopped the relay.
    const wide = createCatalog(b).operation('task-score-status').body!;
    expect(enumValues(wide, 'Status')).toEqual([...bodies.TASK_STATUSES, 'Done']);
    expect(wide.safeParse({ Status: 'Done' }).success).toBe(true);
    expect(wide.safeParse({ Status: '4' }).success).toBe(false);
    expect(wide.safeParse({}).success).toBe(false);
  });
});
