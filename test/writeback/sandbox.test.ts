import { createClient, type GrcClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { isoToSerial } from '../../src/sheet/serial';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell, WorkbookPort } from '../../src/workbook/port';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import type { WritebackApi } from '../../src/writeback/api';
import { preparePost, type RunSummary } from '../../src/writeback/post';
import { NO_WRITE } from '../../src/writeback/post/receipts';
import { createTemplate } from '../../src/writeback/template';

/**
 * Write-back against the real sandbox over HTTP, with the real client and the memory workbook: a mixed
 * sheet of 500 incident rows, then the same under dropped connections and 503s, and cancelled halfway.
 */
const ACC = { name: 'ACC', production: false };
let sandbox: Sandbox;
let client: GrcClient;
/**
 * The client as write-back sees it, with standing data that has gone stale: it still lists the
 * organization "Nowhere Inc", which the service no longer has. Rows naming it pass validation and are
 * refused by the service, the one refusal validation cannot foresee.
 */
let api: WritebackApi;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 50, seed: 11, environment: 'ACC' });
  client = createClient({ baseUrl: sandbox.url, credentials: sandbox.demoKey! });
  api = {
    send: (operationId, request, options) => client.send(operationId, request, options),
    async download(datasetId, options) {
      const answer = await client.download(datasetId, options);
      if (datasetId !== 'organizations') return answer;
      return { records: [...answer.records, { Id: '00000000-0000-4000-8000-00000000dead', Name: 'Nowhere Inc', ParentId: null }] };
    },
  };
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.admin.setFaults({ errorRate: 0, dropRate: 0, rateLimitRate: 0 }));

type Kind =
  | 'valid'
  | 'rejected-by-service'
  | 'no-name'
  | 'archived-type'
  | 'ambiguous-date'
  | 'unselected-type-field'
  | 'bad-hyperlink';

/** Row i of a run: mostly valid rows of several shapes, and one of each invalid kind in every ten. */
function kindOf(i: number): Kind {
  if (i % 50 === 1) return 'rejected-by-service';
  return (
    [
      'valid',
      'valid',
      'valid',
      'valid',
      'valid',
      'no-name',
      'archived-type',
      'ambiguous-date',
      'unselected-type-field',
      'bad-hyperlink',
    ] as const
  )[i % 10]!;
}

function rowFor(tag: string, i: number): Record<string, Cell> {
  const name = `${tag}-${String(i).padStart(4, '0')}`;
  const base: Record<string, Cell> = {
    Name: name,
    'Reporting organization': 'Finance',
    Classification: 'High',
    'Date detected': isoToSerial('2025-03-04'),
  };
  const shape = i % 3;
  if (shape === 1)
    Object.assign(base, {
      'Incident types': 'Operational incident',
      'Estimated loss (EUR) [Operational incident]': 1000 + i,
      'Reported to regulator [Operational incident]': false,
    });
  if (shape === 2)
    Object.assign(base, {
      'Incident types': 'Data breach',
      'Personal data involved [Data breach]': true,
      'Data categories [Data breach]': 'Contact data; Health data',
      'Date detected': '2025-02-01',
    });
  switch (kindOf(i)) {
    case 'valid':
      return base;
    case 'rejected-by-service':
      // Valid by every rule and the (stale) standing data; the sandbox knows no such organization.
      return { ...base, 'Reporting organization': 'Nowhere Inc' };
    case 'no-name':
      return { ...base, Name: null };
    case 'archived-type':
      return { ...base, 'Incident types': 'Legacy complaint' };
    case 'ambiguous-date':
      return { ...base, 'Date detected': '03/04/2025' };
    case 'unselected-type-field':
      return {
        ...base,
        'Incident types': 'Fraud',
        'Fraud scheme [Fraud]': 'Phishing',
        'Personal data involved [Data breach]': true,
      };
    case 'bad-hyperlink':
      return {
        ...base,
        Assessors: 'Bram Jansen',
        Responsible: 'Chloe Martin',
        Description: 'x',
        Hyperlink: 'https://example.com/a b',
      };
  }
}

async function filledSheet(tag: string, n: number): Promise<{ workbook: WorkbookPort; table: string }> {
  const workbook = createMemoryWorkbook();
  const shape = await createTemplate({ api: client, workbook, flow: incidentsFlow, environment: ACC });
  const rows = Array.from({ length: n }, (_, i) => {
    const r = rowFor(tag, i);
    return shape.columns.map((c) => r[c] ?? null);
  });
  await workbook.writeRows(shape.name, 0, rows);
  return { workbook, table: shape.name };
}

async function results(workbook: WorkbookPort, table: string) {
  const { columns, rows } = await workbook.readRows(table);
  const at = columns.indexOf('Result');
  return rows.map((r) => ({ name: r[0], status: r[at], guid: r[at + 1], message: r[at + 2] }));
}

async function incidentsNamed(tag: string) {
  const { records } = await client.download('incidents');
  return records.filter((r) => typeof r.Name === 'string' && r.Name.startsWith(`${tag}-`));
}

const post = async (workbook: WorkbookPort, table: string, signal?: AbortSignal): Promise<RunSummary> =>
  (await preparePost({ api, workbook, table, flow: incidentsFlow, environment: ACC })).run({
    concurrency: 4,
    signal,
    retry: { attempts: 4, maxWaitMs: 2_000 },
  });

const N = 500;
const expected = Array.from({ length: N }, (_, i) => kindOf(i));
const validCount = expected.filter((k) => k === 'valid').length;

