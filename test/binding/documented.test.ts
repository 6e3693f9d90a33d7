import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { importBinding, type ImportResult } from '../../src/binding/import';
import { formatReport } from '../../src/binding-report/report';
import { catalog, createCatalog, encodeRequest, readCreatedId, type Binding, type BoundOperation } from '../../src/catalog';
import { createClient, type GrcClient } from '../../src/client';
import { RELAY_ERROR_HEADER } from '../../src/contracts/environments';
import { startRelay, type Relay } from '../../src/relay';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { run as refresh } from '../../src/cli/refresh';
import { loadDataset } from '../../src/loading/load';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { saveFakeExcel } from '../support/excel-file';
import { cliIo } from '../support/sandbox';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';
import { captureLog, errorCode } from '../relay/helpers';
import { relayViews } from '../relay/helpers';

/**
 * Issue 24, "a binding takes documented datasets away": a customer's file written as Swashbuckle writes an
 * ASP.NET Core service (OpenAPI 3.0, no operationIds, bare uuid answers, `object` records) that lists none of
 * the DirectData paths the spec documents. Imported, then served by the bound sandbox behind a real relay.
 */
const FILE = join(__dirname, 'fixtures', 'no-directdata.swashbuckle.json');
/** The documented datasets audit teams and custom-field reports read. */
const DOCUMENTED = [
  'audit',
  'auditfinding',
  'riskcustomfields',
  'riskcustomfieldvalues',
  'thirdpartycustomfields',
  'thirdpartycustomfieldvalues',
  'thirdpartycontractcustomfields',
  'thirdpartycontractcustomfieldvalues',
  'controlcustomfields',
  'controlcustomfieldvalues',
];

let dir: string;
let imported: ImportResult;
let declined: ImportResult;
let sandbox: Sandbox;
let relay: Relay;

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grc-documented-'));
  // The file's organizations list answers bare `object` records; the admin binds it by hand.
  const use = 'use organizations = GET /api/v1/Organization\n';
  imported = await importBinding(FILE, { overrides: write('acc.overrides', use) });
  declined = await importBinding(FILE, { overrides: write('declined.overrides', `${use}none audit   # we do not run audits here\n`) });
  sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 40, binding: imported.binding, apiFile: FILE });
  relay = await startRelay(
    {
      listen: { host: '127.0.0.1', port: 0 },
      environments: {
        acc: { baseUrl: sandbox.url, binding: write('acc.json', JSON.stringify(imported.binding)) },
        declined: { baseUrl: sandbox.url, binding: write('declined.json', JSON.stringify(declined.binding)) },
      },
    },
    { logDestination: captureLog() },
  );
}, 60_000);
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const through = (env: string, binding: Binding): GrcClient =>
  createClient({ baseUrl: `${relay.url}/api/${env}`, credentials: sandbox.demoKey!, catalog: createCatalog(binding) });
const auth = () => `Basic ${Buffer.from(`${sandbox.demoKey!.identifier}:${sandbox.demoKey!.password}`).toString('base64')}`;

