import { createClient, type GrcClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import type { AnyFlow } from '../../src/writeback/flow';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { thirdPartiesFlow } from '../../src/writeback/flows/thirdparties';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';

/**
 * Every name that the service would refuse is caught by validation: for each flow, one row per bad value,
 * against the real sandbox's standing data. Each row fails validation on the cell that holds the value,
 * the message offers known names, and a Post sends nothing: no write operation is called, and the
 * sandbox's records are as they were.
 */
const ACC = { name: 'ACC', production: false };
let sandbox: Sandbox;
let client: GrcClient;
let writes: string[];
let api: WritebackApi;
let thirdParty: string;
let task: { id: string; identifier: string };

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 50, seed: 3 });
  client = createClient({ baseUrl: sandbox.url, credentials: sandbox.demoKey! });
  writes = [];
  api = {
    download: (id, o) => client.download(id, o),
    send(operationId, o) {
      writes.push(operationId);
      return client.send(operationId, o);
    },
  };
  const parties = (await client.download('thirdparty')).records;
  thirdParty = String(parties[0]!.Name);
  const t = (await client.download('tasks')).records.find((r) => r.Status === 'To do')!;
  task = { id: String(t.Id), identifier: String(t.Identifier) };
});
afterAll(() => sandbox.close());

interface Case {
  what: string;
  cells: Record<string, Cell>;
  column: string;
  code: string;
  /** A known name the message must offer. */
  offers?: string;
}

const incident = { Name: 'Bad value', 'Reporting organization': 'Finance' };
const INCIDENT_CASES: Case[] = [
  { what: 'unknown reporting organization', cells: { ...incident, 'Reporting organization': 'Nowhere Ltd' }, column: 'Reporting organization', code: 'unknown-name', offers: 'Finance' },
  { what: 'misspelt reporting organization', cells: { ...incident, 'Reporting organization': 'Finanse' }, column: 'Reporting organization', code: 'unknown-name', offers: 'did you mean "Finance"' },
  { what: 'unknown affected organization', cells: { ...incident, 'Affected organizations': 'Finance; Atlantis' }, column: 'Affected organizations', code: 'unknown-name', offers: 'Head Office' },
  { what: 'unknown assessor', cells: { ...incident, Assessors: 'Nobody Atall' }, column: 'Assessors', code: 'unknown-name', offers: 'Anna de Vries' },
  { what: 'deleted responsible user', cells: { ...incident, Responsible: 'Iris de Boer' }, column: 'Responsible', code: 'deleted-user' },
  { what: 'unknown informed user', cells: { ...incident, Informed: 'Anna de Vries; Ghost' }, column: 'Informed', code: 'unknown-name' },
  { what: 'unknown business dimension', cells: { ...incident, 'Business dimensions': 'Paymants' }, column: 'Business dimensions', code: 'unknown-name', offers: 'did you mean "Payments"' },
  { what: 'unknown framework dimension', cells: { ...incident, 'Framework dimensions': 'NIS3' }, column: 'Framework dimensions', code: 'unknown-name', offers: 'NIS2' },
  { what: 'unknown root cause category', cells: { ...incident, 'Root cause category': 'Cosmic rays' }, column: 'Root cause category', code: 'unknown-name' },
  { what: 'unknown classification', cells: { ...incident, Classification: 'Huge' }, column: 'Classification', code: 'unknown-name', offers: 'High' },
  { what: 'unknown incident type', cells: { ...incident, 'Incident types': 'Alien visit' }, column: 'Incident types', code: 'unknown-name', offers: 'Data breach' },
  {
    what: 'unknown custom field option',
    cells: { ...incident, 'Incident types': 'Data breach', 'Data categories [Data breach]': 'Secret data' },
    column: 'Data categories [Data breach]',
    code: 'unknown-option',
    offers: 'Contact data',
  },
];

