import { catalog } from '../../src/catalog';
import { columnsOf, isoToSerial, reportColumns } from '../../src/sheet';
import { readLoadRecords } from '../../src/loading/loadrecords';
import { MAX_BUFFERED_ROWS, failureText, loadDataset, refreshAll, refreshTable, type DataRecord, type LoadProgress } from '../../src/loading/load';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { WorkbookError } from '../../src/workbook/errors';
import { apiError, fakeClient } from './fakeClient';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risk = (i: number, extra: DataRecord = {}): DataRecord => ({
  Id: guid(i),
  Identifier: `R-${i}`,
  Name: `Risk ${i}`,
  Status: 'Active',
  GrossImpact: i % 5,
  DateIdentified: '2025-03-04',
  ControlGuids: [guid(1), guid(2)],
  ...extra,
});
const risks = (n: number, extra: DataRecord = {}) => Array.from({ length: n }, (_, i) => risk(i, extra));
const riskWidth = Object.keys(catalog.dataset('risk').record.shape).length;
/** A field's place in a new risk table: headers in words, Identifier and Name first, GUIDs last. */
const col = (field: string) => reportColumns(columnsOf(catalog.dataset('risk').record)).findIndex((c) => c.field === field);

const base = { environment: 'ACC', source: 'relay http://127.0.0.1' };