describe('a documented dataset the file does not list', () => {
  it('is kept at the spec path by the import: the report and the binding say so, and how to take it away', () => {
    const b = imported.binding;
    for (const id of DOCUMENTED) {
      expect(b.endpoints[id]).toBeUndefined();
      expect(b.missing[id]).toBe('no operation of the file fits');
      expect(b.consequences).toContainEqual(expect.objectContaining({ kind: 'documented-not-in-file', endpoint: id }));
    }
    const report = formatReport(imported, { overrides: 'acc.overrides' });
    expect(report).toMatch(/Documented datasets the file does not list: 23 \(documented, not in your API file\)/);
    expect(report).toContain('To take one away, add to acc.overrides:  none <id>');
    expect(report).toContain('  Audits (audit): GET /directdata/v1/audit');
    expect(report).not.toMatch(/Datasets unavailable in the taskpane \(\d+\): [^\n]*\bAudits\b/);
    // Assumed paths still need the file or an override.
    expect(report).toMatch(/Datasets unavailable in the taskpane \(\d+\): [^\n]*Audit context custom field definitions/);

    const off = formatReport(declined, { overrides: 'declined.overrides' });
    expect(declined.binding.none).toEqual(['audit']);
    expect(off).toMatch(/Documented datasets the file does not list: 22/);
    expect(off).toMatch(/Datasets unavailable in the taskpane \(\d+\): Audits, /);
  });

  it('loads through the relay (real HTTP) to the bound sandbox: audits, audit findings and every documented custom field dataset', async () => {
    const client = through('acc', imported.binding);
    for (const id of DOCUMENTED) {
      const { count } = await client.download(id, { onBatch: () => undefined });
      expect([id, count]).toEqual([id, sandbox.store.count(id)]);
      expect(count).toBeGreaterThan(0);
    }
    // The relay's environment view, which the taskpane builds its catalogue from, marks them.
    const view = (await relayViews(relay.url)).find((e) => e.name === 'acc')!;
    expect(view.endpoints.audit).toMatchObject({ path: '/directdata/v1/audit', pathSource: 'documented', notInFile: true });
    expect(view.endpoints.audit!.unavailable).toBeUndefined();
    expect(view.endpoints.users!.notInFile).toBeUndefined();
    expect(view.endpoints.auditcontextcustomfields!.unavailable).toMatchObject({ reason: 'missing' });
  });

  it('is refused with the reason where the admin said none; assumed paths the file lacks stay refused', async () => {
    const refused = await request(`${relay.url}/api/declined/directdata/v1/audit`, { headers: { authorization: auth() } });
    const body = await refused.body.text();
    expect([refused.statusCode, refused.headers[RELAY_ERROR_HEADER], errorCode(body)]).toEqual([404, 'endpoint-unavailable', 'endpoint-unavailable']);
    expect(body).toMatch(/Audits: the service's API file has no such operation \(the admin's overrides bind nothing to it\)/);
    const client = through('declined', declined.binding);
    await expect(client.download('audit', { onBatch: () => undefined })).rejects.toMatchObject({ code: 'not-found', sent: 'no' });
    expect((await client.download('auditfinding', { onBatch: () => undefined })).count).toBe(sandbox.store.count('auditfinding'));

    const assumed = await request(`${relay.url}/api/acc${catalog.dataset('auditcontextcustomfields').path}`, { headers: { authorization: auth() } });
    expect([assumed.statusCode, errorCode(await assumed.body.text())]).toEqual([404, 'endpoint-unavailable']);
  });

  it('loads into a workbook through the relay and refreshes headless with grc-sheets refresh --relay', async () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
    const base = { client: through('acc', imported.binding), environment: 'acc', source: `relay ${relay.url}` };
    for (const datasetId of ['audit', 'auditfinding', 'controlcustomfieldvalues']) {
      const loaded = await loadDataset({ ...base, workbook, datasetId, target: { kind: 'new-sheet' } });
      if (!loaded.ok) throw new Error(loaded.error.message);
    }
    const book = join(dir, 'audit-report.xlsx');
    await saveFakeExcel(xl, book);
    const { io, out, err } = cliIo(sandbox);
    expect([await refresh([book, '--relay', relay.url, '--env', 'acc', '--json'], io), err]).toEqual([0, []]);
    const { tables } = JSON.parse(out.join('\n')) as { tables: { table: string; ok: boolean; rows: number }[] };
    expect(tables.map(({ table, ok, rows }) => [table, ok, rows])).toEqual([
      ['tbl_audit', true, sandbox.store.count('audit')],
      ['tbl_auditfinding', true, sandbox.store.count('auditfinding')],
      ['tbl_controlcustomfieldvalues', true, sandbox.store.count('controlcustomfieldvalues')],
    ]);
    // The admin then says none for audits, imports again and restarts the relay: that table is refused with the
    // reason, the others refresh.
    const restarted = await startRelay(
      { listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url, binding: join(dir, 'declined.json') } } },
      { logDestination: captureLog() },
    );
    const off = cliIo(sandbox);
    try {
      expect(await refresh([book, '--relay', restarted.url, '--env', 'acc', '--json'], off.io)).toBe(1);
    } finally {
      await restarted.close();
    }
    const refused = (JSON.parse(off.out.join('\n')) as { tables: { table: string; ok: boolean; error?: { message: string } }[] }).tables;
    expect(refused.map((t) => [t.table, t.ok])).toEqual([['tbl_audit', false], ['tbl_auditfinding', true], ['tbl_controlcustomfieldvalues', true]]);
    expect(refused[0]!.error!.message).toMatch(/"Audits" is not available on this environment: .*the admin's overrides bind nothing to it/);
  }, 60_000);
});