const THIRD_PARTY_CASES: Case[] = [
  { what: 'unknown framework dimension', cells: { Name: 'Bad TP', 'Framework dimensions': 'DORA; Basel IV' }, column: 'Framework dimensions', code: 'unknown-name', offers: 'DORA' },
  { what: 'unknown dropdown option', cells: { Name: 'Bad TP', Criticality: 'Extreme' }, column: 'Criticality', code: 'unknown-option', offers: 'High' },
  { what: 'unknown multi-select option', cells: { Name: 'Bad TP', 'Services provided': 'Teleportation' }, column: 'Services provided', code: 'unknown-option' },
];

const contract = () => ({ 'Third party': thirdParty, Name: 'Bad contract' });
const CONTRACT_CASES = (): Case[] => [
  { what: 'unknown third party', cells: { ...contract(), 'Third party': 'No Such Vendor' }, column: 'Third party', code: 'unknown-name' },
  { what: 'unknown notice period unit', cells: { ...contract(), 'Notice period': 3, 'Notice period unit': 'Fortnights' }, column: 'Notice period unit', code: 'unknown-unit', offers: 'Weeks' },
  { what: 'unknown contract option', cells: { ...contract(), 'Exit regions': 'EU; Mars' }, column: 'Exit regions', code: 'unknown-option', offers: 'APAC' },
];

const TASK_CASES = (): Case[] => [
  { what: 'unknown responsible user', cells: { Task: task.identifier, Action: 'Update', 'Responsible user': 'Nobody' }, column: 'Responsible user', code: 'unknown-name', offers: 'Anna de Vries' },
  { what: 'deleted reviewer', cells: { Task: task.identifier, Action: 'Update', Reviewer: 'Jonas Mulder' }, column: 'Reviewer', code: 'deleted-user' },
  { what: 'unknown task', cells: { Task: 'TASK-999999', Action: 'Update', Name: 'x' }, column: 'Task', code: 'unknown-name' },
];

/** Everything the sandbox holds that a write could change: records added, and the current tasks. */
async function serviceState() {
  const added = ['incidents', 'thirdparty', 'thirdpartycontract'].map((d) => sandbox.store.addedRecords(d).length);
  const tasks = JSON.stringify((await client.download('tasks')).records);
  return { added, tasks };
}

async function validateAndPost(flow: AnyFlow, cases: Case[]) {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api, workbook, flow, environment: ACC });
  for (const c of cases)
    for (const column of Object.keys(c.cells))
      if (!shape.columns.includes(column)) throw new Error(`${flow.id} template has no column "${column}"`);
  await workbook.writeRows(
    shape.name,
    0,
    cases.map((c) => shape.columns.map((col) => c.cells[col] ?? null)),
  );
  const before = await serviceState();
  writes.length = 0;
  const plan = await preparePost({ api, workbook, table: shape.name, flow, environment: ACC });
  const summary = await plan.run();
  return { plan, summary, before, after: await serviceState() };
}

describe.each([
  ['incidents', incidentsFlow, () => INCIDENT_CASES],
  ['third parties', thirdPartiesFlow, () => THIRD_PARTY_CASES],
  ['contracts', contractsFlow, CONTRACT_CASES],
  ['task updates', tasksFlow, TASK_CASES],
] as const)('%s: bad values never leave', (_name, flow, cases) => {
  it('each bad value fails validation on its own cell, offering known names, and a Post writes nothing', async () => {
    const list = cases();
    const { plan, summary, before, after } = await validateAndPost(flow as AnyFlow, list);
    list.forEach((c, row) => {
      const errors = plan.validation.problems.filter((p) => p.row === row && p.severity === 'error');
      expect({ what: c.what, errors: errors.map((p) => `${p.column}:${p.code}`) }).toEqual({
        what: c.what,
        errors: [`${c.column}:${c.code}`],
      });
      if (c.offers) expect(errors[0]!.message).toContain(c.offers);
    });
    expect(plan.toSend).toBe(0);
    expect(summary.outcomes).toEqual([]);
    expect(writes).toEqual([]);
    expect(after).toEqual(before);
  });
});
