/**
 * Enums by meaning, end to end: a Swashbuckle file (corpus/larkspur.swashbuckle.json) writes the notice
 * period unit, the task status and a custom field's type as integers named only by an XML-comment
 * description. Imported, its bound sandbox and a relay start (they crashed on the task body's refinement);
 * a contract typed "Months" and a task status typed "Rejected" go through the relay and land in the
 * sandbox as the file's integers, JSON numbers.
 */
import { join } from 'node:path';
import { importBinding } from '../../src/binding';
import { formatReport } from '../../src/binding-report';
import type { BoundOperation } from '../../src/catalog';
import { contractsFlow } from '../../src/writeback/flows/contracts';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { tasksFlow } from '../../src/writeback/flows/tasks';
import { post, startWorld, stopWorld, type World } from './world';

type Json = Record<string, unknown>;
const LARKSPUR = join(__dirname, 'corpus', 'larkspur.swashbuckle.json');

describe('a Swashbuckle file with integer enums', () => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(LARKSPUR);
  });
  afterAll(() => stopWorld(w));

  it('binds each value by the meaning its description gives', () => {
    const contract = w!.binding.endpoints['contract-create'] as BoundOperation;
    expect(contract.placements.find((p) => p.field === 'NoticePeriodUnit')?.encoding).toEqual({
      kind: 'enum',
      values: ['0', '1', '2', '3'],
      map: { None: '0', Days: '1', Weeks: '2', Months: '3' },
      as: 'integer',
    });
    const status = w!.binding.endpoints['task-score-status'] as BoundOperation;
    // "4: Done" is a status only this service has: offered by its name.
    expect(status.placements.find((p) => p.field === 'Status')?.encoding).toMatchObject({
      map: { 'To do': '0', Rejected: '1', 'Ready for review': '2', 'In review': '3', Done: '4' },
      as: 'integer',
    });
  });

  it('posts a contract typed "Months": the sandbox receives the integer 3', async () => {
    const party = w!.sandbox.store.list<Json>('thirdparty')[0]!;
    const { summary } = await post(w!, contractsFlow, () => [
      {
        'Third party': party.Name as string,
        Name: 'Cleaning, enums',
        'Notice period': 3,
        'Notice period unit': 'Months',
      },
    ]);
    expect(summary.outcomes.map((o) => [o.status, o.message])).toEqual([['created', expect.any(String)]]);
    const got = w!.sandbox.store.received.find((r) => r.endpoint === 'contract-create' && r.id === summary.outcomes[0]!.guid);
    expect(got?.body).toMatchObject({ NoticePeriod: 3, NoticePeriodUnit: 3 });
    expect(w!.sandbox.store.find('thirdpartycontract', summary.outcomes[0]!.guid!)).toMatchObject({ NoticePeriodUnit: 'Months' });
  });

  it('posts a task status typed "Rejected": the sandbox receives the integer 1', async () => {
    const owner = w!.sandbox.store.list<Json>('users')[0]!.Name;
    const task = w!.sandbox.store.list<Json>('tasks').find((t) => t.Status === 'In review' && t.Reviewer === owner) ??
      w!.sandbox.store.list<Json>('tasks').find((t) => t.Status === 'In review')!;
    const { summary } = await post(w!, tasksFlow, () => [
      { Task: task.Id as string, Action: 'Score and status', Score: 4, Status: 'Rejected' },
    ]);
    const got = w!.sandbox.store.received.find((r) => r.endpoint === 'task-score-status' && r.id === task.Id);
    expect([summary.outcomes[0]?.status, got?.body]).toEqual(['done', expect.objectContaining({ Status: 1, Score: 4 })]);
  });

  it("makes the incidents template: the custom fields' types read back from the file's integers", async () => {
    const { columns } = await post(w!, incidentsFlow, () => []);
    const dropdown = w!.sandbox.store.list<Json>('incidenttypecustomfields').find((d) => d.Type === 'Dropdown' && d.Visible !== false)!;
    expect(columns.some((c) => c.startsWith(`${dropdown.Name as string} [`))).toBe(true);
  });
});

