import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, worthSaving } from '../../../src/cli/refresh';
import { run as verify } from '../../../src/cli/verify';
import type { LoadError, LoadOutcome } from '../../../src/loading/load';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { openpyxl } from '../../support/outside-readers';
import { cliIo } from '../../support/sandbox';

const FIXTURES = join(__dirname, 'fixtures');

/** `grc-sheets refresh` in-process against the real sandbox: what a scheduler sees, and every refusal. */
describe('grc-sheets refresh', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, environment: 'ACC', scale: 120 });
    dir = mkdtempSync(join(tmpdir(), 'grc-cli-refresh-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const io = (env?: Record<string, string | undefined>) => cliIo(sandbox, env);
  const copy = (fixture: string, name = fixture) => {
    const path = join(dir, name);
    copyFileSync(join(FIXTURES, fixture), path);
    return path;
  };
  /** A copy of a fixture with some of its parts' text replaced (Python's zipfile writes it). */
  const edited = (fixture: string, name: string, part: string, from: string, to: string) => {
    const path = join(dir, name);
    const script = `import sys, zipfile
src, dst, part, a, b = sys.argv[1:]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for i in zin.infolist():
        data = zin.read(i)
        zout.writestr(i, data.replace(a.encode(), b.encode()) if i.filename == part else data)`;
    execFileSync('/usr/bin/python3', ['-c', script, join(FIXTURES, fixture), path, part, from, to]);
    return path;
  };

  it('refreshes every bound table, keeps a backup and prints a summary for schedulers', async () => {
    const book = copy('pivot-chart.xlsx', 'report.xlsx');
    const original = readFileSync(book);
    const { io: cli, out, err } = io();
    const code = await run([book, '--base-url', sandbox.url, '--env', 'ACC', '--backup', '--json'], cli);
    expect([code, err]).toEqual([0, []]);
    const summary = JSON.parse(out.join('\n')) as { saved: boolean; backup: string; tables: { table: string; ok: boolean; rows: number; fingerprint: { sha256: string } }[] };
    expect(summary.saved).toBe(true);
    expect(summary.tables).toEqual([{ table: 'tbl_risk', ok: true, rows: 120, truncatedCells: 0, fingerprint: { method: 'sha256/jcs-lines/1', count: 120, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }, changes: expect.objectContaining({ text: expect.any(String) }), evidence: expect.stringMatching(/^Not signed by a relay; loaded .+, unchanged since\.$/) }]);
    // An auditor recomputes the fingerprint from the service's answer with Python alone.
    const answer = await fetch(`${sandbox.url}/directdata/v3/risk`, { headers: { authorization: `Basic ${Buffer.from(`${sandbox.demoKey!.identifier}:${sandbox.demoKey!.password}`).toString('base64')}` } }).then((r) => r.text());
    const recomputed = execFileSync('/usr/bin/python3', ['-c', "import hashlib, json, sys\nh = hashlib.sha256()\nfor r in json.load(sys.stdin):\n    h.update((json.dumps(r, sort_keys=True, separators=(',', ':'), ensure_ascii=False) + '\\n').encode())\nprint(h.hexdigest())"], { input: answer }).toString().trim();
    expect(summary.tables[0]!.fingerprint.sha256).toBe(recomputed);
    expect(summary.backup).toBe(join(dir, 'report.bak.xlsx'));
    expect(readFileSync(summary.backup).equals(original)).toBe(true);
    expect(openpyxl<string>(book, "print(json.dumps(load_workbook(sys.argv[1])['Risks'].tables['tbl_risk'].ref))")).toMatch(/^A1:[A-Z]+121$/);
    // Refreshed again: compared record by record, by Id.
    const again = io();
    expect(await run([book, '--base-url', sandbox.url, '--env', 'ACC', '--json'], again.io)).toBe(0);
    expect(JSON.parse(again.out.join('\n')).tables[0].changes).toMatchObject({ summary: { added: 0, removed: 0, changed: 0 }, text: 'no changes' });
    // No temporary file is left beside the workbook.
    expect(execFileSync('ls', ['-A', dir]).toString().split('\n').filter((f) => f.includes('.tmp'))).toEqual([]);
  }, 60_000);

  it('runs as the grc-sheets command a scheduler starts, with its help and exit codes', async () => {
    const book = copy('pivot-chart.xlsx', 'scheduled.xlsx');
    const cli = join(__dirname, '..', '..', '..', 'bin', 'grc-sheets.js');
    const env = { ...process.env, GRC_SHEETS_KEY_ID: sandbox.demoKey!.identifier, GRC_SHEETS_KEY_PASSWORD: sandbox.demoKey!.password };
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        execFile(process.execPath, [cli, ...args], { env }, (error, stdout) => resolve({ code: error ? (error.code as number) : 0, out: stdout }));
      });
    const help = await run(['refresh', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: grc-sheets refresh BOOK\.xlsx/);
    const done = await run(['refresh', book, '--base-url', sandbox.url, '--env', 'ACC', '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ saved: true, tables: [{ table: 'tbl_risk', ok: true, rows: 120 }] });
    expect((await run(['refresh', book, '--env', 'ACC'])).code).toBe(2);
  }, 60_000);

  it('names the cells edited by hand since the last refresh and leaves them, unless told to overwrite', async () => {
    const book = copy('pivot-chart.xlsx', 'edited.xlsx');
    const args = [book, '--base-url', sandbox.url, '--env', 'ACC'];
    expect(await run(args, io().io)).toBe(0);
    // Someone types over two figures: the two cells changed in the sheet's XML, every other part kept (as
    // Excel saves; openpyxl would drop the add-in's part).
    const typeOver = `import re, shutil, sys, zipfile
src = sys.argv[1]; tmp = src + '.typed'
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp, 'w', zipfile.ZIP_DEFLATED) as zout:
    for i in zin.infolist():
        data = zin.read(i)
        if i.filename == 'xl/worksheets/sheet1.xml':
            text = data.decode()
            text = re.sub(r'<c r="D3"([^>]*?)(/>|>.*?</c>)', '<c r="D3"><v>99</v></c>', text, count=1)
            text = re.sub(r'<c r="B80"([^>]*?)(/>|>.*?</c>)', '<c r="B80" t="inlineStr"><is><t>typed over</t></is></c>', text, count=1)
            data = text.encode()
        zout.writestr(i, data)
shutil.move(tmp, src)`;
    execFileSync('/usr/bin/python3', ['-c', typeOver, book]);
    const before = readFileSync(book);
    const verified: string[] = [];
    expect(await verify([book], { stdout: (t) => verified.push(t), stderr: (t) => verified.push(t) })).toBe(1);
    expect(verified.join('\n')).toMatch(/^EDITED {2}Table tbl_risk was changed since it was loaded \S+: the edits are in \d+ rows starting /);
    const refused = io();
    expect(await run(args, refused.io)).toBe(1);
    expect(refused.err.join('\n')).toMatch(/Table tbl_risk was edited by hand since it was loaded: Risks!D3 \(\w+, [^)]+\) \S+ -> 99; Risks!B80 \(\w+, [^)]+\) "[^"]*" -> "typed over"\. .*--overwrite-edits\)\. Nothing was changed\./);
    expect(readFileSync(book).equals(before)).toBe(true);
    const forced = io();
    expect(await run([...args, '--overwrite-edits'], forced.io)).toBe(0);
    expect(openpyxl<unknown[]>(book, "ws = load_workbook(sys.argv[1])['Risks']\nprint(json.dumps([ws['D3'].value, ws['B80'].value]))")).not.toContain('typed over');
    expect(await run(args, io().io)).toBe(0);
    const clean: string[] = [];
    expect(await verify([book, '--json'], { stdout: (t) => clean.push(t), stderr: (t) => clean.push(t) })).toBe(0);
    expect(JSON.parse(clean.join('\n')).tables).toEqual([expect.objectContaining({ table: 'tbl_risk', status: 'verified' })]);
  }, 60_000);

  it('draws one progress line on a terminal and clears it at the end', async () => {
    const book = copy('pivot-chart.xlsx', 'progress.xlsx');
    const drawn: string[] = [];
    const cli = io();
    const terminal = { write: (t: string) => drawn.push(t) } as unknown as NodeJS.WriteStream;
    expect(await run([book, '--base-url', sandbox.url, '--env', 'ACC'], { ...cli.io, progress: terminal })).toBe(0);
    expect(drawn[0]!.startsWith('\r\x1b[2Ktbl_risk: ')).toBe(true);
    expect(drawn[drawn.length - 1]).toBe('\r\x1b[2K');
    // The fixture's table has no Id column yet: its rows are keyed by position, so all show as replaced;
    // the dataset's fields it lacked are added at its end, and the summary says so.
    expect(cli.out.join('\n')).toMatch(/^tbl_risk: 120 rows; 120 added, 10 removed, 0 changed; new columns "Id", "Description", "Owner" and 10 more added at the end\. Not signed by a relay; loaded [^\n]+, unchanged since\.\n\S*progress\.xlsx saved in \d+\.\d s\.$/);
  });

  it('refuses a workbook that is open in Excel, and leaves it as it was', async () => {
    const book = copy('pivot-chart.xlsx', 'open.xlsx');
    writeFileSync(join(dir, '~$open.xlsx'), 'owner');
    const before = statSync(book).mtimeMs;
    const { io: cli, err } = io();
    expect(await run([book, '--base-url', sandbox.url, '--env', 'ACC'], cli)).toBe(1);
    expect(err.join('\n')).toMatch(/open\.xlsx is open in Excel or LibreOffice \(its lock file ~\$open\.xlsx is there\)/);
    expect(statSync(book).mtimeMs).toBe(before);
  });

  it('says in one message what is wrong with a file it cannot refresh', async () => {
    const csv = join(dir, 'risks.xlsx');
    writeFileSync(csv, 'Identifier,Name\nR-1,One\n');
    const docx = edited('pivot-chart.xlsx', 'letter.xlsx', '[Content_Types].xml', 'spreadsheetml.sheet.main+xml', 'wordprocessingml.document.main+xml');
    const gone = edited('pivot-chart.xlsx', 'gone.xlsx', 'xl/webextensions/webextension1.xml', 'tbl_risk', 'tbl_gone');
    const cases: [string, RegExp][] = [
      [csv, /not a zip package, so it is not an \.xlsx workbook/],
      [docx, /an Office package but not an Excel workbook \(it is a Word document\)/],
      [copy('encrypted.xlsx'), /encrypted with a password .* cannot be read without Excel/],
      [copy('protected.xlsx'), /Sheet Risks is protected, so table tbl_risk cannot be refreshed\. Unprotect it/],
      [gone, /Table tbl_gone is no longer in the workbook/],
    ];
    for (const [file, message] of cases) {
      const before = readFileSync(file);
      const { io: cli, err } = io();
      expect([file, await run([file, '--base-url', sandbox.url, '--env', 'ACC'], cli)]).toEqual([file, 1]);
      expect(err.join('\n')).toMatch(message);
      expect(readFileSync(file).equals(before)).toBe(true);
    }
  }, 60_000);

  it('refuses another environment than the tables were loaded from, and a missing key', async () => {
    const book = copy('pivot-chart.xlsx', 'env.xlsx');
    const { io: cli, err } = io();
    expect(await run([book, '--base-url', sandbox.url, '--env', 'PRD'], cli)).toBe(1);
    expect(err.join('\n')).toMatch(/was loaded from ACC, but you are connected to PRD/);
    const none = io({});
    expect(await run([book, '--base-url', sandbox.url, '--env', 'ACC'], none.io)).toBe(2);
    expect(none.err.join('\n')).toMatch(/no API key: set GRC_SHEETS_KEY_ID and GRC_SHEETS_KEY_PASSWORD/);
    const onLine = io();
    expect(await run([book, '--base-url', sandbox.url, '--env', 'ACC', '--password=x'], onLine.io)).toBe(2);
  });
});

describe('when the headless refresh writes the workbook', () => {
  const ok = { ok: true } as unknown as LoadOutcome;
  const failed = (left?: LoadError['left']) => ({ ok: false, error: { code: 'workbook', message: 'Excel refused.', ...(left ? { left } : {}) } }) as unknown as LoadOutcome;

  it('when some table was refreshed and none stopped while replacing its rows (a mixed table is never saved)', () => {
    expect(worthSaving([ok, failed('kept')])).toBe(true);
    expect(worthSaving([failed('kept')])).toBe(false);
    expect(worthSaving([ok, failed('stopped-mixed')])).toBe(false);
    expect(worthSaving([ok, failed('stopped-gone')])).toBe(true);
  });
});
