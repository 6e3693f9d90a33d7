import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { bodies, boundFor, catalog, createCatalog, type Binding } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { environmentList, RELAY_ERROR_HEADER, type EnvironmentView } from '../../src/contracts/environments';
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
import { adminFixes, importFixture } from './import-fixture';

/**
 * The whole way a team meets its own service: the customer's Swagger file is imported into a binding, the
 * admin settles what the import report asks (picks an ambiguous pair, gives a required property the flows do
 * not fill a default), a sandbox is shaped by that binding (its paths, its property names, its required
 * properties), the relay is started from the same binding file, and the write-back flows run through the relay
 * with the real client. What arrives is checked in the sandbox's own store.
 *
 * acme.swagger.json (Swagger 2.0): camelCase, moved paths, nested reference objects, an extra required
 * property, no create-contract operation. globex.openapi.yaml (OpenAPI 3): PascalCase, paths under /api,
 * a contract body with ThirdParty: { Guid } and an extra required property, an ambiguous create-third-party
 * pair, no task score-and-status.
 */
const NIL_GUID = '00000000-0000-4000-8000-000000000001';

interface World {
  imported: Binding;
  binding: Binding;
  sandbox: Sandbox;
  prdSandbox: Sandbox;
  relay: Relay;
  client: GrcClient;
  /** What the relay says about ACC: the flows learn the binding (bound bodies, extra properties) from it. */
  acc: EnvironmentView;
}

async function startWorld(imported: Binding): Promise<World> {
  const binding = adminFixes(imported);
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
  // The taskpane builds its client's catalogue from what the relay says about the environment.
  const [acc] = environmentList.parse(await (await request(`${relay.url}/api/environments`)).body.json());
  const client = createClient({
    baseUrl: `${relay.url}/api/acc`,
    credentials: sandbox.demoKey!,
    catalog: createCatalog(acc!.binding ?? undefined),
  });
  return { imported, binding, sandbox, prdSandbox, relay, client, acc: acc! };
}

async function stopWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  await w.relay.close();
  await Promise.all([w.sandbox.close(), w.prdSandbox.close()]);
}

async function post(w: World, flow: AnyFlow, rows: Record<string, Cell>[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: w.client, workbook, flow, environment: w.acc });
  await workbook.writeRows(
    shape.name,
    0,
    rows.map((r) => shape.columns.map((c) => r[c] ?? null)),
  );
  const plan = await preparePost({ api: w.client, workbook, table: shape.name, flow, environment: w.acc });
  const errors = plan.validation.problems.filter((p) => p.severity === 'error');
  expect(errors.map((p) => `${p.row}:${p.column}:${p.code}`)).toEqual([]);
  return plan.run();
}

const basic = (key: { identifier: string; password: string }) =>
  `Basic ${Buffer.from(`${key.identifier}:${key.password}`).toString('base64')}`;

/** GETs a path of the sandbox directly (not through the client): what the service itself sends. */
async function rawGet(w: World, path: string): Promise<unknown> {
  const res = await request(`${w.sandbox.url}${path}`, {
    headers: { authorization: basic(w.sandbox.demoKey!) },
  });
  return res.body.json();
}

const available = (w: World, id: string) => boundFor(w.binding, id) !== undefined;

