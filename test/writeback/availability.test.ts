/**
 * What a flow can do on an environment, from the relay's per-endpoint view: an operation the binding
 * lacks makes the flow unavailable before any template; an assumed path asks for a confirmation; a
 * dataset the flow reads that the environment lacks is named up front and never stops a post halfway.
 */
import { ApiError } from '../../src/client';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { ColumnSpec } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import {
  flowAvailability,
  lackingText,
  skippedText,
  type EndpointInfo,
  type EnvironmentInfo,
} from '../../src/writeback/environment/availability';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { preparePost } from '../../src/writeback/post';
import { createTemplate, FlowUnavailable } from '../../src/writeback/template';
import type { Binding } from '../../src/catalog';
import { bindingWith, extra, place } from './binding-fixture';
import { G, standing, created } from './fixtures';

const bound = (title: string, path: string): EndpointInfo => ({
  title,
  path,
  pathSource: 'bound',
  write: { kind: 'ok' },
});
const ACME = '10000000-0000-4000-8000-000000000001';

/** Every endpoint the flows use, bound; `over` changes some. */
function environment(
  production: boolean,
  over: Record<string, Partial<EndpointInfo>> = {},
  binding?: Binding,
): EnvironmentInfo {
  const ids = [
    'incident-create',
    'incident-hyperlink',
    'contract-create',
    'thirdparty-create',
    'task-update-v2',
    'task-score-status',
    'task-advance',
    'incidenttypes',
    'incidentclassifications',
    'incidenttypecustomfields',
    'riskrootcausecategory',
    'incidents',
    'thirdpartycontractcustomfields',
    'thirdparty',
    'thirdpartycontract',
    'thirdpartycustomfields',
    'tasks',
  ];
  const endpoints: Record<string, EndpointInfo> = {};
  for (const id of ids) endpoints[id] = { ...bound(id, `/bound/${id}`), ...over[id] };
  return { name: production ? 'PRD' : 'ACC', production, endpoints, ...(binding ? { binding } : {}) };
}

const missing = (message = 'the Swagger file has no such operation'): Partial<EndpointInfo> => ({
  unavailable: { reason: 'missing', message },
  write: { kind: 'unavailable', message },
});

