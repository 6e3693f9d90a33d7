import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/cli/refresh';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { openpyxl, PUT_ADDIN_PART_BACK } from '../../support/outside-readers';
import { cliIo } from '../../support/sandbox';

/** Edits one cell with openpyxl and puts the add-in's part back (openpyxl drops it), as Excel would keep it. */
const EDIT = `import sys, re, zipfile
from openpyxl import load_workbook
src, dst, sheet, cell, value = sys.argv[1:]
wb = load_workbook(src)
wb[sheet][cell] = value
tmp = dst + '.openpyxl'
wb.save(tmp)
${PUT_ADDIN_PART_BACK}`;

describe('grc-sheets refresh: hand edits and the change report', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 120 });
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-edits-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function refresh(book: string, ...more: string[]) {
    const { io, out } = cliIo(sandbox);
    const code = await run([book, '--base-url', sandbox.url, '--env', 'ACC', '--json', ...more], io);
    return { code, out: JSON.parse(out.join('\n')) as { saved: boolean; tables: { ok: boolean; changes?: { text: string; summary: { changed: number } }; error?: { code: string; message: string; edits?: { address: string; old: unknown; now: unknown; certain: boolean }[] } }[] } };
  }

  it('refuses to grow the table over a note kept below it, naming the cell; a note further down stays where it is', async () => {
    const fixture = join(__dirname, 'fixtures', 'pivot-chart.xlsx');
    const near = join(dir, 'note-near.xlsx');
    execFileSync('/usr/bin/python3', ['-c', EDIT, fixture, near, 'Risks', 'B100', 'Checked by audit, keep']);
    const refused = await refresh(near);
    expect(refused.code).toBe(1);
    expect(refused.out.saved).toBe(false);
    expect(refused.out.tables[0]!.error).toMatchObject({ code: 'target-not-empty' });
    expect(refused.out.tables[0]!.error!.message).toMatch(/grows by 110 rows with this refresh, down over Risks!B100, which holds data that would be overwritten.*at least to row 122/);
    expect(openpyxl<string>(near, "print(json.dumps(load_workbook(sys.argv[1])['Risks']['B100'].value))")).toBe('Checked by audit, keep');

    const far = join(dir, 'note-far.xlsx');
    execFileSync('/usr/bin/python3', ['-c', EDIT, fixture, far, 'Risks', 'B122', 'Checked by audit, keep']);
    expect((await refresh(far)).code).toBe(0);
    expect(openpyxl<[unknown, unknown]>(far, "ws = load_workbook(sys.argv[1])['Risks']\nprint(json.dumps([ws['B121'].value is not None, ws['B122'].value]))")).toEqual([true, 'Checked by audit, keep']);
  });

  it('refuses to overwrite a figure edited by hand, names it, and overwrites it with --overwrite-edits', async () => {
    const book = join(dir, 'report.xlsx');
    copyFileSync(join(__dirname, 'fixtures', 'pivot-chart.xlsx'), book);
    const first = await refresh(book);
    expect(first.code).toBe(0);
    // A second refresh of the same data changes nothing.
    const same = await refresh(book);
    expect(same.out.tables[0]!.changes!.text).toBe('no changes');
    const name = openpyxl<string>(book, "print(json.dumps(load_workbook(sys.argv[1])['Risks']['C5'].value))");
    const edited = join(dir, 'edited.xlsx');
    execFileSync('/usr/bin/python3', ['-c', EDIT, book, edited, 'Risks', 'C5', 'Typed over']);

    const refused = await refresh(edited);
    expect(refused.code).toBe(1);
    expect(refused.out.saved).toBe(false);
    expect(refused.out.tables[0]!.error).toMatchObject({ code: 'edited', edits: [{ address: 'Risks!C5', old: name, now: 'Typed over', certain: true }] });
    expect(refused.out.tables[0]!.error!.message).toContain(`Risks!C5 (Organization, `);
    expect(openpyxl<string>(edited, "print(json.dumps(load_workbook(sys.argv[1])['Risks']['C5'].value))")).toBe('Typed over');

    const forced = await refresh(edited, '--overwrite-edits');
    expect(forced.code).toBe(0);
    expect(openpyxl<string>(edited, "print(json.dumps(load_workbook(sys.argv[1])['Risks']['C5'].value))")).toBe(name);
    expect(forced.out.tables[0]!.changes!.summary.changed).toBe(1);
    // The Changes sheet says what the refresh put back, read by openpyxl.
    const rows = openpyxl<string[][]>(edited, "ws = load_workbook(sys.argv[1])['Changes']\nprint(json.dumps([[c.value for c in r] for r in ws.iter_rows(min_row=2)][-1:]))");
    expect(rows[0]!.slice(1)).toEqual(['tbl_risk', 'risk', expect.any(String), 'Organization', 'Typed over', name, 'changed']);
  }, 60_000);
});
