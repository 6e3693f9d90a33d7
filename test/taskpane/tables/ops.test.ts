import { messageOf } from '../../../src/taskpane/tables/ops';

test('a load that failed on the API reads like the same failure on Connect', () => {
  const m = messageOf({ code: 'api', apiCode: 'invalid-credentials', message: 'The credentials are invalid.' }, 'ACC');
  expect(m.title).toBe('The key is not accepted in ACC');
});

test('workbook-side failures keep the load module’s message under a plain title', () => {
  const m = messageOf({ code: 'environment-mismatch', message: 'Table tbl_risk was loaded from PRD ...' }, 'ACC');
  expect(m).toEqual({ title: 'Connected to another environment', detail: 'Table tbl_risk was loaded from PRD ...' });
});

test('an API code the taskpane does not know still gives the service’s message', () => {
  expect(messageOf({ code: 'api', apiCode: 'something-new', message: 'odd' }, 'ACC')).toEqual({ title: 'The service refused the request', detail: 'odd' });
});

test('a failed refresh is titled by what it left in the table', () => {
  expect(messageOf({ code: 'workbook', tableState: 'mixed', message: 'Excel refused ... may mix old and new rows.' }, 'ACC').title).toMatch(/may mix old and new rows\. Refresh again/);
  expect(messageOf({ code: 'table-missing', tableState: 'gone', message: 'Table tbl_risk is no longer in the workbook.' }, 'ACC').title).toMatch(/table is gone/);
});

test('a refresh refused before it wrote leaves the "still holds its last load" to the Tables card, which says it with the load time', () => {
  const intact = messageOf({ code: 'api', apiCode: 'outcome-unknown', tableState: 'intact', left: 'kept', table: 'tbl_risk', message: 'The connection broke in the middle of the answer; loading again is safe.' }, 'ACC');
  expect(intact).toEqual({ title: 'The connection broke before the answer was complete', detail: 'The connection broke in the middle of the answer; loading again is safe. Try again.' });
  const refused = messageOf({ code: 'target-refused', tableState: 'intact', left: 'kept', table: 'tbl_risk', message: "The dataset's new fields would take table tbl_risk past Excel's last column (XFD)." }, 'ACC');
  expect(refused.detail).not.toMatch(/still holds/);
});

test('what a failed load or refresh left is said once, in the words made where it is shown, whatever those words are', async () => {
  // Real failures of the use case, not hand-made ones: a refresh that fails while downloading (intact), one
  // whose table goes while it writes (gone), a first load that fails after making its table (partial).
  const { createMemoryWorkbook } = await import('../../../src/workbook/memory');
  const { loadDataset, refreshTable, whatItLeft } = await import('../../../src/loading/load');
  const { fakeClient, apiError } = await import('../../loading/fakeClient');
  const risk = (i: number) => ({ Id: `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`, Name: `Risk ${i}` });
  const base = { environment: 'ACC' };
  const workbook = createMemoryWorkbook();
  await loadDataset({ ...base, client: fakeClient([risk(1)]).client, workbook, datasetId: 'risk', target: { kind: 'new-sheet' } });
  const failing = fakeClient([risk(1), risk(2)], { batchSize: 1, failAfterBatches: { batches: 1, error: apiError('unreachable', 'The relay could not be reached.') } }).client;
  const intact = await refreshTable({ ...base, client: failing, workbook, table: 'tbl_risk' });
  const partial = await loadDataset({ ...base, client: failing, workbook, datasetId: 'risk', target: { kind: 'new-sheet' } });
  workbook.writeRows = async (name) => {
    await workbook.deleteTable(name);
    throw new Error(`There is no table named ${name}.`);
  };
  const gone = await refreshTable({ ...base, client: fakeClient([risk(1)]).client, workbook, table: 'tbl_risk' });
  const failures = [intact, partial, gone].map((o) => (o.ok ? null : o.error));
  expect(failures.map((e) => e?.left)).toEqual(['kept', 'partial-removed', 'stopped-gone']);
  for (const error of failures) {
    const left = whatItLeft(error!);
    // The use case's message is the cause alone: what the failure left is a fact beside it.
    expect(left).not.toBe('');
    expect(error!.message).not.toContain(left);
    const shown = messageOf(error!, 'ACC');
    const text = `${shown.title} ${shown.detail}`;
    // The Tables card says "still holds its last load" itself: the detail leaves it out; any other state is said once.
    expect(text.split(left).length - 1).toBe(error!.tableState === 'intact' ? 0 : 1);
    expect(text).toContain(error!.message.split(' (')[0]);
  }
});