describe('flowAvailability', () => {
  test('an operation the binding lacks makes the flow unavailable, saying what the admin does', () => {
    const a = flowAvailability(incidentsFlow, environment(true, { 'incident-create': missing() }));
    expect(a.post.kind).toBe('unavailable');
    expect(a.post.kind === 'unavailable' && a.post.message).toMatch(/Incidents cannot be posted to PRD/);
    expect(a.post.kind === 'unavailable' && a.post.message).toMatch(/docs\/binding\.md/);
  });

  test('an assumed path on a non-production environment asks for a confirmation naming the path', () => {
    const a = flowAvailability(
      contractsFlow,
      environment(false, {
        'contract-create': {
          pathSource: 'assumed',
          path: '/thirdpartydata/v1/contracts',
          write: { kind: 'confirm', message: 'assumed' },
        },
      }),
    );
    expect(a.post).toMatchObject({ kind: 'confirm' });
    expect(a.post.kind === 'confirm' && a.post.message).toMatch(
      /^Path assumed: contract-create at \/thirdpartydata\/v1\/contracts/,
    );
  });

  test('without per-endpoint information (an older relay) every flow is available and lacks nothing', () => {
    expect(flowAvailability(tasksFlow, { name: 'ACC', production: false })).toEqual({
      post: { kind: 'ok' },
      lacking: [],
      skipped: [],
    });
  });

  test('the contract flow names the datasets it lacks and what it cannot check without them', () => {
    const a = flowAvailability(
      contractsFlow,
      environment(false, { thirdparty: missing(), thirdpartycontract: { pathSource: 'assumed' } }),
    );
    expect(a.post.kind).toBe('ok');
    expect(a.lacking.map((l) => [l.id, l.reason])).toEqual([
      ['thirdparty', 'missing'],
      ['thirdpartycontract', 'assumed'],
    ]);
    expect(lackingText(a.lacking[0]!)).toMatch(/binding does not have it\. .*type the third party's GUID/);
    expect(lackingText(a.lacking[1]!)).toMatch(/path is a guess\. .*cannot be looked for in the service/);
  });
});

async function contractTable(rows: (string | null)[][]) {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({
    name: 'Con',
    sheet: 'Sheet1',
    anchor: 'A1',
    columns: ['Third party', 'Name', 'Result', 'Result GUID', 'Result message', 'Result time'].map(
      (name) => ({
        name,
        format: 'text' as const,
      }),
    ),
  });
  await workbook.writeRows('Con', 0, rows);
  return workbook;
}

describe('posting with lacking datasets', () => {
  test('never called when missing: the template is made, third parties are typed as GUIDs, a new row is posted', async () => {
    const env = environment(false, { thirdparty: missing() });
    const downloads: string[] = [];
    const posted: unknown[] = [];
    const api: WritebackApi = {
      async download(id) {
        downloads.push(id);
        return { records: [...(standing.get(id) ?? [])] };
      },
      async send(_op, o) {
        posted.push(o?.body);
        return created('99999999-0000-4000-8000-000000000001');
      },
    };
    const template = createMemoryWorkbook();
    await createTemplate({ api, workbook: template, flow: contractsFlow, environment: env });
    expect(downloads).not.toContain('thirdparty');

    const workbook = await contractTable([[ACME, 'Support']]);
    const plan = await preparePost({ api, workbook, table: 'Con', flow: contractsFlow, environment: env });
    expect(plan.validation.problems).toEqual([]);
    const summary = await plan.run();
    expect(summary.counts.created).toBe(1);
    expect(posted).toEqual([expect.objectContaining({ ThirdPartyGuid: ACME, Name: 'Support' })]);
  });

  test('a row of unknown outcome whose reconcile dataset is assumed and absent (404) stays unknown, saying why; the rest is posted', async () => {
    const env = environment(false, { thirdpartycontract: { pathSource: 'assumed' } });
    const api: WritebackApi = {
      async download(id) {
        if (id === 'thirdpartycontract')
          throw new ApiError({ code: 'not-found', sent: 'yes', status: 404, message: 'no such path' });
        return { records: [...(standing.get(id) ?? [])] };
      },
      async send() {
        return created('99999999-0000-4000-8000-000000000002');
      },
    };
    const workbook = await contractTable([
      [ACME, 'Earlier', 'unknown', '', 'connection closed', '2026-11-20T10:00:00.000Z'],
      [ACME, 'New', null, null, null, null],
    ]);
    const plan = await preparePost({ api, workbook, table: 'Con', flow: contractsFlow, environment: env });
    expect(plan.availability.lacking.map((l) => l.id)).toEqual(['thirdpartycontract']);
    const summary = await plan.run();
    expect(summary.stoppedBecause).toBeUndefined();
    expect(summary.counts).toMatchObject({ created: 1, unknown: 1 });
    const { rows } = await workbook.readRows('Con');
    expect(rows[0]![2]).toBe('unknown');
    expect(String(rows[0]![4])).toMatch(/cannot be checked on ACC.*Look for it in the service/);
  });

  test('an unavailable flow makes no template and its plan refuses to run', async () => {
    const env = environment(true, { 'contract-create': missing() });
    const api: WritebackApi = {
      download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
      send: async () => {
        throw new Error('must not be called');
      },
    };
    await expect(
      createTemplate({ api, workbook: createMemoryWorkbook(), flow: contractsFlow, environment: env }),
    ).rejects.toBeInstanceOf(FlowUnavailable);
    const workbook = await contractTable([[ACME, 'X']]);
    const plan = await preparePost({ api, workbook, table: 'Con', flow: contractsFlow, environment: env });
    expect(() => plan.run()).toThrow(/Contracts cannot be posted to PRD/);
  });

  test("an assumed path is part of the plan's confirmation", async () => {
    const env = environment(false, {
      'contract-create': {
        pathSource: 'assumed',
        path: '/x/contracts',
        write: { kind: 'confirm', message: 'm' },
      },
    });
    const api: WritebackApi = {
      download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
      send: async () => created('99999999-0000-4000-8000-000000000003'),
    };
    const workbook = await contractTable([[ACME, 'X']]);
    const plan = await preparePost({ api, workbook, table: 'Con', flow: contractsFlow, environment: env });
    expect(plan.confirmation?.message).toMatch(/^Path assumed: contract-create at \/x\/contracts/);
    expect(() => plan.run()).toThrow(/confirmation/);
    await expect(plan.run({ confirm: { environment: 'ACC', rows: 1 } })).resolves.toMatchObject({
      counts: { created: 1 },
    });
  });
});

describe('binding extras', () => {
  test('a property the binding requires gets a template column with its enum as dropdown, and is sent as extra', async () => {
    const env = environment(false, {}, bindingWith({ 'contract-create': extra('RiskTier', { values: ['Low', 'High'] }) }));
    const extras: unknown[] = [];
    const api: WritebackApi = {
      download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
      send: async (_op, o) => {
        extras.push((o.body as Record<string, unknown>).RiskTier);
        return created('99999999-0000-4000-8000-000000000004');
      },
    };
    const template = createMemoryWorkbook();
    const shape = await createTemplate({ api, workbook: template, flow: contractsFlow, environment: env });
    const { columns } = await template.readRows(shape.name);
    expect(columns).toContain('RiskTier');

    const workbook = createMemoryWorkbook();
    await workbook.createTable({
      name: 'Con',
      sheet: 'Sheet1',
      anchor: 'A1',
      columns: ['Third party', 'Name', 'RiskTier'].map((name) => ({ name, format: 'text' as const })),
    });
    await workbook.writeRows('Con', 0, [
      [ACME, 'A', 'High'],
      [ACME, 'B', null],
      [ACME, 'C', 'Medium'],
    ]);
    const plan = await preparePost({ api, workbook, table: 'Con', flow: contractsFlow, environment: env });
    expect(plan.validation.problems.map((p) => [p.row, p.column, p.code])).toEqual([
      [1, 'RiskTier', 'required'],
      [2, 'RiskTier', 'not-in-list'],
    ]);
    await plan.run();
    expect(extras).toEqual(['High']);
  });
});

describe('a step whose operation the environment lacks', () => {
  const fullApi = (calls: { id: string; body: unknown }[]): WritebackApi => ({
    download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
    send: async (id, o) => {
      calls.push({ id, body: o?.body });
      return created('99999999-0000-4000-8000-000000000005');
    },
  });

  /** A table made while the environment still had every operation (an older template). */
  async function tableWith(flow: typeof incidentsFlow | typeof tasksFlow, rows: Record<string, string>[]) {
    const workbook = createMemoryWorkbook();
    const shape = await createTemplate({ api: fullApi([]), workbook, flow, environment: environment(false) });
    await workbook.writeRows(
      shape.name,
      0,
      rows.map((r) => shape.columns.map((c) => r[c] ?? null)),
    );
    return { workbook, table: shape.name };
  }

  test('a missing hyperlink operation leaves incidents available, skips only the hyperlink, and says so', async () => {
    const env = environment(true, { 'incident-hyperlink': missing() });
    const a = flowAvailability(incidentsFlow, env);
    expect(a.post).toEqual({ kind: 'ok' });
    expect(a.skipped).toEqual([
      expect.objectContaining({
        id: 'incident-hyperlink',
        column: 'Hyperlink',
        message: "the hyperlink is not added: this environment's API file has no such operation",
      }),
    ]);
    expect(skippedText(a.skipped![0]!)).toMatch(/New templates have no Hyperlink column/);

    const template = await createTemplate({
      api: fullApi([]),
      workbook: createMemoryWorkbook(),
      flow: incidentsFlow,
      environment: env,
    });
    expect(template.columns).not.toContain('Hyperlink');
    expect(template.columns).toContain('Name');

    const calls: { id: string; body: unknown }[] = [];
    const { workbook, table } = await tableWith(incidentsFlow, [
      {
        Name: 'With link',
        'Reporting organization': 'Finance',
        Assessors: 'Ann',
        Responsible: 'Bob',
        Description: 'd',
        Hyperlink: 'https://example.com/x',
      },
      { Name: 'Plain', 'Reporting organization': 'Finance' },
    ]);
    const plan = await preparePost({
      api: fullApi(calls),
      workbook,
      table,
      flow: incidentsFlow,
      environment: env,
    });
    expect(plan.validation.problems).toEqual([
      expect.objectContaining({
        row: 0,
        column: 'Hyperlink',
        severity: 'warning',
        code: 'step-unavailable',
        message: expect.stringMatching(
          /^the hyperlink is not added: this environment's API file has no such operation/,
        ),
      }),
    ]);
    const summary = await plan.run({ confirm: { environment: 'PRD', rows: 2 } });
    expect(summary.counts.created).toBe(2);
    expect(calls.map((c) => c.id)).toEqual(['incident-create', 'incident-create']);
    const { rows, columns } = await workbook.readRows(table);
    const message = rows[0]![columns.indexOf('Result message')];
    expect(message).toBe(
      "Created; the hyperlink is not added: this environment's API file has no such operation",
    );
  });

  test('a missing main operation still makes the flow unavailable', () => {
    const a = flowAvailability(incidentsFlow, environment(true, { 'incident-create': missing() }));
    expect(a.post.kind).toBe('unavailable');
  });

  test('a missing score-and-status operation leaves task updates available and refuses only the rows that need it', async () => {
    const env = environment(false, { 'task-score-status': missing() });
    expect(flowAvailability(tasksFlow, env).post).toEqual({ kind: 'ok' });
    const task = standing.get('tasks')![0]!;
    const { workbook, table } = await tableWith(tasksFlow, [
      { Task: String(task.Id), Action: 'Score and status', Score: '3' },
      { Task: String(task.Id), Action: 'Update', Comment: 'still fine' },
    ]);
    const plan = await preparePost({ api: fullApi([]), workbook, table, flow: tasksFlow, environment: env });
    const errors = plan.validation.problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([expect.objectContaining({ row: 0, column: 'Action', code: 'step-unavailable' })]);
    expect(errors[0]!.message).toMatch(
      /^the score and status update is not done: this environment's API file has no such operation/,
    );
  });
});

describe('task updates, one operation per action', () => {
  const api: WritebackApi = {
    download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
    send: async () => ({ status: 204, headers: {}, body: undefined }),
  };

  test('an environment without the advance operation still updates tasks, offers no Advance and refuses an Advance row on its Action cell', async () => {
    const env = environment(false, { 'task-advance': missing() });
    expect(flowAvailability(tasksFlow, env).post.kind).not.toBe('unavailable');
    const specs: ColumnSpec[] = [];
    const workbook = createMemoryWorkbook();
    const createTable = workbook.createTable.bind(workbook);
    workbook.createTable = (o) => {
      specs.push(...o.columns);
      return createTable(o);
    };
    const shape = await createTemplate({ api, workbook, flow: tasksFlow, environment: env });
    expect(specs.find((c) => c.name === 'Action')?.list?.values).toEqual(['Update', 'Score and status']);
    const rows: Record<string, string>[] = [
      { Task: 'TASK-1', Action: 'Update', Comment: 'checked' },
      { Task: 'TASK-1', Action: 'Advance' },
    ];
    await workbook.writeRows(shape.name, 0, rows.map((r) => shape.columns.map((c) => r[c] ?? null)));
    const plan = await preparePost({ api, workbook, table: shape.name, flow: tasksFlow, environment: env });
    expect(plan.validation.problems.filter((p) => p.severity === 'error')).toEqual([
      expect.objectContaining({ row: 1, column: 'Action', code: 'step-unavailable' }),
    ]);
    expect((await plan.run()).counts.done).toBe(1);
  });

  test('an environment with none of the three is unavailable, naming each', () => {
    const env = environment(false, { 'task-advance': missing('no advance'), 'task-update-v2': missing('no update'), 'task-score-status': missing('no score') });
    const post = flowAvailability(tasksFlow, env).post;
    expect(post.kind).toBe('unavailable');
    expect(post.kind === 'unavailable' && post.message).toMatch(/no update.*no advance.*no score/);
  });
});

describe('a name the binding wants as a GUID', () => {
  const guidBody = bindingWith({
    'incident-create': place('ReportingOrganization', {
      at: '/ReportingOrganization',
      encoding: { kind: 'guid', list: 'organizations', value: 'name' },
    }),
  });

  async function postIncident(
    env: EnvironmentInfo,
    organizations = true,
    result: (string | null)[] = [],
    incidents: Record<string, unknown>[] = [],
  ) {
    const posted: unknown[] = [];
    const api: WritebackApi = {
      download: async (id) => {
        if (id === 'organizations' && !organizations)
          throw new ApiError({ code: 'not-found', sent: 'yes', status: 404, message: 'no such path' });
        return { records: id === 'incidents' ? incidents : [...(standing.get(id) ?? [])] };
      },
      send: async (_id, o) => {
        posted.push(o?.body);
        return created('99999999-0000-4000-8000-000000000006');
      },
    };
    const workbook = createMemoryWorkbook();
    const shape = await createTemplate({
      api,
      workbook,
      flow: incidentsFlow,
      environment: environment(false),
    });
    const [status, message, time] = result;
    const row: Record<string, string | null | undefined> = {
      Name: 'Flood',
      'Reporting organization': 'finance',
      Result: status,
      'Result message': message,
      'Result time': time,
    };
    await workbook.writeRows(shape.name, 0, [shape.columns.map((c) => row[c] ?? null)]);
    const plan = await preparePost({
      api,
      workbook,
      table: shape.name,
      flow: incidentsFlow,
      environment: env,
    });
    return { plan, posted };
  }

  test("is sent as the GUID of the name from the standing data, under the catalogue's field", async () => {
    const { plan, posted } = await postIncident(
      environment(false, {}, guidBody),
    );
    expect(plan.validation.problems).toEqual([]);
    await plan.run();
    expect(posted).toEqual([expect.objectContaining({ Name: 'Flood', ReportingOrganization: G.orgFinance })]);
  });

  test("a row of unknown outcome is still found by the name the service's records show", async () => {
    const env = environment(false, {}, guidBody);
    const record = {
      Id: '88888888-0000-4000-8000-000000000001',
      Name: 'Flood',
      ReportingOrganization: 'Finance',
      DateRegistered: '2026-11-20T10:00:05Z',
    };
    const { plan, posted } = await postIncident(
      env,
      true,
      ['unknown', 'connection closed', '2026-11-20T10:00:00.000Z'],
      [record],
    );
    const summary = await plan.run();
    expect(posted).toEqual([]);
    expect(summary.outcomes).toEqual([expect.objectContaining({ status: 'created', guid: record.Id })]);
  });

  test('without a binding that wants one, the name is sent as the service spells it', async () => {
    const { plan, posted } = await postIncident(environment(false));
    await plan.run();
    expect(posted).toEqual([expect.objectContaining({ ReportingOrganization: 'Finance' })]);
  });

  test('is an error on the column when the environment lacks the list to look the name up in', async () => {
    const env = environment(false, { organizations: missing('no organizations') }, guidBody);
    const { plan, posted } = await postIncident(env, false);
    expect(plan.validation.problems).toEqual([
      expect.objectContaining({ column: 'Reporting organization', code: 'no-list', severity: 'error' }),
    ]);
    await plan.run();
    expect(posted).toEqual([]);
  });
});

describe("an enum value the environment's file adds to a field the flow fills", () => {
  test("is in the template's dropdown, accepted by validation and sent as the file spells it", async () => {
    const env = environment(
      false,
      {},
      bindingWith({
        'contract-create': place('NoticePeriodUnit', {
          encoding: { kind: 'enum', values: ['Months', 'Weeks', 'Days', 'None', 'Years'], map: {} },
        }),
      }),
    );
    const posted: unknown[] = [];
    const api: WritebackApi = {
      download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
      send: async (_op, o) => {
        posted.push(o?.body);
        return created('99999999-0000-4000-8000-000000000007');
      },
    };
    const template = createMemoryWorkbook();
    const specs: ColumnSpec[] = [];
    const createTable = template.createTable.bind(template);
    template.createTable = (o) => {
      specs.push(...o.columns);
      return createTable(o);
    };
    await createTemplate({ api, workbook: template, flow: contractsFlow, environment: env });
    expect(specs.find((c) => c.name === 'Notice period unit')?.list?.values).toEqual([
      'Months',
      'Weeks',
      'Days',
      'None',
      'Years',
    ]);

    const workbook = createMemoryWorkbook();
    await workbook.createTable({
      name: 'Units',
      sheet: 'Sheet1',
      anchor: 'A1',
      columns: ['Third party', 'Name', 'Notice period', 'Notice period unit'].map((name) => ({
        name,
        format: 'text' as const,
      })),
    });
    await workbook.writeRows('Units', 0, [[ACME, 'Long', 2, 'years']]);
    const plan = await preparePost({ api, workbook, table: 'Units', flow: contractsFlow, environment: env });
    expect(plan.validation.problems).toEqual([]);
    await plan.run();
    expect(posted).toEqual([
      expect.objectContaining({ Name: 'Long', NoticePeriod: 2, NoticePeriodUnit: 'Years' }),
    ]);
  });
});
