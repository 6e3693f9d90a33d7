import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/cli/load';
import { run as refresh } from '../../../src/cli/refresh';
import { run as verify } from '../../../src/cli/verify';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { startRelay, type Relay } from '../../../src/relay';
import { readLoadRecords } from '../../../src/loading/loadrecords';
import { openFileWorkbook } from '../../../src/workbook/file';
import { libreOfficeSheets, openpyxl } from '../../support/outside-readers';
import { cliIo as sandboxIo } from '../../support/sandbox';

/**
 * Each `grc-sheets` run is a process of its own, with its own connections; here every run shares the test
 * process's pool. An idle pooled connection the relay closes at its keep-alive timeout can be picked for the
 * next run's first request just as it closes (more likely on a loaded machine): such a request, which never
 * reached the relay, is sent again on a new connection, as a new process would have done from the start.
 */
const cliIo = (...args: Parameters<typeof sandboxIo>) => {
  const made = sandboxIo(...args);
  const fetchOnce = made.io.fetch;
  const closedUnder = (e: unknown) => ['UND_ERR_SOCKET', 'ECONNRESET'].includes((e as { cause?: { code?: string } }).cause?.code ?? '');
  made.io.fetch = async (input, init) => {
    try {
      return await fetchOnce(input, init);
    } catch (e) {
      if (!closedUnder(e)) throw e;
      return fetchOnce(input, init);
    }
  };
  return made;
};

/**
 * `grc-sheets load` through a real relay to the real sandbox: a workbook made from nothing, the table's
 * record stored so refresh and verify know it, read by openpyxl and LibreOffice (headers in words, typed
 * cells, widths, frozen header); `--list`; refusals that name the fix.
 */
