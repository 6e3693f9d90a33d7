/**
 * Nothing dropped (issue 20): every non-empty cell of a valid row arrives in the request where the
 * binding wants it, for every flow; a template has a column only where its value lands; a filled cell with
 * no place in the file is an error naming the row, the column and the fix. The harness
 * (nothing-dropped.ts) runs here on the catalogue's own shapes and on a customer-like binding; the corpus of
 * customer files runs it per file.
 */
import type { Binding } from '../../src/catalog';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { WritebackApi } from '../../src/writeback/api';
import type { EnvironmentInfo } from '../../src/writeback/environment/availability';
import { fitFlow } from '../../src/writeback/environment/fitted-flow';
import { catalogueEnvironment } from '../../src/writeback/environment/context';
import { FLOWS } from '../../src/writeback/flows';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { bindingWith, extra, place, unplace, type Change } from './binding-fixture';
import { created, standing } from './fixtures';
import { checkNothingDropped } from './nothing-dropped';

const read: Pick<WritebackApi, 'download'> = { download: async (id) => ({ records: [...(standing.get(id) ?? [])] }) };
const env = (binding?: Binding): EnvironmentInfo => ({ name: 'ACC', production: false, ...(binding ? { binding } : {}) });

/** Moves an operation to another path (the file's own parameter names). */
const path =
  (to: string): Change =>
  (op) => ({ ...op, path: to, file: { ...op.file, path: to } });
const method =
  (m: 'PUT' | 'PATCH'): Change =>
  (op) => ({ ...op, method: m });

/** A file unlike the catalogue: wrapped bodies, British names, references as objects, its own dates, units and enum spellings. */
const customer = bindingWith({
  'incident-create': [
    place('Name', { at: '/incident/title', fileName: 'title' }),
    place('ReportingOrganization', {
      at: '/incident/reportingOrganisation',
      fileName: 'reportingOrganisation',
      encoding: { kind: 'ref', list: 'organizations', value: 'name', idAt: '/Guid', nameAt: '/Name' },
    }),
    place('AffectedOrganizations', {
      at: '/incident/affectedOrganisationIds',
      encoding: { kind: 'guid', list: 'organizations', value: 'name', many: true },
    }),
    place('IncidentTypes', {
      at: '/incident/types',
      encoding: { kind: 'ref', list: 'incidenttypes', value: 'guid', idAt: '/id', nameAt: '/label', many: true },
    }),
    place('DateDetected', { at: '/incident/detectedAt', encoding: { kind: 'date', format: 'date-time' } }),
    place('Description', { at: '/incident/narrative' }),
    place('CustomFields', {
      at: '/incident/answers',
      encoding: { kind: 'custom-fields', style: 'entries', guidAt: '/field/Guid', valueAt: '/answer', dateAt: '/answerDate' },
    }),
    extra('channel', { values: ['email', 'phone'] }),
    (op) => ({ ...op, answer: { in: 'header', at: 'location' } }),
  ],
  'incident-hyperlink': [path('/incidents/{incidentId}/links'), place('{guid}', { at: 'incidentId' }), place('Url', { at: '/link' })],
  'contract-create': [
    path('/vendors/{vendorId}/agreements'),
    place('ThirdPartyGuid', { in: 'path', at: 'vendorId', encoding: { kind: 'guid', value: 'guid' }, required: true }),
    place('NoticePeriod', {
      at: '/notice',
      encoding: { kind: 'number-unit', unitField: 'NoticePeriodUnit', style: 'text', units: { Months: 'months' } },
    }),
    unplace('NoticePeriodUnit'),
    (op) => ({ ...op, answer: { in: 'body', at: '/result/guid' } }),
  ],
  'thirdparty-create': [place('LeiCode', { at: '/lei' }), extra('tier', { values: ['gold', 'silver'], required: false, default: 'silver' })],
  'task-update-v2': [method('PUT'), path('/tasks/{taskId}'), place('{guid}', { at: 'taskId' })],
  'task-score-status': [
    method('PATCH'),
    path('/tasks/{taskId}/assessment'),
    place('{guid}', { at: 'taskId' }),
    place('Status', {
      encoding: {
        kind: 'enum',
        values: ['to_do', 'rejected', 'ready_for_review', 'in_review'],
        map: { 'To do': 'to_do', Rejected: 'rejected', 'Ready for review': 'ready_for_review', 'In review': 'in_review' },
      },
    }),
  ],
});

/** A task flow's marks by the row's action: the columns refused on their own cell. */
const ACTIONS = ['Update', 'Score and status', 'Advance'];
const byRow = (marked: { row: number; column: string }[]) =>
  Object.fromEntries(ACTIONS.map((a, i) => [a, marked.filter((m) => m.row === i).map((m) => m.column)]));

