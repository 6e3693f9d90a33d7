import { createClient, type GrcClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createMemoryWorkbook, type MemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { preparePost } from '../../src/writeback/post';
import { createTemplate } from '../../src/writeback/template';

/**
 * Row identity against the real sandbox with faults on: the user sorts, filters, inserts and deletes rows
 * while the confirmation is open, during a post and between posts. Every outcome stays on its own row and
 * nothing is created twice.
 */
const ACC = { name: 'ACC', production: false };
let sandbox: Sandbox;
let client: GrcClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 50, seed: 17, environment: 'ACC' });
  client = createClient({ baseUrl: sandbox.url, credentials: sandbox.demoKey! });
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.admin.setFaults({ errorRate: 0, dropRate: 0, rateLimitRate: 0 }));

const N = 200;
/** Every seventh row is refused by validation (no reporting organization); the rest are valid. */
const invalid = (i: number) => i % 7 === 3;

async function filledSheet(tag: string): Promise<{ workbook: MemoryWorkbook; table: string; columns: string[] }> {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: client, workbook, flow: incidentsFlow, environment: ACC });
  const rows = Array.from({ length: N }, (_, i) => {
    const r: Record<string, Cell> = {
      Name: `${tag}-${String(i).padStart(4, '0')}`,
      'Reporting organization': invalid(i) ? null : 'Finance',
      Description: `row ${i}`,
    };
    return shape.columns.map((c) => r[c] ?? null);
  });
  await workbook.writeRows(shape.name, 0, rows);
  return { workbook, table: shape.name, columns: shape.columns };
}

async function rowsByName(workbook: MemoryWorkbook, table: string) {
  const { columns, rows } = await workbook.readRows(table);
  const at = (c: string) => columns.indexOf(c);
  return rows
    .filter((r) => r[at('Name')] !== null)
    .map((r) => ({
      name: String(r[at('Name')]),
      description: r[at('Description')],
      status: r[at('Result')],
      guid: r[at('Result GUID')],
      message: r[at('Result message')],
      key: r[at('Row key')],
    }));
}

async function inService(tag: string) {
  const { records } = await client.download('incidents');
  return records.filter((r) => typeof r.Name === 'string' && r.Name.startsWith(`${tag}-`));
}

const retry = { attempts: 4, maxWaitMs: 2_000 };

it('sorting, filtering, inserting and deleting rows during and between posts, faults on: every outcome on its own row, each record created once', async () => {
  const tag = 'moving';
  const { workbook, table } = await filledSheet(tag);
  sandbox.admin.setFaults({ dropRate: 0.05, errorRate: 0.05, retryAfterSeconds: 0, seed: 23 });

  // The confirmation is open: the user sorts the table before confirming.
  const plan = await preparePost({ api: client, workbook, table, flow: incidentsFlow, environment: ACC });
  workbook.sortRows(table, 'Name', 'descending');
  // A row not sent yet is deleted mid-post; its record must not be created.
  const deleted = `${tag}-0198`;
  let step = 0;
  await plan.run({
    concurrency: 4,
    retry,
    onProgress: () => {
      step++;
      if (step === 20) workbook.sortRows(table, 'Description', 'ascending');
      if (step === 40) workbook.insertRows(table, 0, 3);
      if (step === 60) {
        const at = workbook.snapshot().tables[0]!.rows.findIndex((r) => r[0] === deleted);
        workbook.deleteRows(table, at);
      }
      if (step === 80) workbook.filterRows(table, (r) => String(r[0]).endsWith('0'));
      if (step === 100) workbook.sortRows(table, 'Name', 'ascending');
      if (step === 120) workbook.insertRows(table, 50, [['inserted by hand']]);
    },
  });
  expect(step).toBeGreaterThan(120);

  // Between posts: another sort and an insertion, then post until nothing is left.
  for (let run = 0; run < 20; run++) {
    workbook.sortRows(table, 'Description', run % 2 ? 'ascending' : 'descending');
    workbook.insertRows(table, run, 1);
    const again = await preparePost({ api: client, workbook, table, flow: incidentsFlow, environment: ACC });
    if (again.toSend + again.toCheck === 0) break;
    await again.run({ concurrency: 4, retry });
  }
  sandbox.admin.setFaults({ dropRate: 0, errorRate: 0 });

  const records = await inService(tag);
  const byName = new Map<string, string[]>();
  for (const r of records) byName.set(r.Name as string, [...(byName.get(r.Name as string) ?? []), r.Id as string]);
  const rows = (await rowsByName(workbook, table)).filter((r) => r.name.startsWith(`${tag}-`));
  expect(rows).toHaveLength(N - 1);
  for (const r of rows) {
    const i = Number(r.name.slice(tag.length + 1));
    // The row's own cells tell which row it is: its result must be that row's.
    expect(r.description).toBe(`row ${i}`);
    if (invalid(i)) {
      // Never sent; its Result says why (skipped.ts).
      expect(r.status).toMatch(/^Not sent: \d+ errors?$/);
      expect(byName.has(r.name)).toBe(false);
    } else {
      expect(r.status).toBe('created');
      expect(byName.get(r.name)).toEqual([r.guid]);
      const record = records.find((x) => x.Id === r.guid)!;
      expect(record.Description).toBe(`row ${i}`);
    }
  }
  expect(byName.has(deleted)).toBe(false);
  // The faults did their part: some rows were unknown and found later, not sent again.
  expect(rows.filter((r) => String(r.message).startsWith('Found in the service')).length).toBeGreaterThan(0);
  expect(records).toHaveLength(rows.filter((r) => !invalid(Number(r.name.slice(tag.length + 1)))).length);
  // Each row has its own key.
  const keys = rows.filter((r) => r.key !== null).map((r) => r.key);
  expect(new Set(keys).size).toBe(keys.length);
});

it('identical rows are two requests: each gets its own result and record, whatever the order', async () => {
  const tag = 'twins';
  const { workbook, table, columns } = await filledSheet(tag);
  const twin = columns.map((c) => ({ Name: `${tag}-twin`, 'Reporting organization': 'Finance', Description: 'same' })[c] ?? null);
  workbook.insertRows(table, 0, [twin, twin]);
  const plan = await preparePost({ api: client, workbook, table, flow: incidentsFlow, environment: ACC });
  workbook.sortRows(table, 'Name', 'descending');
  await plan.run({ concurrency: 8, retry });
  const twins = (await rowsByName(workbook, table)).filter((r) => r.name === `${tag}-twin`);
  expect(twins.map((r) => r.status)).toEqual(['created', 'created']);
  expect(new Set(twins.map((r) => r.guid)).size).toBe(2);
  expect((await inService(tag)).filter((r) => r.Name === `${tag}-twin`)).toHaveLength(2);
});