describe('grc-sheets load', () => {
  let sandbox: Sandbox;
  let relay: Relay;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 40 });
    relay = await startRelay({ listen: { host: '127.0.0.1', port: 0 }, environments: { acc: { baseUrl: sandbox.url } }, logLevel: 'silent' }, {});
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-load-'));
  });
  afterAll(async () => {
    await relay.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const via = () => ['--relay', relay.url, '--env', 'acc'];

  it('makes a workbook with the table, which refresh and verify know and outside readers read as a report', async () => {
    const book = join(dir, 'risks.xlsx');
    const cli = cliIo(sandbox);
    expect(await run([book, '--dataset', 'risk', ...via()], cli.io)).toBe(0);
    expect(cli.out).toEqual(['tbl_risk']);
    expect(cli.err.join('\n')).toMatch(/^Risks: [\d,]+ rows into table tbl_risk on sheet Risks of .*risks\.xlsx \(new workbook\)\.$/);

    const wb = openFileWorkbook(book);
    const b = (await readLoadRecords(wb)).get('tbl_risk')!;
    wb.close();
    expect(b).toMatchObject({ environment: 'acc', datasetId: 'risk', source: `relay ${relay.url}` });
    expect(b.columns.slice(0, 3)).toEqual(['Identifier', 'Name', 'Description']);
    expect(b.fields!.slice(0, 3)).toEqual(['Identifier', 'Name', 'Description']);
    expect(b.fingerprint).toBeDefined();
    expect(b.cells!.count).toBe(b.rowCount);

    const seen = openpyxl<{ header: string[]; row: unknown[]; formats: string[]; freeze: string | null; widths: Record<string, number>; ref: string }>(
      book,
      `wb = load_workbook(sys.argv[1])
ws = wb['Risks']
t = ws.tables['tbl_risk']
print(json.dumps({'header': [c.name for c in t.tableColumns], 'row': [c.value if not hasattr(c.value, 'isoformat') else c.value.isoformat() for c in ws[2]],
  'formats': [c.number_format for c in ws[2]], 'freeze': ws.freeze_panes, 'ref': t.ref,
  'widths': {k: d.width for k, d in ws.column_dimensions.items() if d.width}}))`,
    );
    const at = (h: string) => seen.header.indexOf(h);
    expect(seen.header).toEqual(b.columns);
    expect(seen.header.at(-3)).toBe('GUID');
    expect(seen.header).toEqual(expect.arrayContaining(['Gross likelihood', 'Date identified', 'Root cause category GUIDs']));
    expect(seen.freeze).toBe('A2');
    expect(seen.formats[at('Date identified')]).toBe('yyyy-mm-dd');
    expect(seen.formats[at('Name')]).toBe('@');
    expect(typeof seen.row[at('Gross likelihood')]).toBe('number');
    expect(String(seen.row[at('Date identified')])).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
    // Widths follow the content, under the cap: the description is wider than the identifier, not unbounded.
    expect(seen.widths['C']).toBeGreaterThan(seen.widths['A']!);
    expect(Math.max(...Object.values(seen.widths))).toBeLessThanOrEqual(50);

    const calc = libreOfficeSheets(book).get('Risks')!;
    expect(calc[0]!.slice(0, 2)).toEqual(['Identifier', 'Name']);
    expect(calc[1]![at('Date identified')]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(calc).toHaveLength(b.rowCount + 1);

    const again = cliIo(sandbox);
    expect([await refresh([book, ...via()], again.io), again.err]).toEqual([0, []]);
    const checked = cliIo(sandbox);
    expect([await verify([book], checked.io), checked.err]).toEqual([0, []]);
    const wb2 = openFileWorkbook(book);
    expect((await wb2.findTable('tbl_risk'))!.columns).toEqual(seen.header);
    wb2.close();
  });

  it('adds a second table to an existing workbook under the given names, with the chosen columns', async () => {
    const book = join(dir, 'two.xlsx');
    expect(await run([book, '--dataset', 'incidents', ...via()], cliIo(sandbox).io)).toBe(0);
    const cli = cliIo(sandbox);
    expect(await run([book, '--dataset', 'riskcustomfieldvalues', '--table', 'Definitions', '--sheet', 'Custom fields', '--columns', 'Name,Type,Visible', '--json', ...via()], cli.io)).toBe(0);
    const made = JSON.parse(cli.out.join('\n')) as { table: string; sheet: string; columns: string[]; created: boolean };
    expect(made).toMatchObject({ table: 'Definitions', sheet: 'Custom fields', created: false, columns: ['Name', 'Type', 'Visible', 'GUID'] });
    const seen = openpyxl<{ sheets: string[]; visible: unknown[] }>(
      book,
      `wb = load_workbook(sys.argv[1])
ws = wb['Custom fields']
print(json.dumps({'sheets': wb.sheetnames, 'visible': sorted(set(c.value for c in ws['C'][1:]))}))`,
    );
    expect(seen.sheets).toEqual(['Incidents', 'Evidence', 'Custom fields']);
    expect(seen.visible.every((v) => v === 'Yes' || v === 'No')).toBe(true);
  });

  it('loads a risk register: custom fields as typed columns, names for GUIDs, read so by openpyxl and LibreOffice', async () => {
    const book = join(dir, 'register.xlsx');
    const cli = cliIo(sandbox);
    expect(await run([book, '--dataset', 'register:risks', ...via()], cli.io)).toBe(0);
    expect(cli.out).toEqual(['tbl_register_risks']);
    const seen = openpyxl<{ header: string[]; rows: Record<string, unknown>[]; formats: Record<string, string>; freeze: string | null }>(
      book,
      `import datetime
wb = load_workbook(sys.argv[1])
ws = wb['Risk register']
t = ws.tables['tbl_register_risks']
cells = ws[t.ref]
header = [c.value for c in cells[0]]
def show(v):
    if isinstance(v, datetime.datetime): return 'date:' + v.date().isoformat()
    if isinstance(v, bool): return 'bool:' + str(v)
    if isinstance(v, (int, float)): return 'num'
    return v
print(json.dumps({'header': header, 'freeze': ws.freeze_panes, 'formats': dict(zip(header, [c.number_format for c in cells[1]])),
  'rows': [dict(zip(header, [show(c.value) for c in row])) for row in cells[1:]]}))`,
    );
    expect(seen.header.slice(0, 2)).toEqual(['Identifier', 'Name']);
    expect(seen.header).toEqual(expect.arrayContaining(['Risk appetite', 'Review note', 'Regulatory', 'Next assessment', 'Impacted processes', 'Root cause categories', 'Controls']));
    expect(seen.header).not.toContain('Internal scoring'); // invisible: only when asked
    expect(seen.header.slice(-3)).toEqual(['GUID', 'Root cause category GUIDs', 'Control GUIDs']);
    expect(seen.freeze).toBe('A2');
    expect(seen.formats['Next assessment']).toBe('yyyy-mm-dd');
    const values = (h: string) => seen.rows.map((r) => r[h]).filter((v) => v !== null);
    expect(values('Next assessment').length).toBeGreaterThan(0);
    expect(values('Next assessment').every((v) => /^date:\d{4}-\d{2}-\d{2}$/.test(String(v)))).toBe(true);
    expect(values('Regulatory').every((v) => v === 'Yes' || v === 'No')).toBe(true);
    expect(values('Impacted processes').some((v) => String(v).includes('; '))).toBe(true);
    expect(values('Root cause categories').every((v) => / > /.test(String(v)))).toBe(true);
    expect(values('Controls').every((v) => /^C-\d{6}(; C-\d{6})*$/.test(String(v)))).toBe(true);

    const calc = libreOfficeSheets(book).get('Risk register')!;
    const at = (h: string) => calc[0]!.indexOf(h);
    expect(calc[0]).toEqual(seen.header);
    expect(calc.slice(1).some((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[at('Next assessment')]!))).toBe(true);
    expect(calc.slice(1).every((r) => ['Yes', 'No', ''].includes(r[at('Regulatory')]!))).toBe(true);
  });

  it('lists the datasets without a key, and refuses what it cannot do with the fix named', async () => {
    const listed = cliIo(sandbox, {});
    expect([await run(['--list', ...via()], listed.io), listed.err]).toEqual([0, []]);
    expect(listed.out.join('\n')).toMatch(/^Risks:\n {2}risk +Risks\n/);
    expect(listed.out.join('\n')).toContain('incidents');
    expect(listed.out.join('\n')).toMatch(/\n {2}register:risks +Risk register\n/);

    const typo = cliIo(sandbox);
    expect(await run([join(dir, 'x.xlsx'), '--dataset', 'risks', ...via()], typo.io)).toBe(2);
    expect(typo.err[0]).toMatch(/^grc-sheets load: acc offers no dataset "risks"; did you mean risk \(Risks\)/);

    const book = join(dir, 'same.xlsx');
    expect(await run([book, '--dataset', 'risk', '--table', 'Mine', ...via()], cliIo(sandbox).io)).toBe(0);
    const stamp = statSync(book).mtimeMs;
    const taken = cliIo(sandbox);
    expect(await run([book, '--dataset', 'risk', '--table', 'Mine', ...via()], taken.io)).toBe(1);
    expect(taken.err[0]).toContain('already has a table Mine');
    expect(statSync(book).mtimeMs).toBe(stamp);
    const sheet = cliIo(sandbox);
    expect(await run([book, '--dataset', 'risk', '--sheet', 'Risks', ...via()], sheet.io)).toBe(2);
    expect(sheet.err[0]).toContain('already has a sheet Risks');
    const bad = cliIo(sandbox);
    expect(await run([book, '--dataset', 'risk', '--table', 'A1', ...via()], bad.io)).toBe(2);
    const cols = cliIo(sandbox);
    expect(await run([book, '--dataset', 'risk', '--columns', 'Name,Owner2', ...via()], cols.io)).toBe(2);
    expect(cols.err[0]).toContain('Risks has no field Owner2');
  });
});
