/**
 * Issue 20's two write-back bugs with an extra required property in the binding (a property of the
 * customer's file that no catalogue field fills, so the template gains a column for it). Before the fix
 * the extras wrapper spread the prepared flow, so `followUp` and `rebase` were handed the wrapper instead
 * of the row's request: an incident with a hyperlink was created without it while its Result said
 * "Created", and every task update failed with "Cannot convert undefined or null to object".
 */
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import type { EndpointInfo, EnvironmentInfo } from '../../src/writeback/environment/availability';
import type { AnyFlow } from '../../src/writeback/flow';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { bindingWith, extra } from './binding-fixture';
import { created, G, standing } from './fixtures';

const IDS = [
  'incident-create',
  'incident-hyperlink',
  'task-update-v2',
  'task-score-status',
  'task-advance',
  'incidenttypes',
  'incidentclassifications',
  'incidenttypecustomfields',
  'riskrootcausecategory',
  'incidents',
  'tasks',
];

/** Every endpoint bound; `extraOn` requires a property no catalogue field fills. */
function environment(extraOn: string): EnvironmentInfo {
  const endpoints: Record<string, EndpointInfo> = {};
  for (const id of IDS) endpoints[id] = { title: id, path: `/bound/${id}`, pathSource: 'bound', write: { kind: 'ok' } };
  const binding = bindingWith({ [extraOn]: extra('Severity', { values: ['Low', 'High'] }) });
  return { name: 'ACC', production: false, endpoints, binding };
}

interface Call {
  id: string;
  path: string;
  body: unknown;
}

function recordingApi(calls: Call[]): WritebackApi {
  return {
    download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
    send: async (id, r) => {
      calls.push({ id, path: r.path, body: r.body });
      return id === 'incident-create'
        ? created('99999999-0000-4000-8000-0000000000e1')
        : { status: 204, headers: {}, body: undefined };
    },
  };
}

async function sheet(flow: AnyFlow, env: EnvironmentInfo, rows: Record<string, Cell>[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: recordingApi([]), workbook, flow, environment: env });
  expect(shape.columns).toContain('Severity');
  await workbook.writeRows(shape.name, 0, rows.map((r) => shape.columns.map((c) => r[c] ?? null)));
  return { workbook, table: shape.name };
}

describe('an extra column of a step the row does not make', () => {
  test("an incident row without a hyperlink that fills the hyperlink's extra column is refused on that cell, nothing sent", async () => {
    const env = environment('incident-hyperlink');
    const s = await sheet(incidentsFlow, env, [
      { Name: 'Flood', 'Reporting organization': 'Finance', Assessors: 'Ann', Responsible: 'Bob', Severity: 'High' },
    ]);
    const calls: Call[] = [];
    const plan = await preparePost({ api: recordingApi(calls), ...s, flow: incidentsFlow, environment: env });
    expect(plan.validation.problems).toEqual([
      expect.objectContaining({
        row: 0,
        column: 'Severity',
        severity: 'error',
        code: 'not-sent-by-action',
        message: 'Severity goes with the hyperlink, which this row does not make, so it would not be sent; clear Severity, or type it on a row that makes the hyperlink',
      }),
    ]);
    expect(plan.toSend).toBe(0);
  });
});

describe('an extra required property in the binding', () => {
  test('an incident row with a hyperlink is created and then gets its hyperlink', async () => {
    const env = environment('incident-create');
    const s = await sheet(incidentsFlow, env, [
      {
        Name: 'Flood',
        'Reporting organization': 'Finance',
        Assessors: 'Ann',
        Responsible: 'Bob',
        Description: 'water in the server room',
        Hyperlink: 'https://example.com/flood',
        Severity: 'High',
      },
    ]);
    const calls: Call[] = [];
    const plan = await preparePost({ api: recordingApi(calls), ...s, flow: incidentsFlow, environment: env });
    expect(plan.validation.problems).toEqual([]);
    const summary = await plan.run();
    expect(calls.map((c) => c.id)).toEqual(['incident-create', 'incident-hyperlink']);
    expect(calls[0]!.body).toMatchObject({ Name: 'Flood', Severity: 'High' });
    expect(calls[1]).toMatchObject({
      path: '/incidents/99999999-0000-4000-8000-0000000000e1/hyperlink',
      body: { Url: 'https://example.com/flood' },
    });
    expect(summary.outcomes).toEqual([
      expect.objectContaining({ status: 'created', message: 'Created; hyperlink added' }),
    ]);
  });

  test('task update rows are sent, with the extra value, one after the other for one task', async () => {
    const env = environment('task-update-v2');
    const s = await sheet(tasksFlow, env, [
      { Task: 'TASK-1', Action: 'Update', Comment: 'first', Severity: 'Low' },
      { Task: 'TASK-1', Action: 'Update', Name: 'Renamed', Severity: 'High' },
    ]);
    const calls: Call[] = [];
    const plan = await preparePost({ api: recordingApi(calls), ...s, flow: tasksFlow, environment: env });
    expect(plan.validation.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const summary = await plan.run();
    expect(summary.outcomes.map((o) => [o.status, o.message])).toEqual([
      ['done', 'Updated'],
      ['done', 'Updated'],
    ]);
    expect(calls).toEqual([
      expect.objectContaining({
        id: 'task-update-v2',
        path: expect.stringContaining(G.taskTodo),
        body: expect.objectContaining({ Comment: 'first', Severity: 'Low' }),
      }),
      // The second row keeps what the first set (rebase), and carries its own extra value.
      expect.objectContaining({
        id: 'task-update-v2',
        path: expect.stringContaining(G.taskTodo),
        body: expect.objectContaining({ Comment: 'first', Name: 'Renamed', Severity: 'High' }),
      }),
    ]);
  });
});
