import { LOAD_RECORDS_KEY, checkLoadRecord, readLoadRecords, reconcileLoadRecords, removeLoadRecord, saveLoadRecord, type LoadRecord } from '../../src/loading/loadrecords';
import { createMemoryWorkbook } from '../../src/workbook/memory';

const good: LoadRecord = {
  table: 'tbl_risk',
  environment: 'ACC',
  source: 'relay https://relay.example.com',
  datasetId: 'risk',
  params: {},
  loadedAt: '2026-01-02T03:04:05.000Z',
  rowCount: 12,
  columns: ['Id', 'Name'],
};

describe('load records (a loaded table\'s record)', () => {
  it('round-trips through the workbook settings under one key', async () => {
    const wb = createMemoryWorkbook();
    expect((await saveLoadRecord(wb, good)).ok).toBe(true);
    await saveLoadRecord(wb, { ...good, table: 'tbl_incidents', datasetId: 'incidents' });
    expect([...(await readLoadRecords(wb)).keys()]).toEqual(['tbl_risk', 'tbl_incidents']);
    expect((await readLoadRecords(wb)).get('tbl_risk')).toEqual(good);
    expect(await wb.getSetting(LOAD_RECORDS_KEY)).toMatchObject({ version: 1 });
    await removeLoadRecord(wb, 'tbl_risk');
    expect([...(await readLoadRecords(wb)).keys()]).toEqual(['tbl_incidents']);
  });

  it('reads what workbooks saved before the rename hold: the setting keeps its first key', async () => {
    const wb = createMemoryWorkbook();
    await wb.setSetting('grc-sheets.bindings', { version: 1, tables: { tbl_risk: good } });
    expect(LOAD_RECORDS_KEY).toBe('grc-sheets.bindings');
    expect((await readLoadRecords(wb)).get('tbl_risk')).toEqual(good);
  });

  it('refuses a load record with a field that does not belong, such as a password', async () => {
    const wb = createMemoryWorkbook();
    const check = await saveLoadRecord(wb, { ...good, password: 'hunter2' } as LoadRecord);
    expect(check).toMatchObject({ ok: false, code: 'binding-refused' });
    expect(!check.ok && check.message).toMatch(/password/);
    expect(await wb.getSetting(LOAD_RECORDS_KEY)).toBeUndefined();
  });

  it('refuses credential-looking values: an Authorization header, a URL with user and password', () => {
    expect(checkLoadRecord({ ...good, source: 'Basic dXNlcjpwYXNz' })).toMatchObject({ ok: false, message: expect.stringMatching(/source/) });
    expect(checkLoadRecord({ ...good, source: 'https://key:secret@relay.example.com' })).toMatchObject({ ok: false });
    expect(checkLoadRecord({ ...good, params: { guid: 'x', token: 'abc' } })).toMatchObject({ ok: false });
  });

  it('drops stored entries that do not check out instead of trusting the file', async () => {
    const wb = createMemoryWorkbook();
    await wb.setSetting(LOAD_RECORDS_KEY, { version: 1, tables: { tbl_risk: good, bad: { ...good, table: 'bad', apiKey: 'k' } } });
    expect([...(await readLoadRecords(wb)).keys()]).toEqual(['tbl_risk']);
  });

  it('finds a table by name when its id is of another session, but not one another binding holds by id', async () => {
    const wb = createMemoryWorkbook();
    const columns = [{ name: 'Id', format: 'text' as const }];
    await wb.addSheet('Risks');
    const risk = await wb.createTable({ name: 'tbl_risk', sheet: 'Risks', anchor: 'A1', columns });
    const incidents = await wb.createTable({ name: 'tbl_incidents', sheet: 'Risks', anchor: 'D1', columns });
    // The workbook opened again: Excel gave its tables new ids; the bindings hold the last session's.
    await saveLoadRecord(wb, { ...good, tableId: '{1}' });
    await saveLoadRecord(wb, { ...good, table: 'tbl_incidents', datasetId: 'incidents', tableId: '{2}' });
    const again = await reconcileLoadRecords(wb);
    expect(again.removed).toEqual([]);
    expect([...again.records.values()].map((b) => [b.table, b.tableId])).toEqual([
      ['tbl_risk', risk.id],
      ['tbl_incidents', incidents.id],
    ]);
    // In one session: tbl_risk deleted and tbl_incidents renamed to its name. The risk binding does not
    // take the table the incidents binding holds by id.
    await wb.deleteTable('tbl_risk');
    wb.renameTable('tbl_incidents', 'tbl_risk');
    const after = await reconcileLoadRecords(wb);
    expect(after.removed.map((b) => b.datasetId)).toEqual(['risk']);
    expect([...after.records.values()].map((b) => [b.table, b.datasetId, b.tableId])).toEqual([['tbl_risk', 'incidents', incidents.id]]);
  });
});
