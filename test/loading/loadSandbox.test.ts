import { createClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { isoToSerial, LIST_SEPARATOR } from '../../src/sheet';
import { readLoadRecords } from '../../src/loading/loadrecords';
import { loadDataset, refreshAll } from '../../src/loading/load';
import { createMemoryWorkbook } from '../../src/workbook/memory';

/** The load path end to end: the real client against the real sandbox on a loopback port. */
describe('loading from the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 300 });
  });
  afterAll(() => sandbox.close());

  const connect = (password = sandbox.demoKey!.password) => createClient({ baseUrl: sandbox.url, credentials: { identifier: sandbox.demoKey!.identifier, password } });

  it('loads risks and incidents as typed tables that refresh', async () => {
    const workbook = createMemoryWorkbook();
    const client = connect();
    const risks = await loadDataset({ client, workbook, datasetId: 'risk', environment: 'ACC', source: 'sandbox', target: { kind: 'new-sheet' } });
    const incidents = await loadDataset({ client, workbook, datasetId: 'incidents', environment: 'ACC', source: 'sandbox', target: { kind: 'new-sheet' } });
    if (!risks.ok || !incidents.ok) throw new Error('load failed');
    expect(risks.rowCount).toBe(300);
    expect(incidents.rowCount).toBeGreaterThan(0);

    const riskCols = (await readLoadRecords(workbook)).get('tbl_risk')!.fields!;
    const raw = (await client.download('risk', {})).records;
    const { rows } = await workbook.readRows('tbl_risk');
    const i = raw.findIndex((r) => typeof r.DateIdentified === 'string' && Array.isArray(r.ControlGuids) && (r.ControlGuids as string[]).length > 1);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(rows[i]![riskCols.indexOf('DateIdentified')]).toBe(isoToSerial(raw[i]!.DateIdentified as string));
    expect(rows[i]![riskCols.indexOf('ControlGuids')]).toBe((raw[i]!.ControlGuids as string[]).join(LIST_SEPARATOR));
    expect(typeof rows[i]![riskCols.indexOf('GrossImpact')]).toBe('number');

    const results = await refreshAll({ client, workbook, environment: 'ACC', source: 'sandbox' });
    expect(results.map((r) => r.outcome.ok)).toEqual([true, true]);
    expect((await readLoadRecords(workbook)).get('tbl_risk')!.rowCount).toBe(300);
  });

  it('reports a wrong key as an API error and leaves the old table in place', async () => {
    const workbook = createMemoryWorkbook();
    await loadDataset({ client: connect(), workbook, datasetId: 'risk', environment: 'ACC', target: { kind: 'new-sheet' } });
    const before = await workbook.readRows('tbl_risk');
    const [result] = await refreshAll({ client: connect('wrong-password'), workbook, environment: 'ACC' });
    expect(result!.outcome).toMatchObject({ ok: false, error: { code: 'api', apiCode: 'invalid-credentials' } });
    expect(await workbook.readRows('tbl_risk')).toEqual(before);
  });
});
