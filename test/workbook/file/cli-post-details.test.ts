import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as post } from '../../../src/cli/post';
import { run as template } from '../../../src/cli/template';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { fillIncidents } from '../../support/incident-book';
import { libreOfficeFills, openpyxl, openpyxlFills } from '../../support/outside-readers';
import { cliIo } from '../../support/sandbox';

const RED = 'F4CCCC';
const AMBER = 'FFF2CC';

/**
 * The colours `grc-sheets post` leaves in the saved file, read by openpyxl and LibreOffice: exactly the
 * problems of the last validation, whatever earlier runs marked, and none once every row is posted (the
 * preview's memory workbook does the same; test/writeback/marks-audit.test.ts).
 */
describe('grc-sheets post: the marks in the saved file, and rows under the table', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 60 });
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-marks-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const connect = () => ['--base-url', sandbox.url, '--env', 'ACC'];

  it('two dry runs mark only the problems; fixed cells lose their red and a post leaves no mark', async () => {
    const book = join(dir, 'marks.xlsx');
    const made = cliIo(sandbox);
    expect(await template(['--flow', 'incidents', ...connect(), '--json', book], made.io)).toBe(0);
    const table = (JSON.parse(made.out.join('\n')) as { table: string }).table;
    // Rows 2 and 3 identical (a warning on each), row 4 without a name (an error), row 5 clean.
    fillIncidents(book, table, [['Twice', null], ['Twice', null], ['', null], ['Clean', null]]);
    const problemCells = async () => {
      const cli = cliIo(sandbox);
      expect(await post([book, '--table', table, ...connect(), '--dry-run', '--json'], cli.io)).toBe(1);
      const { problems } = JSON.parse(cli.out.join('\n')) as { problems: { sheetRow: number; column: string; severity: string }[] };
      const heads = openpyxl<string[]>(book, `print(json.dumps([c.value for c in load_workbook(sys.argv[1])['Incidents'][1]]))`);
      const cells: Record<string, string> = {};
      for (const p of problems) {
        const at = `${String.fromCharCode(65 + heads.indexOf(p.column))}${p.sheetRow}`;
        cells[at] = p.severity === 'error' || cells[at] === RED ? RED : AMBER;
      }
      return cells;
    };
    const first = await problemCells();
    expect(Object.values(first).sort()).toEqual([RED, AMBER, AMBER]);
    expect(openpyxlFills(book, 'Incidents')).toEqual(first);
    // Nothing edited in between: the same marks, none spread to a clean row or to another column.
    expect(await problemCells()).toEqual(first);
    expect(openpyxlFills(book, 'Incidents')).toEqual(first);

    // Fixed with openpyxl (which drops the add-in's part, and with it the list of cells it marked), then posted.
    fillIncidents(book, table, [['Twice', null], ['Twice again', null], ['Named now', null], ['Clean', null]]);
    const posted = cliIo(sandbox);
    expect([await post([book, '--table', table, ...connect(), '--yes'], posted.io), posted.err]).toEqual([0, []]);
    expect(posted.out.join('\n')).toMatch(/4 created, 0 done, 0 failed/);
    expect(openpyxlFills(book, 'Incidents')).toEqual({});
    expect(libreOfficeFills(book, 'Incidents')).toEqual({});
  }, 120_000);

  it('LibreOffice sees the marks of a dry run where openpyxl does', async () => {
    const book = join(dir, 'seen.xlsx');
    const made = cliIo(sandbox);
    expect(await template(['--flow', 'incidents', ...connect(), '--json', book], made.io)).toBe(0);
    const table = (JSON.parse(made.out.join('\n')) as { table: string }).table;
    fillIncidents(book, table, [['', null], ['Fine', null]]);
    const cli = cliIo(sandbox);
    expect(await post([book, '--table', table, ...connect(), '--dry-run'], cli.io)).toBe(1);
    expect(openpyxlFills(book, 'Incidents')).toEqual({ A2: RED });
    expect(libreOfficeFills(book, 'Incidents')).toEqual({ A2: RED });
  }, 120_000);

  it('says which rows a script wrote under the table without stretching it, and how to take them in; sends nothing until then', async () => {
    const book = join(dir, 'below.xlsx');
    const made = cliIo(sandbox);
    expect(await template(['--flow', 'incidents', ...connect(), '--json', book], made.io)).toBe(0);
    const table = (JSON.parse(made.out.join('\n')) as { table: string }).table;
    fillIncidents(book, table, [['In the table', null]]);
    // openpyxl writes rows 3 and 4 and leaves the table's range at row 2, as a script appending rows does.
    const ref = openpyxl<string>(
      book,
      `wb = load_workbook(sys.argv[1])
ws = wb['Incidents']
ws['A3'] = 'Under one'
ws['A4'] = 'Under two'
wb.save(sys.argv[1])
print(json.dumps(ws.tables['${table}'].ref))`,
    );
    const stretched = ref.replace(/\d+$/, '4');
    const before = sandbox.store.addedRecords('incidents').length;
    for (const extra of [['--dry-run'], ['--yes']]) {
      const cli = cliIo(sandbox);
      expect(await post([book, '--table', table, ...connect(), ...extra], cli.io)).toBe(1);
      expect(cli.err.join('\n')).toContain(
        `Rows 3 to 4 under table ${table} hold values but are not part of the table, so they are not read. Stretch the table over them to ${stretched} (in Excel: Table Design > Resize Table; with openpyxl: ws.tables['${table}'].ref = '${stretched}'), then run again. Nothing was sent.`,
      );
    }
    expect(sandbox.store.addedRecords('incidents').length).toBe(before);
    // Stretched as the message says: all three rows are read (the two new ones lack their organization).
    openpyxl(book, `wb = load_workbook(sys.argv[1])\nt = wb['Incidents'].tables['${table}']\nt.ref = '${stretched}'\nt.autoFilter.ref = t.ref\nwb.save(sys.argv[1])\nprint('null')`);
    const cli = cliIo(sandbox);
    expect(await post([book, '--table', table, ...connect(), '--dry-run', '--json'], cli.io)).toBe(1);
    const dry = JSON.parse(cli.out.join('\n')) as { toSend: number; problems: { sheetRow: number }[] };
    expect(dry.toSend).toBe(1);
    expect([...new Set(dry.problems.map((p) => p.sheetRow))]).toEqual([3, 4]);
  }, 120_000);
});
