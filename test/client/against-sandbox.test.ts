import type { GrcClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { failureOf } from '../support/api-error';
import { clearFaults, demoClient } from '../support/sandbox';

/**
 * The client against the real sandbox, started as a user starts it: no keys file, so with its demo
 * Application Administrator key.
 */
describe('client against the sandbox (demo key)', () => {
  const SCALE = 3000;
  let sb: Sandbox;
  let client: GrcClient;

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, scale: SCALE, seed: 11, now: () => new Date('2026-05-04T09:00:00Z') });
    client = demoClient(sb);
  });
  afterEach(() => clearFaults(sb));
  afterAll(() => sb.close());

  it('downloads every risk of the scale, streamed in batches, with bytes matching Content-Length', async () => {
    let batches = 0;
    let last = { bytes: 0, records: 0, totalBytes: undefined as number | undefined };
    const result = await client.download('risk', {
      onBatch: () => void batches++,
      onProgress: (p) => (last = { totalBytes: undefined, ...p }),
    });
    expect(result.count).toBe(SCALE);
    expect(batches).toBeGreaterThan(0);
    expect(last.records).toBe(SCALE);
    if (last.totalBytes !== undefined) expect(last.totalBytes).toBe(result.bytes);
  });

  it('downloads the incidents and the root cause tree, every record passing its catalogue schema', async () => {
    const incidents = await client.download('incidents');
    expect(incidents.count).toBeGreaterThan(0);
    const tree = await client.download('riskrootcausecategory');
    const guids = new Set(tree.records.map((r) => r.GUID));
    for (const r of tree.records) if (r.ParentGUID) expect(guids.has(r.ParentGUID)).toBe(true);
  });

  it('posts an incident with only the required fields; it shows up in the incidents dataset with today as detection date', async () => {
    const created = (await client.call('incident-create', {
      body: { Name: 'Server room flooded', ReportingOrganization: 'Finance' },
    })) as { Id: string };
    const { records } = await client.download('incidents');
    const found = records.find((r) => r.Id === created.Id);
    expect(found).toMatchObject({
      Name: 'Server room flooded',
      ReportingOrganization: 'Finance',
      DateDetected: '2026-05-04',
    });
  });

  it('refuses a bad hyperlink before sending; the service refusal while required fields are unfilled comes back as rejected with details', async () => {
    const { Id } = (await client.call('incident-create', {
      body: { Name: 'Link target', ReportingOrganization: 'Finance' },
    })) as { Id: string };
    const bad = await failureOf(
      client.call('incident-hyperlink', { params: { guid: Id }, body: { Url: 'https://example.com/a b' } }),
    );
    expect(bad).toMatchObject({ code: 'invalid-body', sent: 'no', details: [{ field: 'Url' }] });
    const sentBefore = await failureOf(
      client.call('incident-hyperlink', { params: { guid: Id }, body: { Url: 'x'.repeat(32768) } }),
    );
    expect(sentBefore).toMatchObject({ code: 'invalid-body', sent: 'no' });
    const refused = await failureOf(
      client.call('incident-hyperlink', {
        params: { guid: Id },
        body: { Url: 'https://example.com/evidence' },
      }),
    );
    expect(refused).toMatchObject({ code: 'rejected', status: 400, sent: 'yes' });
    expect(refused.details?.map((d) => d.field)).toContain('Description');
    expect(refused.message).not.toMatch(/\.\./);
  });

  it("turns the sandbox's 429 with Retry-After into rate-limited with retryAfterMs", async () => {
    sb.admin.setFaults({ rateLimitRate: 1, retryAfterSeconds: 3 });
    expect(await failureOf(client.download('audittype'))).toMatchObject({
      code: 'rate-limited',
      status: 429,
      retryAfterMs: 3000,
      sent: 'yes',
    });
  });

  it('a download whose connection the sandbox drops mid-body → outcome-unknown', async () => {
    sb.admin.setFaults({ dropRate: 1 });
    expect(await failureOf(client.download('risk'))).toMatchObject({
      code: 'outcome-unknown',
      sent: 'unknown',
    });
  });

  it('cancels a download part way through', async () => {
    const controller = new AbortController();
    const e = await failureOf(
      client.download('risk', { signal: controller.signal, onBatch: () => controller.abort() }),
    );
    expect(e.code).toBe('cancelled');
  });

  it('a wrong password → invalid-credentials with the Requested IP addresses hint', async () => {
    const wrong = demoClient(sb, { password: 'not-it' });
    const e = await failureOf(wrong.testConnection());
    expect(e).toMatchObject({ code: 'invalid-credentials', status: 401 });
    expect(e.message).toMatch(/Requested IP addresses/);
  });
});
