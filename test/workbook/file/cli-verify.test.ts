import { PUT_ADDIN_PART_BACK } from '../../support/outside-readers';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/cli/verify';
import { loadDataset, refreshTable, type DataRecord } from '../../../src/loading/load';
import { readLoadRecords } from '../../../src/loading/loadrecords';
import { openFileWorkbook, writeEmptyWorkbook } from '../../../src/workbook/file';
import { writeAudit } from '../../../src/writeback/audit';
import { fakeClient } from '../../loading/fakeClient';
import { created, failed, runSummary } from '../../support/run-summary';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risks: DataRecord[] = Array.from({ length: 200 }, (_, i) => ({ Id: guid(i), Identifier: `R-${i}`, Name: `Risk ${i}`, GrossImpact: (i % 5) / 3, DateIdentified: '2025-03-04' }));
const summary = runSummary([created(0), failed(1), created(2, '22222222-2222-4222-8222-222222222222')]);

/**
 * Edits a workbook with openpyxl (which drops parts it does not know, the add-in's among them), then,
 * when `keepAddin`, puts the add-in's part back as it was: a tamperer covering their tracks.
 */
const TAMPER = `import sys, re, zipfile
from openpyxl import load_workbook
src, dst, keep = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
wb = load_workbook(src)
wb['Risks']['C5'] = 'Risk 3 (reviewed)'
wb['Write-back audit']['H3'] = 'created'
tmp = dst + '.openpyxl'
wb.save(tmp)
if not keep:
    import os; os.replace(tmp, dst); sys.exit(0)
${PUT_ADDIN_PART_BACK}`;

describe('grc-sheets verify on saved workbooks', () => {
  let dir: string;
  let book: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'grc-verify-'));
    const empty = join(dir, 'empty.xlsx');
    writeEmptyWorkbook(empty);
    const wb = openFileWorkbook(empty);
    const out = await loadDataset({ client: fakeClient(risks).client, workbook: wb, environment: 'ACC', datasetId: 'risk', target: { kind: 'new-sheet' } });
    if (!out.ok) throw new Error(out.error.message);
    await writeAudit(wb, summary, 'key:0123456789ab');
    book = join(dir, 'book.xlsx');
    wb.saveTo(book);
    wb.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function verify(path: string) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run([path, '--json'], { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    return { code, report: JSON.parse(out.join('\n')) as { verified: boolean; tables: { table: string; status: string; rows?: string[]; message: string }[]; audit: { status: string; entries: number; breaks?: { address: string; problem: string }[] } } };
  }
  const tamper = (name: string, keepAddin: boolean) => {
    const path = join(dir, name);
    execFileSync('/usr/bin/python3', ['-c', TAMPER, book, path, keepAddin ? '1' : '0']);
    return path;
  };

  it('verifies a workbook as the file adapter wrote it', async () => {
    const { code, report } = await verify(book);
    expect(code).toBe(0);
    expect(report.tables).toEqual([expect.objectContaining({ table: 'tbl_risk', status: 'verified' })]);
    expect(report.audit).toMatchObject({ status: 'verified', entries: 3 });
  });

  it('gives the cell fingerprint docs/workbook.md says an auditor recomputes with openpyxl', async () => {
    const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'workbook.md'), 'utf8');
    const script = /```python\n(import datetime[\s\S]*?)```/.exec(doc)![1]!;
    const wb = openFileWorkbook(book);
    const b = (await readLoadRecords(wb)).get('tbl_risk')!;
    wb.close();
    const recomputed = execFileSync('/usr/bin/python3', ['-c', script, book, 'Risks', JSON.stringify(b.columns), JSON.stringify(b.cells!.dates ?? [])]).toString().trim();
    expect(recomputed).toBe(b.cells!.sha256);
  });

  it('verifies a table with a column the user added, before and after a refresh, whatever the user writes there', async () => {
    const noted = join(dir, 'noted.xlsx');
    const wb = openFileWorkbook(book);
    const shape = await wb.addColumns('tbl_risk', [{ name: 'My notes', format: 'text' }]);
    await wb.writeRows('tbl_risk', 0, [['checked'], [null], ['to do']], shape.columns.length - 1);
    wb.saveTo(noted);
    wb.close();
    expect(await verify(noted)).toMatchObject({ code: 0, report: { tables: [{ table: 'tbl_risk', status: 'verified' }] } });

    const refreshed = join(dir, 'noted-refreshed.xlsx');
    const again = openFileWorkbook(noted);
    const out = await refreshTable({ client: fakeClient(risks).client, workbook: again, environment: 'ACC', table: 'tbl_risk' });
    expect(out).toMatchObject({ ok: true, changes: { text: 'no changes' } });
    again.saveTo(refreshed);
    again.close();
    expect(await verify(refreshed)).toMatchObject({ code: 0, report: { tables: [{ table: 'tbl_risk', status: 'verified' }] } });
    const read = openFileWorkbook(refreshed);
    const { columns, rows } = await read.readRows('tbl_risk');
    read.close();
    expect(rows.slice(0, 4).map((r) => r[columns.indexOf('My notes')])).toEqual(['checked', null, 'to do', null]);
    expect(rows.map((r) => r[columns.indexOf('Identifier')])).toEqual(risks.map((r) => r.Identifier));
  });

  it('catches a figure and an audit entry edited with openpyxl, the add-in part put back', async () => {
    const { code, report } = await verify(tamper('tampered.xlsx', true));
    expect(code).toBe(1);
    expect(report.verified).toBe(false);
    const table = report.tables[0]!;
    expect(table.status).toBe('edited');
    // The edited row (sheet row 5) is among the rows named, and only a bucket's worth of rows is.
    expect(table.rows).toContain('Risks!A5');
    expect(table.rows!.length).toBeLessThan(60);
    expect(report.audit.status).toBe('broken');
    expect(report.audit.breaks).toEqual([expect.objectContaining({ address: "'Write-back audit'!A3", problem: 'edited' })]);
  });

  it('does not verify a workbook openpyxl rewrote without the add-in part', async () => {
    const { code, report } = await verify(tamper('rewritten.xlsx', false));
    expect(code).toBe(1);
    expect(report.tables).toEqual([expect.objectContaining({ table: 'tbl_risk', status: 'unverifiable', message: expect.stringContaining('settings part is gone') })]);
    expect(report.audit.breaks).toEqual(expect.arrayContaining([expect.objectContaining({ address: "'Write-back audit'!A3", problem: 'edited' }), expect.objectContaining({ problem: 'head' })]));
  });

  it('says exit 1 for a file that is not a workbook and 2 for no file', async () => {
    const notZip = join(dir, 'not.xlsx');
    execFileSync('/usr/bin/python3', ['-c', `open(${JSON.stringify(notZip)}, 'w').write('hello')`]);
    const err: string[] = [];
    expect(await run([notZip], { stdout: () => undefined, stderr: (t) => err.push(t) })).toBe(2);
    expect(err.join('\n')).toMatch(/grc-sheets verify: /);
    expect(await run([join(dir, 'missing.xlsx')], { stdout: () => undefined, stderr: () => undefined })).toBe(2);
  });
});
