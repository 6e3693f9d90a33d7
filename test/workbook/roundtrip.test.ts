import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectEnvironment } from '../../src/connect/connect';
import { run as post } from '../../src/cli/post';
import { run as refresh } from '../../src/cli/refresh';
import { run as template } from '../../src/cli/template';
import { run as verify } from '../../src/cli/verify';
import { readLoadRecords, reconcileLoadRecords } from '../../src/loading/loadrecords';
import { loadDataset, refreshAll, type LoadOutcome } from '../../src/loading/load';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { openFileWorkbook } from '../../src/workbook/file';
import { preparePost, tableRecords } from '../../src/writeback';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { ROW_STATE_COLUMN } from '../../src/writeback/rows/state';
import { openInFakeExcel, saveFakeExcel } from '../support/excel-file';
import { openpyxl } from '../support/outside-readers';
import { fillIncidents } from '../support/incident-book';
import { cliIo, demoClient } from '../support/sandbox';
import { FakeExcel, supports } from './excel/fakeExcel';

/**
 * The add-in and the headless commands on one workbook, through files neither side wrote for the other:
 * the fake Excel is saved by ExcelJS (plus the add-in's web extension part) and opened through openpyxl
 * (test/support/excel-file.ts); the commands read and write with the file adapter; the service is the
 * real sandbox on loopback.
 */
