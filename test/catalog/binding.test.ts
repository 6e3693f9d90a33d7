import {
  binding,
  catalog,
  createCatalog,
  pathSource,
  writeAvailability,
  type Binding,
  type BoundOperation,
} from '../../src/catalog';
import { bindPaths } from './bind-paths';

function withEntries(patch: Partial<Binding>): Binding {
  const b = bindPaths();
  return { ...b, ...patch };
}

describe('binding file', () => {
  it('accepts a full binding and refuses an id listed twice, or a version 1 file', () => {
    expect(binding.safeParse(bindPaths()).success).toBe(true);
    const b = bindPaths();
    const twice = { ...b, missing: { risk: 'not in the file' } };
    expect(binding.safeParse(twice).error?.issues[0]!.message).toMatch(/"risk" is in both endpoints and missing/);
    expect(binding.safeParse({ ...b, version: 1 }).error?.issues[0]!.message).toMatch(/import the API file again/);
  });
});

describe('catalogue with a binding', () => {
  it('moves endpoints to bound paths and matches them only there', () => {
    const c = createCatalog(bindPaths({ 'incident-create': '/incidentdata/v2/incidents' }));
    expect(c.operation('incident-create').path).toBe('/incidentdata/v2/incidents');
    expect(c.match('POST', '/incidentdata/v2/incidents')).toMatchObject({ ok: true });
    expect(c.match('POST', '/incidents')).toMatchObject({ ok: false, reason: 'not-found' });
    expect(pathSource(c.operation('incident-create'))).toBe('bound');
    expect(pathSource(c.dataset('risk'))).toBe('documented');
    expect(pathSource(catalog.operation('incident-create'))).toBe('assumed');
  });

  it('marks missing and unpicked ambiguous endpoints unavailable and never matches them', () => {
    const b = bindPaths();
    delete b.endpoints['thirdparty-create'];
    delete b.endpoints['incident-create'];
    delete b.endpoints['tasks'];
    b.missing = { 'thirdparty-create': 'no operation of the file fits', tasks: 'no operation of the file fits' };
    b.decisions['incident-create'] = {
      reason: '2 operations fit almost equally well',
      candidates: [
        { ref: 'POST /incidents', score: 0.8, reasons: [] },
        { ref: 'POST /incidents/v2', score: 0.79, reasons: [] },
      ],
    };
    const c = createCatalog(b);
    const tp = c.operation('thirdparty-create');
    expect(tp.unavailable).toMatchObject({ reason: 'missing' });
    expect(tp.unavailable!.message).toMatch(/Create a third party.*docs\/binding\.md/);
    expect(c.match('POST', tp.path).ok).toBe(false);
    expect(c.match('GET', c.dataset('tasks').path).ok).toBe(false);
    expect(c.operation('incident-create').unavailable).toMatchObject({ reason: 'ambiguous' });
    expect(c.operation('incident-create').unavailable!.message).toMatch(
      /POST \/incidents, POST \/incidents\/v2/,
    );
    expect(writeAvailability(tp, { production: false })).toMatchObject({ kind: 'unavailable' });
  });

  it('keeps a documented dataset the file does not list at the spec path, marked; not with none, not an assumed one, not a write', () => {
    const b = bindPaths();
    for (const id of ['audit', 'auditfinding', 'riskcustomfields', 'tasks', 'task-create']) {
      delete b.endpoints[id];
      b.missing[id] = 'no operation of the file fits';
    }
    const c = createCatalog(b);
    for (const id of ['audit', 'auditfinding', 'riskcustomfields']) {
      const d = c.dataset(id);
      expect([d.unavailable, d.notInFile, pathSource(d), d.path]).toEqual([undefined, true, 'documented', catalog.dataset(id).path]);
      expect(c.match('GET', d.path)).toMatchObject({ ok: true, endpoint: { id } });
    }
    // Assumed paths and documented writes still need the file or an override.
    expect(c.dataset('tasks').unavailable).toMatchObject({ reason: 'missing' });
    expect(c.operation('task-create').unavailable).toMatchObject({ reason: 'missing' });

    const declined = createCatalog({ ...b, missing: { ...b.missing, audit: "the admin's overrides bind nothing to it" }, none: ['audit'] });
    expect(declined.dataset('audit').unavailable).toMatchObject({ reason: 'missing' });
    expect(declined.match('GET', '/directdata/v1/audit').ok).toBe(false);
    expect(declined.dataset('auditfinding').notInFile).toBe(true);
    // A binding imported before `none` was recorded says it only in `missing`.
    const older = createCatalog({ ...b, missing: { ...b.missing, audit: "the admin's overrides bind nothing to it" } });
    expect(older.dataset('audit').unavailable).toMatchObject({ reason: 'missing' });
  });

  it('a kept documented dataset gives way where the file uses its path for another endpoint', () => {
    const b = bindPaths({ businessassessment: '/directdata/v1/audit' });
    delete b.endpoints.audit;
    b.missing.audit = 'no operation of the file fits';
    const c = createCatalog(b);
    expect(c.dataset('audit').unavailable!.message).toMatch(/has GET \/directdata\/v1\/audit .* as Business assessments/);
    expect(c.match('GET', '/directdata/v1/audit')).toMatchObject({ ok: true, endpoint: { id: 'businessassessment' } });
  });

  it('appends extra datasets as untyped text datasets under Other', () => {
    const c = createCatalog(
      withEntries({
        extraDatasets: [
          { id: 'x-assets', path: '/directdata/v1/assets', title: 'Assets', records: '', properties: ['Id', 'Name'] },
        ],
      }),
    );
    const x = c.dataset('x-assets');
    expect(x).toMatchObject({ area: 'Other', documented: false, access: { kind: 'directdata' } });
    expect(Object.keys(x.record.shape)).toEqual(['Id', 'Name']);
    expect(x.record.parse({ Id: 'a', Name: null, More: 1 })).toEqual({ Id: 'a', Name: null, More: 1 });
    expect(c.match('GET', '/directdata/v1/assets')).toMatchObject({ ok: true });
  });

  it('refuses a binding naming an endpoint the catalogue lacks, or binding an operation as a dataset', () => {
    const b = bindPaths();
    b.endpoints['nope'] = structuredClone(b.endpoints['risk']!);
    expect(() => createCatalog(b)).toThrow(/"nope".*re-import/);
    const g = bindPaths();
    g.endpoints['incident-create'] = structuredClone(g.endpoints['risk']!);
    expect(() => createCatalog(g)).toThrow(/"incident-create" is an operation, the binding has a dataset/);
  });

  it('takes the bound method and a path with several parameters, and matches them there', () => {
    const b = bindPaths();
    const update = b.endpoints['task-update'] as BoundOperation;
    b.endpoints['task-update'] = {
      ...update,
      method: 'PATCH',
      path: '/projects/{projectId}/tasks/{taskId}',
      placements: update.placements.map((p) => (p.in === 'path' ? { ...p, at: 'taskId' } : p)),
      extras: [
        {
          key: 'path:projectId',
          header: 'projectId',
          in: 'path',
          at: 'projectId',
          fileName: 'projectId',
          cell: 'text',
          encoding: { kind: 'plain' },
          required: true,
        },
      ],
    };
    const c = createCatalog(b);
    expect(c.operation('task-update')).toMatchObject({ method: 'PATCH', path: '/projects/{projectId}/tasks/{taskId}' });
    expect(c.match('PATCH', '/projects/p-1/tasks/0f8fad5b-d9cb-469f-a165-70867728950e')).toMatchObject({
      ok: true,
      endpoint: { id: 'task-update' },
      params: { projectId: 'p-1', taskId: '0f8fad5b-d9cb-469f-a165-70867728950e' },
    });
    expect(c.match('POST', '/projects/p-1/tasks/x')).toMatchObject({ ok: false, reason: 'method-not-allowed', allow: ['PATCH'] });
  });
});

describe('no blind posts', () => {
  it('needs a confirmation for an assumed path off production and refuses it on production', () => {
    const op = catalog.operation('incident-create');
    expect(writeAvailability(op, { production: false })).toMatchObject({
      kind: 'confirm',
      message: expect.stringMatching(/assumed/),
    });
    const prd = writeAvailability(op, { production: true });
    expect(prd).toMatchObject({ kind: 'unavailable' });
    expect(prd.kind === 'unavailable' && prd.message).toMatch(/binding import/);
    expect(writeAvailability(catalog.operation('task-create'), { production: true })).toEqual({ kind: 'ok' });
    const bound = createCatalog(bindPaths()).operation('incident-create');
    expect(writeAvailability(bound, { production: true })).toEqual({ kind: 'ok' });
  });
});