describe('first load', () => {
  it('streams a dataset into tbl_<dataset> on a new sheet, typed, and records the binding', async () => {
    const wb = createMemoryWorkbook();
    const { client } = fakeClient(risks(2500), { batchSize: 1000 });
    const phases: string[] = [];
    const out = await loadDataset({ ...base, client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' }, onProgress: (p) => phases.push(p.phase) });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.table).toMatchObject({ name: 'tbl_risk', sheet: 'Risks', topLeft: 'A1', rowCount: 2500 });
    expect(out.table.columns).toHaveLength(riskWidth);
    const { rows } = await wb.readRows('tbl_risk', 0, 1);
    expect(rows[0]![col('DateIdentified')]).toBe(isoToSerial('2025-03-04'));
    expect(rows[0]![col('ControlGuids')]).toBe(`${guid(1)}; ${guid(2)}`);
    expect(phases).toEqual(expect.arrayContaining(['preparing', 'downloading', 'writing', 'done']));
    const b = (await readLoadRecords(wb)).get('tbl_risk')!;
    expect(b).toMatchObject({ environment: 'ACC', datasetId: 'risk', rowCount: 2500, source: 'relay http://127.0.0.1' });
    expect(Date.parse(b.loadedAt)).not.toBeNaN();
  });

  it('shows the first rows before the download has finished', async () => {
    const wb = createMemoryWorkbook();
    const { client } = fakeClient(risks(5000), { batchSize: 500 });
    const visibleDuringDownload: number[] = [];
    const original = client.download.bind(client);
    client.download = (id, opts) =>
      original(id, {
        ...opts,
        onProgress: (p) => {
          opts.onProgress?.(p);
          visibleDuringDownload.push(wb.snapshot().tables[0]?.rowCount ?? 0);
        },
      });
    await loadDataset({ ...base, client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    expect(visibleDuringDownload.some((n) => n > 0 && n < 5000)).toBe(true);
  });

  it('loads at the selection and gives a unique name when tbl_<dataset> is taken', async () => {
    const wb = createMemoryWorkbook();
    await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    wb.select('Sheet1', 'C5');
    const out = await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook: wb, datasetId: 'risk', target: { kind: 'selection' } });
    expect(out).toMatchObject({ ok: true, table: { name: 'tbl_risk_2', sheet: 'Sheet1', topLeft: 'C5', rowCount: 3 } });
  });

  it('a name conflict the numbering would hide is refused with what to do: a defined name, a table that is not this dataset', async () => {
    const named = createMemoryWorkbook();
    named.defineName('Tbl_Risk');
    const byName = await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook: named, datasetId: 'risk', target: { kind: 'new-sheet' } });
    expect(byName).toMatchObject({ ok: false, error: { code: 'target-refused', message: expect.stringMatching(/defined name Tbl_Risk.*Rename or delete that name/) } });
    expect((await named.listTables()).length).toBe(0);

    const own = createMemoryWorkbook();
    await own.createTable({ name: 'tbl_risk', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Mine', format: 'text' }] });
    const byTable = await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook: own, datasetId: 'risk', target: { kind: 'new-sheet' } });
    expect(byTable).toMatchObject({ ok: false, error: { code: 'target-refused', message: expect.stringMatching(/Table tbl_risk on sheet Sheet1 is not a .* table.*Table Design > Table Name/) } });
    expect((await own.listTables()).map((t) => t.name)).toEqual(['tbl_risk']);
    expect(await own.sheetNames()).toEqual(['Sheet1']);
  });

  it('adds fields the catalogue does not know at the right, also when they show up late', async () => {
    const wb = createMemoryWorkbook();
    const records = [...risks(3), risk(3, { NewField: 'hello' })];
    const out = await loadDataset({ ...base, client: fakeClient(records, { batchSize: 2 }).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    expect(out.ok && out.table.columns.at(-1)).toBe('New field');
    const { rows } = await wb.readRows('tbl_risk');
    expect(rows.map((r) => r[riskWidth])).toEqual([null, null, null, 'hello']);
  });

  it('removes the partial table and its sheet when cancelled mid-stream', async () => {
    const wb = createMemoryWorkbook();
    const ctl = new AbortController();
    const onProgress = (p: LoadProgress) => {
      if (p.phase === 'writing' && p.rows >= 1000) ctl.abort();
    };
    const out = await loadDataset({ ...base, client: fakeClient(risks(10_000), { batchSize: 1000 }).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' }, signal: ctl.signal, onProgress });
    expect(out).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await wb.listTables()).toEqual([]);
    expect(await wb.sheetNames()).toEqual(['Sheet1']);
    expect(await readLoadRecords(wb)).toEqual(new Map());
  });

  it('turns a client error into a value naming the failure and leaves nothing behind', async () => {
    const wb = createMemoryWorkbook();
    const client = fakeClient(risks(3000), { failAfterBatches: { batches: 1, error: apiError('invalid-credentials', 'The API key was refused.') } }).client;
    const out = await loadDataset({ ...base, client, workbook: wb, datasetId: 'risk', target: { kind: 'selection' } });
    expect(out).toMatchObject({ ok: false, error: { code: 'api', apiCode: 'invalid-credentials' } });
    expect(!out.ok && failureText(out.error)).toMatch(/API key was refused.*partial table was removed/);
    expect(await wb.listTables()).toEqual([]);
  });

  it('refuses a load whose binding would carry a credential, before anything is written', async () => {
    const wb = createMemoryWorkbook();
    const out = await loadDataset({ ...base, source: 'https://id:pw@relay', client: fakeClient(risks(3)).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    expect(out).toMatchObject({ ok: false, error: { code: 'binding-refused' } });
    expect(await wb.sheetNames()).toEqual(['Sheet1']);
  });
});

describe('refresh', () => {
  async function loaded(n: number) {
    const wb = createMemoryWorkbook();
    const out = await loadDataset({ ...base, client: fakeClient(risks(n)).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    if (!out.ok) throw new Error(out.error.message);
    await wb.addColumns('tbl_risk', [{ name: 'My note', format: 'general', formula: '=[@Name]&"!"' }]);
    return wb;
  }

  it('grows and shrinks the table, keeps the user column, and updates the binding', async () => {
    const wb = await loaded(10);
    const before = (await readLoadRecords(wb)).get('tbl_risk')!;
    const grown = await refreshTable({ ...base, client: fakeClient(risks(25, { Status: 'Closed' })).client, workbook: wb, table: 'tbl_risk' });
    expect(grown).toMatchObject({ ok: true, rowCount: 25 });
    const after = await wb.readRows('tbl_risk');
    let rows = after.rows;
    expect(after.columns.at(-1)).toBe('My note');
    expect(rows).toHaveLength(25);
    expect(rows.every((r) => r[col('Status')] === 'Closed' && r.at(-1) === '=[@Name]&"!"')).toBe(true);
    expect((await readLoadRecords(wb)).get('tbl_risk')).toMatchObject({ rowCount: 25 });
    expect((await readLoadRecords(wb)).get('tbl_risk')!.loadedAt >= before.loadedAt).toBe(true);

    await refreshTable({ ...base, client: fakeClient(risks(4)).client, workbook: wb, table: 'tbl_risk' });
    ({ rows } = await wb.readRows('tbl_risk'));
    expect(rows).toHaveLength(4);
    expect(rows[3]!.at(-1)).toBe('=[@Name]&"!"');
  });

  it('adds the columns a dataset gained after the user column, and clears ones it lost', async () => {
    const wb = createMemoryWorkbook();
    await loadDataset({ ...base, client: fakeClient(risks(2, { Old: 'x' })).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    await wb.addColumns('tbl_risk', [{ name: 'Mine', format: 'general', formula: '=1' }]);
    const out = await refreshTable({ ...base, client: fakeClient(risks(2, { Added: 7 })).client, workbook: wb, table: 'tbl_risk' });
    expect(out.ok && out.table.columns.slice(riskWidth)).toEqual(['Old', 'Mine', 'Added']);
    const { rows } = await wb.readRows('tbl_risk');
    expect(rows[0]!.slice(riskWidth)).toEqual([null, '=1', 7]);
    expect((await readLoadRecords(wb)).get('tbl_risk')!.columns.at(-1)).toBe('Added');
  });

  it('keeps the old data and binding when the refresh fails or is cancelled', async () => {
    const wb = await loaded(10);
    const before = await wb.readRows('tbl_risk');
    const binding = (await readLoadRecords(wb)).get('tbl_risk');
    const failing = fakeClient(risks(5000, { Status: 'New' }), { batchSize: 100, failAfterBatches: { batches: 3, error: apiError('unreachable', 'The relay could not be reached.') } }).client;
    const failed = await refreshTable({ ...base, client: failing, workbook: wb, table: 'tbl_risk' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'api', apiCode: 'unreachable', left: 'kept' } });
    expect(!failed.ok && failureText(failed.error)).toMatch(/still holds the data of its last load/);
    const ctl = new AbortController();
    const cancelled = await refreshTable({
      ...base,
      client: fakeClient(risks(5000, { Status: 'New' }), { batchSize: 100 }).client,
      workbook: wb,
      table: 'tbl_risk',
      signal: ctl.signal,
      onProgress: (p) => p.rows >= 300 && ctl.abort(),
    });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await wb.readRows('tbl_risk')).toEqual(before);
    expect((await readLoadRecords(wb)).get('tbl_risk')).toEqual(binding);
  });

  it('refuses to refresh from another environment or a table it did not load', async () => {
    const wb = await loaded(2);
    const client = fakeClient(risks(2)).client;
    expect(await refreshTable({ ...base, environment: 'PRD', client, workbook: wb, table: 'tbl_risk' })).toMatchObject({ ok: false, error: { code: 'environment-mismatch' } });
    expect(await refreshTable({ ...base, client, workbook: wb, table: 'tbl_other' })).toMatchObject({ ok: false, error: { code: 'not-bound' } });
    const all = await wb.getSetting<{ version: 1; tables: Record<string, object> }>('grc-sheets.bindings');
    await wb.createTable({ name: 'tbl_future', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Id', format: 'text' }] });
    const { tableId: _riskId, ...future } = all!.tables.tbl_risk as { tableId?: string };
    await wb.setSetting('grc-sheets.bindings', { ...all, tables: { ...all!.tables, tbl_future: { ...future, table: 'tbl_future', datasetId: 'newdataset' } } });
    expect(await refreshTable({ ...base, client, workbook: wb, table: 'tbl_future' })).toMatchObject({ ok: false, error: { code: 'not-bound', message: expect.stringMatching(/newdataset/) } });
    await wb.deleteTable('tbl_risk');
    expect(await refreshTable({ ...base, client, workbook: wb, table: 'tbl_risk' })).toMatchObject({ ok: false, error: { code: 'table-missing', tableState: 'gone' } });
  });

  it('follows a renamed table by its id, and migrates a binding stored by name only', async () => {
    const wb = await loaded(2);
    const stored = (await readLoadRecords(wb)).get('tbl_risk')!;
    expect(stored.tableId).toBe((await wb.findTable('tbl_risk'))!.id);
    wb.renameTable('tbl_risk', 'My_risks');
    const { client, calls } = fakeClient(risks(4));
    expect(await refreshTable({ ...base, client, workbook: wb, table: 'My_risks' })).toMatchObject({ ok: true, rowCount: 4, table: { name: 'My_risks' } });
    expect(calls.map((c) => c.datasetId)).toEqual(['risk']);
    expect([...(await readLoadRecords(wb)).keys()]).toEqual(['My_risks']);
    expect((await readLoadRecords(wb)).get('My_risks')).toMatchObject({ table: 'My_risks', tableId: stored.tableId, rowCount: 4 });

    // A binding written before ids were kept: found by its name once, then by id from then on.
    const legacy = { ...(await readLoadRecords(wb)).get('My_risks')!, tableId: undefined };
    await wb.setSetting('grc-sheets.bindings', { version: 1, tables: { My_risks: JSON.parse(JSON.stringify(legacy)) } });
    expect((await refreshAll({ ...base, client: fakeClient(risks(3)).client, workbook: wb })).map((r) => r.outcome.ok)).toEqual([true]);
    expect((await readLoadRecords(wb)).get('My_risks')!.tableId).toBe(stored.tableId);
    wb.renameTable('My_risks', 'Risks_2025');
    expect(await refreshTable({ ...base, client: fakeClient(risks(1)).client, workbook: wb, table: 'Risks_2025' })).toMatchObject({ ok: true, rowCount: 1 });
  });

  it('drops a deleted table out of Refresh all and removes its binding', async () => {
    const wb = createMemoryWorkbook();
    const data = (id: string) => (id === 'risk' ? risks(3) : [{ Id: guid(1), Name: 'Incident', DateRegistered: '2025-01-02T10:00:00' }]);
    await loadDataset({ ...base, client: fakeClient(data).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    await loadDataset({ ...base, client: fakeClient(data).client, workbook: wb, datasetId: 'incidents', target: { kind: 'new-sheet' } });
    await wb.deleteTable('tbl_risk');
    const { client, calls } = fakeClient(data);
    const results = await refreshAll({ ...base, client, workbook: wb });
    expect(results.map((r) => [r.table, r.outcome.ok])).toEqual([['tbl_incidents', true]]);
    expect(calls.map((c) => c.datasetId)).toEqual(['incidents']);
    expect([...(await readLoadRecords(wb)).keys()]).toEqual(['tbl_incidents']);
  });

  it('says which of three things a failed refresh left: old data intact, old and new rows mixed, or no table', async () => {
    const wb = await loaded(3);
    const before = await wb.readRows('tbl_risk');
    const failing = fakeClient(risks(50), { batchSize: 10, failAfterBatches: { batches: 2, error: apiError('unreachable', 'The relay could not be reached.') } }).client;
    expect(await refreshTable({ ...base, client: failing, workbook: wb, table: 'tbl_risk' })).toMatchObject({ ok: false, error: { tableState: 'intact' } });
    expect(await wb.readRows('tbl_risk')).toEqual(before);

    const realWrite = wb.writeRows.bind(wb);
    // Excel takes the first chunk of the replacement, then refuses the next.
    wb.writeRows = async (name, offset, rows, first) => {
      await realWrite(name, offset, rows.slice(0, 2), first);
      throw new WorkbookError('host', 'Excel refused the change (GeneralException).');
    };
    const mixed = await refreshTable({ ...base, client: fakeClient(risks(4, { Status: 'New' })).client, workbook: wb, table: 'tbl_risk' });
    expect(mixed).toMatchObject({ ok: false, error: { tableState: 'mixed', left: 'stopped-mixed' } });
    expect(!mixed.ok && failureText(mixed.error)).toMatch(/may mix old and new rows.*Refresh it again/);
    expect((await readLoadRecords(wb)).has('tbl_risk')).toBe(true);

    wb.writeRows = async (name) => {
      await wb.deleteTable(name);
      throw new WorkbookError('table-not-found', `There is no table named ${name} in this workbook.`);
    };
    const gone = await refreshTable({ ...base, client: fakeClient(risks(4)).client, workbook: wb, table: 'tbl_risk' });
    expect(gone).toMatchObject({ ok: false, error: { tableState: 'gone', left: 'stopped-gone' } });
    expect(!gone.ok && failureText(gone.error)).toMatch(/no longer in the workbook.*Load risk again/);
    expect((await readLoadRecords(wb)).has('tbl_risk')).toBe(false);
  });

  it('refreshes all bound tables, each from its own dataset', async () => {
    const wb = createMemoryWorkbook();
    const data = (id: string) => (id === 'risk' ? risks(3) : [{ Id: guid(1), Name: 'Incident', DateRegistered: '2025-01-02T10:00:00' }]);
    await loadDataset({ ...base, client: fakeClient(data).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    await loadDataset({ ...base, client: fakeClient(data).client, workbook: wb, datasetId: 'incidents', target: { kind: 'new-sheet' } });
    const { client, calls } = fakeClient(data);
    const results = await refreshAll({ ...base, client, workbook: wb });
    expect(results.map((r) => [r.table, r.outcome.ok])).toEqual([['tbl_risk', true], ['tbl_incidents', true]]);
    expect(calls.map((c) => c.datasetId)).toEqual(['risk', 'incidents']);
  });
});

describe('streaming into a slow workbook', () => {
  it('coalesces batches while a write is in flight and holds the download back past the buffer limit', async () => {
    const wb = createMemoryWorkbook();
    const gates: (() => void)[] = [];
    const realWrite = wb.writeRows.bind(wb);
    let writes = 0;
    wb.writeRows = (...args) => {
      writes++;
      return new Promise((resolve) => gates.push(() => resolve(realWrite(...args))));
    };
    const batch = 1000;
    const batches = 2 * (MAX_BUFFERED_ROWS / batch) + 5;
    let handedOver = 0;
    const client = {
      async download(_id: string, opts: { onBatch?(r: DataRecord[]): void | Promise<void> }) {
        for (let i = 0; i < batches; i++) {
          handedOver++;
          await opts.onBatch?.(risks(batch));
        }
        return { bytes: 0, count: batches * batch };
      },
    };
    const done = loadDataset({ ...base, client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    const settle = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    };
    await settle();
    // The first batch is being written; the download ran on until the buffer was full, then waited.
    expect(handedOver).toBe(1 + MAX_BUFFERED_ROWS / batch);
    while (gates.length) {
      gates.shift()!();
      await settle();
    }
    const out = await done;
    expect(out).toMatchObject({ ok: true, rowCount: batches * batch });
    expect(writes).toBeLessThan(batches / 4);
    const { rows } = await wb.readRows('tbl_risk');
    expect(rows.map((r) => r[col('Identifier')])).toEqual(Array.from({ length: batches }, () => Array.from({ length: batch }, (_, i) => `R-${i}`)).flat());
  });
});
