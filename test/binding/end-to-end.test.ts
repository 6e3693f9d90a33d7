import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { Binding } from '../../src/catalog/binding';
import { catalog, createCatalog } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { environmentList, RELAY_ERROR_HEADER } from '../../src/contracts/environments';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { AnyFlow } from '../../src/writeback/flow';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { thirdPartiesFlow } from '../../src/writeback/flows/thirdparties';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';
import { FIXTURES, importFixture } from './import-fixture';

/**
 * The whole way a team meets its own service: the Swagger file is imported into a binding, a sandbox is
 * shaped by that binding (its paths, its property names, its required properties), the relay is started
 * from the same binding, and every write-back flow runs through the relay with the real client. What
 * arrives is checked in the sandbox's own store.
 */
const ACC = { name: 'acc', production: false };

interface World {
  binding: Binding;
  sandbox: Sandbox;
  prdSandbox: Sandbox;
  relay: Relay;
  client: GrcClient;
}

async function startWorld(binding: Binding): Promise<World> {
  const file = join(mkdtempSync(join(tmpdir(), 'e2e-binding-')), 'binding.json');
  writeFileSync(file, JSON.stringify(binding));
  const sandbox = await startSandbox({ scale: 50, seed: 3, environment: 'ACC', binding });
  // PRD has no binding yet (the Swagger file reached ACC first): its assumed paths are never posted to.
  const prdSandbox = await startSandbox({ scale: 50, seed: 3, environment: 'PRD' });
  const relay = await startRelay({
    listen: { host: '127.0.0.1', port: 0 },
    environments: {
      acc: { baseUrl: sandbox.url, binding: file },
      prd: { baseUrl: prdSandbox.url, production: true },
    },
    logLevel: 'silent',
  });
  const client = createClient({
    baseUrl: `${relay.url}/api/acc`,
    credentials: sandbox.demoKey!,
    catalog: createCatalog(binding),
  });
  return { binding, sandbox, prdSandbox, relay, client };
}

async function stopWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  await w.relay.close();
  await Promise.all([w.sandbox.close(), w.prdSandbox.close()]);
}

async function post(w: World, flow: AnyFlow, rows: Record<string, Cell>[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: w.client, workbook, flow, environment: ACC });
  await workbook.writeRows(
    shape.name,
    0,
    rows.map((r) => shape.columns.map((c) => r[c] ?? null)),
  );
  const plan = await preparePost({ api: w.client, workbook, table: shape.name, flow, environment: ACC });
  const errors = plan.validation.problems.filter((p) => p.severity === 'error');
  expect(errors.map((p) => `${p.row}:${p.column}:${p.code}`)).toEqual([]);
  return plan.run();
}

/** GETs a path of the sandbox directly (not through the client): what the service itself sends. */
async function rawGet(w: World, path: string): Promise<unknown> {
  const { identifier, password } = w.sandbox.demoKey!;
  const res = await request(`${w.sandbox.url}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}` },
  });
  return res.body.json();
}