describe('round trip between the add-in and the saved workbook', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 40 });
    dir = mkdtempSync(join(tmpdir(), 'grc-roundtrip-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const io = () => cliIo(sandbox);
  const connect = () => ['--base-url', sandbox.url, '--env', 'ACC'];
  /** The add-in in a session of Excel (the fake): Office.js batching, ExcelApi 1.18 on the desktop. */
  const addin = (xl: FakeExcel) => createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
  const base = () => ({ client: demoClient(sandbox), environment: 'ACC', source: `direct ${sandbox.url}` });
  /** A table's body as a map from its GUID column (the record's Id) to the row's cells by header. */
  const byId = (xl: FakeExcel, table: string) => {
    const header = xl.header(table).map(String);
    return new Map(xl.body(table).map((r) => [String(r[header.indexOf('GUID')]), Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
  };
  const letter = (i: number): string => (i >= 26 ? letter(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
  const ok = (o: LoadOutcome) => {
    if (!o.ok) throw new Error(o.error.message);
    return o;
  };

  // Whether Excel gives a reopened workbook's tables the ids of the session that saved it is not
  // documented: with new ids the bindings find their tables by name, with the same ids by id.
  it.each([
    // The Evidence sheet's table, made by the first load, comes between the two in the file.
    ['new table ids', 1001, ['{1001}', '{1003}']],
    ['the same table ids', 1, ['{1}', '{3}']],
  ])('a workbook the add-in loaded and saved refreshes headless, opens again (%s) with every table, binding and fingerprint, and refuses a hand edit made in Excel', async (session, firstTableId, ids) => {
    const book = join(dir, `register-${firstTableId}.xlsx`);
    const xl = new FakeExcel();
    const first = addin(xl);
    ok(await loadDataset({ ...base(), workbook: first, datasetId: 'risk', target: { kind: 'new-sheet' } }));
    ok(await loadDataset({ ...base(), workbook: first, datasetId: 'incidents', target: { kind: 'new-sheet' } }));
    const loaded = await readLoadRecords(first);
    expect([...loaded.keys()].sort()).toEqual(['tbl_incidents', 'tbl_risk']);
    expect(loaded.get('tbl_risk')!.tableId).toBe('{1}');
    await saveFakeExcel(xl, book);

    // Between the add-in's load and the scheduled refresh, a risk is renamed at the source.
    const risks = byId(xl, 'tbl_risk');
    const [renamed, second] = [...risks.keys()];
    sandbox.store.patch('risk', renamed!, { Name: `Renamed at the source, ${session}` });

    const headless = io();
    expect([await refresh([book, ...connect(), '--json'], headless.io), headless.err]).toEqual([0, []]);
    type Summary = { tables: { table: string; ok: boolean; rows: number; fingerprint: { method: string; count: number; sha256: string }; changes: { summary: { added: number; removed: number; changed: number } } }[] };
    const summary = JSON.parse(headless.out.join('\n')) as Summary;
    const refreshed = new Map(summary.tables.map((t) => [t.table, t]));
    expect(refreshed.get('tbl_risk')).toMatchObject({ ok: true, rows: 40, changes: { summary: { added: 0, removed: 0, changed: 1 } } });
    expect(refreshed.get('tbl_incidents')).toMatchObject({ ok: true, rows: 10, changes: { summary: { added: 0, removed: 0, changed: 0 } } });
    // What the refresh kept in the file, read by the file adapter: the cell prints the add-in must match.
    const file = openFileWorkbook(book);
    const inFile = await readLoadRecords(file);
    file.close();

    // Opened again in Excel, in a new session.
    const xl2 = openInFakeExcel(book, { firstTableId });
    const again = addin(xl2);
    const { records: bindings, tables, removed } = await reconcileLoadRecords(again);
    expect(removed).toEqual([]);
    expect([...bindings.keys()].sort()).toEqual(['tbl_incidents', 'tbl_risk']);
    for (const name of ['tbl_risk', 'tbl_incidents']) {
      const b = bindings.get(name)!;
      expect(b.fingerprint).toEqual(refreshed.get(name)!.fingerprint);
      expect(b.cells).toEqual(inFile.get(name)!.cells);
      expect(b.cells!.count).toBe(refreshed.get(name)!.rows);
      expect(b.tableId).toBe(tables.get(name)!.id);
      expect(tables.get(name)!.rowCount).toBe(refreshed.get(name)!.rows);
    }
    expect([bindings.get('tbl_risk')!.tableId, bindings.get('tbl_incidents')!.tableId]).toEqual(ids);
    expect(byId(xl2, 'tbl_risk').get(renamed!)!['Name']).toBe(`Renamed at the source, ${session}`);
    // Dates came back as the serials the add-in wrote, under their date format; text under "@".
    const header = xl2.header('tbl_risk').map(String);
    const column = (name: string) => letter(header.indexOf(name));
    const date = xl2.peek('Risks', `${column('Date identified')}2`);
    expect(date).toMatchObject({ value: expect.any(Number), format: 'yyyy-mm-dd' });
    expect(xl.peek('Risks', `${column('Date identified')}2`)).toMatchObject({ value: date!.value, format: 'yyyy-mm-dd' });
    expect(xl2.peek('Risks', `${column('Name')}2`)!.format).toBe('@');

    // A refresh in the add-in finds no hand edits (the cell print matches what Excel reads back) and
    // reports what changed at the source since.
    sandbox.store.patch('risk', second!, { Name: `Renamed again, ${session}` });
    const inAddin = await refreshAll({ ...base(), workbook: again });
    const outcome = new Map(inAddin.map((r) => [r.table, ok(r.outcome)]));
    expect(outcome.get('tbl_risk')!.changes).toMatchObject({ summary: { added: 0, removed: 0, changed: 1 }, text: '0 added, 0 removed, 1 changed' });
    expect(outcome.get('tbl_incidents')!.changes).toMatchObject({ summary: { added: 0, removed: 0, changed: 0 }, text: 'no changes' });
    expect(byId(xl2, 'tbl_risk').get(second!)!['Name']).toBe(`Renamed again, ${session}`);

    // Saved again from Excel: the headless verify agrees with the add-in's cell prints.
    await saveFakeExcel(xl2, book);
    const clean: string[] = [];
    expect(await verify([book, '--json'], { stdout: (t) => clean.push(t), stderr: (t) => clean.push(t) })).toBe(0);
    expect((JSON.parse(clean.join('\n')) as { tables: { table: string; status: string }[] }).tables.map((t) => [t.table, t.status]).sort()).toEqual([
      ['tbl_incidents', 'verified'],
      ['tbl_risk', 'verified'],
    ]);

    // Someone types over a name in Excel and saves: the scheduled refresh refuses that table, naming the cell.
    const nameCol = column('Name');
    const was = xl2.peek('Risks', `${nameCol}4`)!.value;
    xl2.peek('Risks', `${nameCol}4`)!.value = 'Typed over in Excel';
    await saveFakeExcel(xl2, book);
    const refused = io();
    expect(await refresh([book, ...connect(), '--json'], refused.io)).toBe(1);
    const said = JSON.parse(refused.out.join('\n')) as { saved: boolean; tables: { table: string; ok: boolean; error?: { code: string; edits: unknown[] } }[] };
    expect(said.tables.find((t) => t.table === 'tbl_risk')).toMatchObject({ ok: false, error: { code: 'edited', edits: [{ address: `Risks!${nameCol}4`, field: 'Name', old: was, now: 'Typed over in Excel', certain: true }] } });
    expect(said.tables.find((t) => t.table === 'tbl_incidents')).toMatchObject({ ok: true });
    expect(openpyxl<string>(book, `print(json.dumps(load_workbook(sys.argv[1])['Risks']['${nameCol}4'].value))`)).toBe('Typed over in Excel');
    const verified: string[] = [];
    expect(await verify([book], { stdout: (t) => verified.push(t), stderr: (t) => verified.push(t) })).toBe(1);
    // Without the service's answer, verify narrows the edit to the rows of its bucket (32 rows a bucket).
    const lines = verified.join('\n');
    expect(lines).toMatch(/^EDITED {2}Table tbl_risk was changed since it was loaded \S+: the edits are in \d+ rows starting [^\n]*Risks!A4\b/m);
    expect(lines).toMatch(/^ok {2}Table tbl_incidents: 10 rows as loaded /m);
  }, 120_000);

  it('a template made and posted headless, filled by openpyxl, opens in the add-in with its results, and the add-in posts nothing twice', async () => {
    const book = join(dir, 'incidents.xlsx');
    const made = io();
    expect([await template(['--flow', 'incidents', ...connect(), '--json', book], made.io), made.err]).toEqual([0, []]);
    const table = (JSON.parse(made.out.join('\n')) as { table: string }).table;
    // Two valid rows and one whose organization is not in the service's list.
    fillIncidents(book, table, [
      ['Round trip one', null],
      ['Round trip two', null],
      ['Round trip bad', 'Nowhere Inc'],
    ]);
    const before = sandbox.store.addedRecords('incidents').length;
    const posted = io();
    // Exit 1: a row has errors; the valid ones are posted.
    expect(await post([book, '--table', table, ...connect(), '--yes'], posted.io)).toBe(1);
    expect(posted.out.join('\n')).toMatch(/2 created, 0 done, 0 failed, 0 unknown, 1 not sent \(errors\)/);
    const made2 = sandbox.store.addedRecords('incidents').slice(before) as { Id: string; Name: string }[];
    expect(made2.map((r) => r.Name)).toEqual(['Round trip one', 'Round trip two']);

    // Opened in Excel: the add-in reads each row's result, its own hidden columns and the table's record.
    const xl = openInFakeExcel(book);
    const wb = addin(xl);
    expect(await tableRecords(wb)).toEqual({ [table]: expect.objectContaining({ flow: 'incidents', environment: 'ACC' }) });
    const { columns, rows } = await wb.readRows(table);
    const at = (c: string) => columns.indexOf(c);
    expect(rows.map((r) => [r[0], r[at('Result')], r[at('Result GUID')]])).toEqual([
      ['Round trip one', 'created', made2[0]!.Id],
      ['Round trip two', 'created', made2[1]!.Id],
      ['Round trip bad', 'Not sent: 1 error', null],
    ]);
    expect(rows.map((r) => r[at('Result message')])).toEqual(['Created', 'Created', expect.stringMatching(/^Reporting organization: no organization is named "Nowhere Inc"; known: /)]);
    expect(rows.map((r) => r[at(ROW_STATE_COLUMN)])).toEqual([null, null, null]);
    expect(rows.slice(0, 2).every((r) => typeof r[at('Row key')] === 'string' && String(r[at('Row key')]).length > 0)).toBe(true);
    const shape = (await wb.findTable(table))!;
    const sheet = xl.sheet('Incidents');
    for (const c of ['Row key', ROW_STATE_COLUMN]) expect(sheet.columns?.get(shape.columns.indexOf(c))?.hidden).toBe(true);
    const orgLetter = letter(at('Reporting organization'));
    expect(xl.peek('Incidents', `${orgLetter}4`)).toMatchObject({ value: 'Nowhere Inc', fill: '#F4CCCC' });
    expect(xl.peek('Incidents', `${orgLetter}2`)!.fill).toBeUndefined();

    // The add-in's Post: the valid rows are done, the invalid one shows its problem; nothing is sent.
    const received = sandbox.store.received.length;
    const { client, bound: { view } } = await connectEnvironment({ 'base-url': sandbox.url, env: 'ACC' }, io().io);
    const plan = await preparePost({ api: client, workbook: wb, table, flow: incidentsFlow, environment: view });
    expect([plan.toSend, plan.toCheck]).toEqual([0, 0]);
    expect(plan.validation.problems).toEqual([expect.objectContaining({ row: 2, column: 'Reporting organization', severity: 'error' })]);
    const summary = await plan.run({ ...(plan.confirmation ? { confirm: { environment: plan.confirmation.environment, rows: plan.confirmation.rows } } : {}) });
    expect(summary.outcomes).toEqual([]);
    expect(sandbox.store.received.length).toBe(received);
    expect(sandbox.store.addedRecords('incidents').length).toBe(before + 2);
  }, 120_000);
});