test("a relay's refusal of a load shows its sentence plain, what the load left after it, and its code and status as the reference", () => {
  const m = messageOf(
    { code: 'api', apiCode: 'relay', relay: { code: 'policy-refused', status: 403, sentence: 'The relay says: Refused by rule "compliance".' }, message: 'The relay says: Refused by rule "compliance". (policy-refused, 403)', table: 'tbl_risk', left: 'partial-removed' },
    'ACC',
  );
  expect(m).toEqual({ title: 'Not allowed for you', detail: 'The relay says: Refused by rule "compliance". Nothing was loaded; the partial table was removed.', reference: 'relay code policy-refused, status 403' });
});

test('a load and a refresh in the taskpane record the fingerprint of what they received, as the CLI does', async () => {
  const { loadIntoWorkbook, refreshInWorkbook } = await import('../../../src/taskpane/tables/ops');
  const { createMemoryWorkbook } = await import('../../../src/workbook/memory');
  const { readLoadRecords } = await import('../../../src/loading/loadrecords');
  const { canonicalJson } = await import('../../../src/loading/fingerprint');
  const { fakeClient } = await import('../../loading/fakeClient');
  const { createHash } = await import('node:crypto');
  const records = [
    { Id: '0b5c3d1e-1111-4a4a-8b8b-000000000001', Name: 'Risk 1', GrossImpact: 3 },
    { Id: '0b5c3d1e-1111-4a4a-8b8b-000000000002', Name: 'Risk 2', GrossImpact: 4 },
  ];
  const session = { environment: { name: 'ACC' }, client: fakeClient(records).client, source: 'test', keyFingerprint: 'k' } as unknown as import('../../../src/taskpane/screen').Session;
  const workbook = createMemoryWorkbook();
  const common = { session, workbook, signal: new AbortController().signal, onProgress: () => undefined };
  const loaded = await loadIntoWorkbook({ ...common, dataset: { id: 'risk', title: 'Risks' }, target: { kind: 'new-sheet' }, params: {} } as never);
  expect(loaded.ok).toBe(true);
  const expected = createHash('sha256').update(records.map((r) => `${canonicalJson(r)}\n`).join('')).digest('hex');
  expect((await readLoadRecords(workbook)).get('tbl_risk')?.fingerprint).toEqual({ method: 'sha256/jcs-lines/1', count: 2, sha256: expected });
  const before = (await readLoadRecords(workbook)).get('tbl_risk')!.loadedAt;
  const refreshed = await refreshInWorkbook({ ...common, table: 'tbl_risk', dataset: 'risk' });
  expect(refreshed.ok).toBe(true);
  const after = (await readLoadRecords(workbook)).get('tbl_risk')!;
  expect(after.loadedAt >= before && after.fingerprint?.sha256).toBe(expected);
});

test('a refresh that would grow over cells below the table says so, and offers no Overwrite', async () => {
  const { refreshInWorkbook } = await import('../../../src/taskpane/tables/ops');
  const { createMemoryWorkbook } = await import('../../../src/workbook/memory');
  const { loadDataset } = await import('../../../src/loading/load');
  const { fakeClient } = await import('../../loading/fakeClient');
  const risk = (i: number) => ({ Id: `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`, Name: `Risk ${i}` });
  const workbook = createMemoryWorkbook();
  await loadDataset({ client: fakeClient([risk(1)]).client, workbook, datasetId: 'risk', environment: 'ACC', target: { kind: 'new-sheet' } });
  workbook.setCells('Risks', 'A4', [['my note']]);
  const session = { environment: { name: 'ACC' }, client: fakeClient([1, 2, 3, 4].map(risk)).client, source: 'test', keyFingerprint: 'k' } as unknown as import('../../../src/taskpane/screen').Session;
  const result = await refreshInWorkbook({ session, workbook, table: 'tbl_risk', dataset: 'risk', signal: new AbortController().signal, onProgress: () => undefined });
  expect(result).toMatchObject({ ok: false, tableState: 'intact', message: { title: 'The table would grow over cells below it', detail: expect.stringContaining('Risks!A4') } });
  expect('askOverwrite' in result).toBe(false);
});