describe('write-back against the sandbox', () => {
  it('a mixed sheet of 500 rows posts exactly the valid ones, and every result lands in its own row', async () => {
    const { workbook, table } = await filledSheet('mixed', N);
    const plan = await preparePost({ api, workbook, table, flow: incidentsFlow, environment: ACC });
    expect(plan.toSend).toBe(validCount + expected.filter((k) => k === 'rejected-by-service').length);
    for (const kind of [
      'no-name',
      'archived-type',
      'ambiguous-date',
      'unselected-type-field',
      'bad-hyperlink',
    ] as const) {
      const rows = new Set(plan.validation.problems.filter((p) => p.severity === 'error').map((p) => p.row));
      expected.forEach((k, i) => k === kind && expect(rows.has(i)).toBe(true));
    }
    const summary = await plan.run({ concurrency: 4 });
    expect(summary.counts.created).toBe(validCount);

    const after = await results(workbook, table);
    const inService = new Map((await incidentsNamed('mixed')).map((r) => [r.Name, r.Id]));
    expect(inService.size).toBe(validCount);
    after.forEach((r, i) => {
      const kind = expected[i];
      if (kind === 'valid') {
        expect(r.status).toBe('created');
        expect(r.guid).toBe(inService.get(r.name as string));
      } else if (kind === 'rejected-by-service') {
        expect(r).toMatchObject({ status: 'failed', guid: '' });
        expect(r.message).toContain('Nowhere Inc');
      } else expect(r.status).toMatch(/^Not sent: \d+ errors?$/);
    });
  });

  async function runUntilDone(
    workbook: WorkbookPort,
    table: string,
    first?: (w: WorkbookPort, t: string) => Promise<void>,
  ) {
    if (first) await first(workbook, table);
    for (let run = 0; run < 30; run++) {
      const plan = await preparePost({ api, workbook, table, flow: incidentsFlow, environment: ACC });
      if (plan.toSend + plan.toCheck === 0) return run;
      await plan.run({ concurrency: 4, retry: { attempts: 4, maxWaitMs: 2_000 } });
    }
    throw new Error('not done after 30 runs');
  }

  async function expectExactlyOnce(tag: string, workbook: WorkbookPort, table: string) {
    const inService = await incidentsNamed(tag);
    const byName = new Map<string, string[]>();
    for (const r of inService)
      byName.set(r.Name as string, [...(byName.get(r.Name as string) ?? []), r.Id as string]);
    const after = await results(workbook, table);
    after.forEach((r, i) => {
      if (expected[i] === 'valid') {
        expect(byName.get(r.name as string)).toEqual([r.guid]);
        expect(r.status).toBe('created');
      } else if (expected[i] === 'rejected-by-service') expect(r.status).toBe('failed');
      else expect(r.status).toMatch(/^Not sent: \d+ errors?$/);
    });
    expect(inService).toHaveLength(validCount);
  }

  it('with 5% of connections dropped after commit and 5% 503s, one Post creates every valid record exactly once and leaves no row unknown', async () => {
    const { workbook, table } = await filledSheet('faults', N);
    sandbox.admin.setFaults({ dropRate: 0.05, errorRate: 0.05, retryAfterSeconds: 0, seed: 5 });
    const summary = await post(workbook, table);
    // The answers lost in this Post were settled in it: looked for in the service, found or sent again.
    expect(summary.counts.unknown).toBe(0);
    expect(summary.counts.sending).toBe(0);
    expect(summary.outcomes).toHaveLength(validCount + expected.filter((k) => k === 'rejected-by-service').length);
    expect(summary.counts.created).toBe(validCount);
    // A row found after its answer was lost keeps, for its audit row, the body hash and the reference of
    // each write it sent, the one whose answer was lost too (a 503 before it: sent twice); no relay here,
    // so nothing signed.
    const settled = summary.outcomes.filter((o) => o.message.startsWith('Found in the service'));
    expect(settled.length).toBeGreaterThan(0);
    const line = '[0-9a-f]{64} [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
    for (const o of settled) expect(o.receipt).toEqual({ receipts: NO_WRITE, sentBodies: expect.stringMatching(new RegExp(`^${line}(\n${line})*$`)) });
    expect(await runUntilDone(workbook, table)).toBe(0);
    sandbox.admin.setFaults({ dropRate: 0, errorRate: 0 });
    await expectExactlyOnce('faults', workbook, table);
    const adopted = (await results(workbook, table)).filter((r) =>
      String(r.message).startsWith('Found in the service'),
    );
    expect(adopted.length).toBeGreaterThan(0);
  });

  it('the same with the first run cancelled halfway and resumed', async () => {
    const { workbook, table } = await filledSheet('cancel', N);
    sandbox.admin.setFaults({ dropRate: 0.05, errorRate: 0.05, retryAfterSeconds: 0, seed: 9 });
    await runUntilDone(workbook, table, async (w, t) => {
      const ctl = new AbortController();
      const plan = await preparePost({
        api,
        workbook: w,
        table: t,
        flow: incidentsFlow,
        environment: ACC,
      });
      const summary = await plan.run({
        concurrency: 4,
        signal: ctl.signal,
        onProgress: (p) => p.finished >= plan.toSend / 2 && ctl.abort(),
      });
      expect(summary.cancelled).toBe(true);
      const after = await results(w, t);
      expect(after.filter((r) => r.status === 'created').length).toBeLessThan(validCount);
      // Cancel lets requests in flight finish: no row is left "sending".
      expect(after.filter((r) => r.status === 'sending')).toHaveLength(0);
    });
    sandbox.admin.setFaults({ dropRate: 0, errorRate: 0 });
    await expectExactlyOnce('cancel', workbook, table);
  });
});