describe('nothing dropped', () => {
  test("on the catalogue's own shapes, every cell of every flow arrives where the catalogue puts it", async () => {
    const report = await checkNothingDropped({ environment: env(), api: read });
    expect(report.failures).toEqual([]);
    expect(report.flows.map((f) => [f.flow, f.available])).toEqual([
      ['incidents', true],
      ['thirdparties', true],
      ['contracts', true],
      ['tasks', true],
    ]);
    for (const f of report.flows) expect(f.cellsChecked).toBeGreaterThan(f.flow === 'tasks' ? 8 : 2);
    // A row per task action with every column typed: each value is in the request, or refused on its own cell.
    const tasks = report.flows.find((f) => f.flow === 'tasks')!;
    expect(byRow(tasks.marked)).toEqual({
      'Update': ['Status'],
      'Score and status': ['Name', 'Description', 'Responsible user', 'Reviewer', 'Action date', 'Notification periods'],
      'Advance': [
        'Name',
        'Description',
        'Responsible user',
        'Reviewer',
        'Action date',
        'Score',
        'Comment',
        'Status',
        'Notification periods',
      ],
    });
    expect(new Set(tasks.marked.map((m) => m.code))).toEqual(new Set(['not-sent-by-action']));
    // Update sends its 8 values and the task, Score and status 3 and the task, Advance the task, the
    // comment-alone Update its comment and the task (its full update carries the rest, never emptied).
    expect(tasks.cellsChecked).toBe(9 + 4 + 1 + 2);
    // Every column of every flow has a place in the catalogue's own shapes: the template loses none.
    for (const flow of FLOWS) {
      const bound = fitFlow(flow, catalogueEnvironment(), standing);
      expect(bound.templateColumns('').map((c) => c.name)).toEqual(bound.columns('').map((c) => c.name));
    }
  });

  test("on a customer's file, every cell arrives at the file's own place, in the file's own shape", async () => {
    const report = await checkNothingDropped({ environment: env(customer), api: read });
    expect(report.failures).toEqual([]);
    const incidents = report.flows.find((f) => f.flow === 'incidents')!;
    expect(incidents.columns).toContain('channel');
    const [create, link] = incidents.requests;
    expect(create!.request.body).toMatchObject({
      incident: {
        title: expect.any(String),
        reportingOrganisation: { Guid: expect.any(String), Name: expect.any(String) },
        detectedAt: expect.stringMatching(/T00:00:00Z$/),
      },
      channel: 'email',
    });
    expect(link!.request.path).toMatch(/^\/incidents\/77777777-0000-4000-8000-\d{12}\/links$/);
    const contract = report.flows.find((f) => f.flow === 'contracts')!.requests[0]!;
    expect(contract.request.path).toMatch(/^\/vendors\/[0-9a-f-]{36}\/agreements$/);
    expect(contract.request.body).toMatchObject({ notice: '3 months' });
    const taskCheck = report.flows.find((f) => f.flow === 'tasks')!;
    const tasks = taskCheck.requests;
    expect(tasks.map((t) => t.request.method)).toEqual(['PUT', 'PATCH', 'POST', 'PUT']);
    expect(byRow(taskCheck.marked)['Score and status']).toEqual(['Name', 'Description', 'Responsible user', 'Reviewer', 'Action date', 'Notification periods']);
    expect(byRow(taskCheck.marked).Advance).toHaveLength(9);
    expect(tasks[1]!.request.body).toMatchObject({ Status: 'to_do' });
  });

  test('the harness finds a value that did not arrive', async () => {
    const report = await checkNothingDropped({
      environment: env(customer),
      api: read,
      flows: ['incidents'],
      record: (sent) => {
        const body = sent.request.body as { incident?: Record<string, unknown> };
        if (body?.incident) delete body.incident.narrative;
        return sent;
      },
    });
    expect(report.failures).toEqual([
      expect.stringMatching(/^Incidents row 1, Description: nothing at body \/incident\/narrative of POST \/incidents$/),
    ]);
  });

  test('the harness finds a task value that did not arrive: a status dropped from the score-and-status request', async () => {
    const report = await checkNothingDropped({
      environment: env(customer),
      api: read,
      flows: ['tasks'],
      record: (sent) => {
        if (sent.operationId === 'task-score-status') delete (sent.request.body as Record<string, unknown>).Status;
        return sent;
      },
    });
    expect(report.failures).toEqual([
      'Task updates row 2, Status: nothing at body /Status of PATCH /tasks/{taskId}/assessment',
    ]);
  });

  test('the harness finds a full update that empties a field the task has: a name nulled on its way', async () => {
    let updates = 0;
    const report = await checkNothingDropped({
      environment: env(customer),
      api: read,
      flows: ['tasks'],
      // The second update is the comment-alone row's: its name is carried, not typed.
      record: (sent) => {
        if (sent.operationId === 'task-update-v2' && ++updates === 2) (sent.request.body as Record<string, unknown>).Name = null;
        return sent;
      },
    });
    expect(report.failures).toEqual(['Task updates row 4: PUT /tasks/{taskId} empties Name (/Name), which the task has as "Check access"']);
  });

  test('a column whose field the file has no place for is not in the template, and a filled one is an error naming row, column and fix', async () => {
    const binding = bindingWith({ 'incident-create': unplace('Description') });
    const report = await checkNothingDropped({ environment: env(binding), api: read, flows: ['incidents'] });
    expect(report.failures).toEqual([]);
    expect(report.flows[0]!.columns).not.toContain('Description');
    expect(report.flows[0]!.columns).toContain('Name');

    // A sheet made before (or for another environment) still has the column.
    const workbook = createMemoryWorkbook();
    const api: WritebackApi = { ...read, send: async () => created('99999999-0000-4000-8000-0000000000d1') };
    const shape = await createTemplate({ api, workbook, flow: incidentsFlow, environment: env() });
    const row: Record<string, string> = { Name: 'Flood', 'Reporting organization': 'Finance', Description: 'water' };
    await workbook.writeRows(shape.name, 0, [shape.columns.map((c) => row[c] ?? null)]);
    const plan = await preparePost({ api, workbook, table: shape.name, flow: incidentsFlow, environment: env(binding) });
    expect(plan.validation.problems).toEqual([
      expect.objectContaining({
        row: 0,
        column: 'Description',
        severity: 'error',
        code: 'not-placed',
        message: expect.stringMatching(/no place for Description in POST \/incidents.*clear the cell, or ask the administrator to place it/),
      }),
    ]);
    expect(plan.toSend).toBe(0);
  });
});