describe('the bound sandbox answers as the file says', () => {
  it('serves the catalogue fields where the file record is a bare object, not {} records', async () => {
    const client = through('acc', imported.binding);
    const records: Record<string, unknown>[] = [];
    await client.download('organizations', { onBatch: (batch) => void records.push(...batch) });
    const stored = [...sandbox.store.records('organizations')];
    expect(records).toHaveLength(stored.length);
    expect(records[0]).toEqual(stored[0]);
    expect(Object.keys(records[0]!)).toEqual(expect.arrayContaining(['Id', 'Name']));
  });

  it('without the file at hand, a dataset the binding places nothing in serves the catalogue fields too', async () => {
    const elsewhere = { ...imported.binding, source: { ...imported.binding.source, file: join(dir, 'not-copied.json') } };
    const alone = await startSandbox({ port: 0, environment: 'ACC', scale: 40, binding: elsewhere });
    try {
      expect(alone.apiFile).toBeUndefined();
      const client = createClient({ baseUrl: alone.url, credentials: alone.demoKey!, catalog: createCatalog(elsewhere) });
      const records: Record<string, unknown>[] = [];
      await client.download('organizations', { onBatch: (batch) => void records.push(...batch) });
      expect(records[0]).toEqual([...alone.store.records('organizations')][0]);
    } finally {
      await alone.close();
    }
  });

  it('answers a bare-uuid create with the GUID of the incident it made, so its hyperlink step finds it', async () => {
    const client = through('acc', imported.binding);
    const cat = createCatalog(imported.binding);
    const create = cat.operation('incident-create').binding as BoundOperation;
    const org = [...sandbox.store.records('organizations')][0]!.Id as string;
    const user = [...sandbox.store.records('users')].find((u) => !u.Deleted)!.Id as string;
    // The spec's rule: a hyperlink needs the incident's required fields filled.
    const row = { Name: 'Laptop left on a train', ReportingOrganization: org, Description: 'Left on the 8:12.', Assessors: [user], Responsible: [user] };
    const encoded = encodeRequest(create, row, {});
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.problems));
    const answer = await client.send('incident-create', encoded.request);
    expect(answer.body).toMatch(/^[0-9a-f-]{36}$/);
    const made = readCreatedId(create, answer);
    if (!made.ok) throw new Error(made.message);
    expect(sandbox.store.find('incidents', made.id)).toMatchObject({ Name: 'Laptop left on a train' });

    const link = cat.operation('incident-hyperlink').binding as BoundOperation;
    const linked = encodeRequest(link, { '{guid}': made.id, Url: 'https://intranet.example.com/lost-laptop' }, {});
    if (!linked.ok) throw new Error(JSON.stringify(linked.problems));
    expect((await client.send('incident-hyperlink', linked.request)).status).toBe(200);
    expect(sandbox.store.incidentExtra(made.id).hyperlinks).toEqual([expect.objectContaining({ Url: 'https://intranet.example.com/lost-laptop' })]);
  });
});