describe.each(['acme.swagger.json', 'globex.openapi.yaml'])(
  'end to end from the customer file %s',
  (fixture) => {
    let w: World | undefined;
    beforeAll(async () => {
      w = await startWorld(await importFixture(fixture));
    });
    afterAll(() => stopWorld(w));

    it("loads a dataset through the relay: the sandbox speaks the file's names, the client reads catalogue fields", async () => {
      const risk = boundFor(w!.binding, 'risk')!;
      const nameOnWire = risk.record?.properties.Name;
      expect(typeof nameOnWire).toBe('string');
      const wire = (await rawGet(w!, risk.path)) as Record<string, unknown>[];
      const { records } = await w!.client.download('risk');
      expect(records.length).toBeGreaterThan(0);
      expect(records).toHaveLength(wire.length);
      expect(records.map((r) => r.Name)).toEqual(wire.map((r) => r[nameOnWire as string]));
    });

    it('posts incidents and task updates through the relay into the sandbox', async () => {
      const { sandbox, client } = w!;
      const name = `e2e-${fixture}-incident`;
      const incidents = await post(w!, incidentsFlow, [
        { Name: name, 'Reporting organization': 'Finance', Classification: 'High' },
      ]);
      expect(incidents.outcomes.map((o) => [o.status, o.message])).toEqual([['created', expect.any(String)]]);

      const stored = sandbox.store.addedRecords('incidents').find((r) => r.Name === name);
      // acme's file wants the organization's GUID (reportingOrganization.guid): the flow sends Finance's GUID.
      const finance = (await client.download('organizations')).records.find((o) => o.Name === 'Finance')!;
      const wantsGuid =
        boundFor(w!.binding, 'incident-create')!.body!.formats.ReportingOrganization === 'uuid';
      expect(wantsGuid).toBe(fixture === 'acme.swagger.json');
      expect(stored).toMatchObject({
        Id: incidents.outcomes[0]!.guid,
        ReportingOrganization: wantsGuid ? finance.Id : 'Finance',
      });

      const { records: tasks } = await client.download('tasks');
      const todo = tasks.find((t) => t.Status === 'To do')!;
      const updated = await post(w!, tasksFlow, [
        { Task: todo.Id as string, Action: 'Update', Comment: `e2e ${fixture}`, 'Action date': '2025-09-30' },
      ]);
      expect(updated.outcomes.map((o) => [o.status, o.message])).toEqual([['done', 'Updated']]);
      expect(sandbox.store.find('tasks', todo.Id as string)).toMatchObject({
        Comment: `e2e ${fixture}`,
        ActionDate: '2025-09-30',
      });
    });

    it('posts third parties, and contracts where the file has them, through the relay into the sandbox', async () => {
      const { sandbox } = w!;
      const partyName = `e2e-${fixture}-party`;
      const parties = await post(w!, thirdPartiesFlow, [{ Name: partyName, Criticality: 'Low' }]);
      expect(parties.outcomes.map((o) => o.status)).toEqual(['created']);
      const party = sandbox.store.addedRecords('thirdparty').find((r) => r.Name === partyName);
      expect(party?.Id).toBe(parties.outcomes[0]!.guid);

      if (!available(w!, 'contract-create')) {
        const e = await w!.client.call('contract-create', { body: {} }).catch((x: unknown) => x);
        expect(e).toMatchObject({ code: 'not-found', sent: 'no' });
        return;
      }
      // A unit only the customer's file lists (globex: Years) is offered, accepted and sent as the file spells it.
      const fileUnits = boundFor(w!.binding, 'contract-create')!.body!.enums.NoticePeriodUnit?.values ?? [];
      const unit = fileUnits.find((u) => !(bodies.NOTICE_PERIOD_UNITS as readonly string[]).includes(u));
      expect(unit).toBe(fixture === 'globex.openapi.yaml' ? 'Years' : undefined);
      const contracts = await post(w!, contractsFlow, [
        { 'Third party': partyName, Name: `e2e-${fixture}-contract`, 'Notice period unit': 'None' },
        ...(unit
          ? [
              {
                'Third party': partyName,
                Name: `e2e-${fixture}-long`,
                'Notice period': 2,
                'Notice period unit': unit.toLowerCase(),
              },
            ]
          : []),
      ]);
      expect(contracts.outcomes.map((o) => o.status)).toEqual(unit ? ['created', 'created'] : ['created']);
      const stored = sandbox.store
        .addedRecords('thirdpartycontract')
        .map((r) => [r.Name, r.ThirdPartyGuid, r.NoticePeriodUnit]);
      expect(stored).toContainEqual([`e2e-${fixture}-contract`, party!.Id, 'None']);
      if (unit) expect(stored).toContainEqual([`e2e-${fixture}-long`, party!.Id, unit]);
    });

    it('refuses locally, before sending, a body missing a property the file requires and nobody gave a default', async () => {
      // The binding as imported, before the admin gave the extra required properties a default.
      const [id, shape] = Object.entries(w!.imported.endpoints).find(([, e]) =>
        e.body?.extra?.some((x) => x.default === undefined),
      )!;
      const property = shape.body!.extra!.find((x) => x.default === undefined)!.name;
      const before = w!.sandbox.store.counts();
      const raw = createClient({
        baseUrl: `${w!.relay.url}/api/acc`,
        credentials: w!.sandbox.demoKey!,
        catalog: createCatalog(w!.imported),
      });
      const body =
        id === 'incident-create'
          ? { Name: 'x', ReportingOrganization: 'Finance' }
          : { ThirdPartyGuid: NIL_GUID, Name: 'x', NoticePeriodUnit: 'None' };
      const e = await raw.call(id, { body }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'invalid-body', sent: 'no', details: [{ field: property }] });
      expect(w!.sandbox.store.counts()).toEqual(before);
      // The sandbox, shaped like the service, refuses the same body sent by hand.
      const res = await request(`${w!.sandbox.url}${shape.path}`, {
        method: 'POST',
        headers: { authorization: basic(w!.sandbox.demoKey!), 'content-type': 'application/json' },
        body: JSON.stringify({}),
      });
      expect(res.statusCode).toBe(400);
      const answer = (await res.body.json()) as { errors: { field: string }[] };
      expect(answer.errors.map((x) => x.field)).toContain(property);
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
      expect(w!.binding.missing.length).toBeGreaterThan(0);
      for (const id of w!.binding.missing)
        expect(acc!.endpoints[id]).toMatchObject({ unavailable: { reason: 'missing' } });
      for (const x of w!.binding.extraDatasets)
        expect(acc!.endpoints[x.id]).toMatchObject({ kind: 'dataset', path: x.path });
    });

    it('makes an operation the file lacks unavailable: the client refuses it and the relay never forwards it', async () => {
      const id = w!.binding.missing.find((m) => catalog.get(m).kind === 'operation')!;
      expect(id).toBeDefined();
      const op = catalog.operation(id);
      const e = await w!.client.call(id, { params: { guid: NIL_GUID }, body: {} }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'not-found', sent: 'no' });
      const res = await request(`${w!.relay.url}/api/acc${op.path.replace('{guid}', NIL_GUID)}`, {
        method: 'POST',
        headers: { authorization: basic(w!.sandbox.demoKey!), 'content-type': 'application/json' },
        body: '{}',
      });
      await res.body.text();
      expect(res.statusCode).toBe(404);
      expect(res.headers[RELAY_ERROR_HEADER]).toBe('endpoint-unavailable');
    });
  },
);