describe('an integer enum the file does not name', () => {
  it('is reported with the overrides lines that settle it, and those lines map it', async () => {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'enums-'));
    const doc = JSON.parse(readFileSync(LARKSPUR, 'utf8')) as { components: { schemas: Record<string, Json> } };
    delete doc.components.schemas.NoticePeriodUnit!.description;
    const file = join(dir, 'unnamed.json');
    writeFileSync(file, JSON.stringify(doc));
    const r = await importBinding(file, { accept: true });
    const c = r.binding.consequences.find((x) => x.kind === 'enum-unread');
    expect(c).toMatchObject({ endpoint: 'contract-create', columns: ['NoticePeriodUnit'] });
    expect(c!.message).toContain('map contract-create NoticePeriodUnit "Months" = <number>');
    const report = formatReport(r, { overrides: 'unnamed.overrides' });
    expect(report).toContain(
      [
        'DECISIONS FOR THE ADMIN: 1',
        "  1. Create a third party contract (contract-create): NoticePeriodUnit: the file's body /NoticePeriodUnit takes 0, 1, 2, 3 and does not say which means Months, Weeks, Days, None; rows with them are refused on that cell until you add to unnamed.overrides, with the file's value for each:",
        '     map contract-create NoticePeriodUnit "Months" = <number>',
        '     map contract-create NoticePeriodUnit "Weeks" = <number>',
      ].join('\n'),
    );
    expect(report).toContain('rows with a value of contract-create NoticePeriodUnit are refused on that cell');
    const overrides = join(dir, 'unnamed.overrides');
    writeFileSync(overrides, 'map contract-create NoticePeriodUnit "Months" = 3\nmap contract-create NoticePeriodUnit "None" = 0\nmap contract-create NoticePeriodUnit "Days" = 1\nmap contract-create NoticePeriodUnit "Weeks" = 2\n');
    const fixed = await importBinding(file, { accept: true, overrides });
    expect(fixed.binding.consequences.filter((x) => x.kind === 'enum-unread')).toEqual([]);
    const unit = (fixed.binding.endpoints['contract-create'] as BoundOperation).placements.find((p) => p.field === 'NoticePeriodUnit');
    expect(unit?.encoding).toMatchObject({ map: { Months: '3', None: '0', Days: '1', Weeks: '2' }, as: 'integer' });
  });
});

it("an extra column's unnamed integer enum: map lines name its values, its dropdown offers the names", async () => {
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { encodeRequest } = await import('../../src/catalog');
  const dir = mkdtempSync(join(tmpdir(), 'enums-'));
  const doc = JSON.parse(readFileSync(LARKSPUR, 'utf8')) as { components: { schemas: Record<string, { properties: Json }> } };
  doc.components.schemas.ContractDto!.properties.Channel = { type: 'integer', format: 'int32', enum: [0, 1] };
  const file = join(dir, 'channel.json');
  writeFileSync(file, JSON.stringify(doc));
  const overrides = join(dir, 'channel.overrides');
  writeFileSync(overrides, 'map contract-create body:/Channel "Phone" = 0\nmap contract-create body:/Channel "Email" = 1\n');
  const op = (await importBinding(file, { accept: true, overrides })).binding.endpoints['contract-create'] as BoundOperation;
  const channel = op.extras.find((x) => x.key === 'body:/Channel')!;
  expect(channel.values).toEqual(['Phone', 'Email']);
  const r = encodeRequest(op, { ThirdPartyGuid: '10000000-0000-4000-8000-000000000001', Name: 'x', NoticePeriodUnit: 'Days', 'body:/Channel': 'Email' }, {});
  expect(r.ok && r.request.body).toMatchObject({ Channel: 1, NoticePeriodUnit: 1 });
});