describe.each([...FIXTURES])('end to end from the Swagger file %s', (fixture) => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(await importFixture(fixture));
  });
  afterAll(() => stopWorld(w));

  it("loads a dataset through the relay: the sandbox speaks the file's names, the client reads catalogue fields", async () => {
    const risk = w!.binding.endpoints.risk!;
    const wire = (await rawGet(w!, risk.path)) as Record<string, unknown>[];
    const { records } = await w!.client.download('risk');
    expect(records).toHaveLength(wire.length);
    expect(records.length).toBeGreaterThan(0);
    const nameOnWire = risk.record?.properties.Name;
    expect(typeof nameOnWire).toBe('string');
    expect(records[0]!.Name).toBe(wire[0]![nameOnWire as string]);
  });

  it('posts incidents, third parties, contracts and task updates through the relay into the sandbox', async () => {
    const { sandbox, client } = w!;
    const incidents = await post(w!, incidentsFlow, [
      { Name: `e2e-${fixture}-incident`, 'Reporting organization': 'Finance', Classification: 'High' },
    ]);
    expect(incidents.outcomes.map((o) => o.status)).toEqual(['created']);
    expect(
      sandbox.store.addedRecords('incidents').map((r) => [r.Name, r.ReportingOrganization]),
    ).toContainEqual([`e2e-${fixture}-incident`, 'Finance']);

    const parties = await post(w!, thirdPartiesFlow, [{ Name: `e2e-${fixture}-party`, Criticality: 'Low' }]);
    expect(parties.outcomes.map((o) => o.status)).toEqual(['created']);
    const party = sandbox.store.addedRecords('thirdparty').find((r) => r.Name === `e2e-${fixture}-party`);
    expect(party?.Id).toBe(parties.outcomes[0]!.guid);

    const contracts = await post(w!, contractsFlow, [
      {
        'Third party': `e2e-${fixture}-party`,
        Name: `e2e-${fixture}-contract`,
        'Notice period unit': 'None',
      },
    ]);
    expect(contracts.outcomes.map((o) => o.status)).toEqual(['created']);
    expect(
      sandbox.store
        .addedRecords('thirdpartycontract')
        .map((r) => [r.Name, r.ThirdPartyGuid, r.NoticePeriodUnit]),
    ).toContainEqual([`e2e-${fixture}-contract`, party!.Id, 'None']);

    const { records: tasks } = await client.download('tasks');
    const todo = tasks.find((t) => t.Status === 'To do')!;
    const updated = await post(w!, tasksFlow, [
      { Task: todo.Id as string, Action: 'Update', Comment: `e2e ${fixture}`, 'Action date': '2025-09-30' },
    ]);
    expect(updated.outcomes.map((o) => o.status)).toEqual(['done']);
    expect(sandbox.store.find('tasks', todo.Id as string)).toMatchObject({
      Comment: `e2e ${fixture}`,
      ActionDate: '2025-09-30',
    });
  });

  it('refuses a blind POST on production: PRD has no binding, the create path is assumed, nothing is sent', async () => {
    const before = w!.prdSandbox.store.addedRecords('incidents').length;
    const prd = createClient({ baseUrl: `${w!.relay.url}/api/prd`, credentials: w!.prdSandbox.demoKey! });
    const refused = await prd
      .call('incident-create', { body: { Name: 'blind', ReportingOrganization: 'Finance' } })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'relay', sent: 'no', status: 403 });
    expect((refused as Error).message).toContain('docs/binding.md');
    expect(w!.prdSandbox.store.addedRecords('incidents')).toHaveLength(before);
  });

  it('tells the taskpane, per environment, what is bound, assumed and unavailable', async () => {
    const res = await request(`${w!.relay.url}/api/environments`);
    const [acc, prd] = environmentList.parse(await res.body.json());
    expect(acc!.endpoints['incident-create']).toMatchObject({ pathSource: 'bound', write: { kind: 'ok' } });
    expect(prd!.endpoints['incident-create']).toMatchObject({
      pathSource: 'assumed',
      write: { kind: 'unavailable' },
    });
    for (const id of w!.binding.missing) {
      expect(acc!.endpoints[id]).toMatchObject({ unavailable: { reason: 'missing' } });
    }
  });

  it('makes an operation the file lacks unavailable: the client refuses it and the relay never forwards it', async () => {
    const [id] = w!.binding.missing.filter((m) => catalog.get(m).kind === 'operation');
    expect(id).toBeDefined();
    const op = catalog.operation(id!);
    const e = await w!.client
      .call(id!, { params: { guid: '00000000-0000-4000-8000-000000000001' }, body: {} })
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'not-found', sent: 'no' });
    const { identifier, password } = w!.sandbox.demoKey!;
    const res = await request(
      `${w!.relay.url}/api/acc${op.path.replace('{guid}', '00000000-0000-4000-8000-000000000001')}`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    );
    await res.body.text();
    expect(res.statusCode).toBe(404);
    expect(res.headers[RELAY_ERROR_HEADER]).toBeDefined();
  });
});
