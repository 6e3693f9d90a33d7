import { createMemoryWorkbook } from '../../src/workbook/memory';
import { keyFingerprint } from '../../src/client/key-fingerprint';
import { AUDIT_TABLE, writeAudit } from '../../src/writeback/audit';
import { chained, checkChain } from '../../src/writeback/auditchain';
import { timeCell } from '../../src/writeback/rows/resulttime';
import { markProblems } from '../../src/writeback/rows/marks';
import { created, failed, runSummary } from '../support/run-summary';
import type { Problem } from '../../src/writeback/problem';
import { validateRows } from '../../src/writeback/rows/validate';
import { fitFlow } from '../../src/writeback/environment/fitted-flow';
import { catalogueEnvironment } from '../../src/writeback/environment/context';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { standing } from './fixtures';

async function table() {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({
    name: 'T',
    sheet: 'Sheet1',
    anchor: 'A1',
    columns: ['Name', 'Reporting organization'].map((name) => ({ name, format: 'text' as const })),
  });
  await workbook.writeRows('T', 0, [
    [null, 'Finance'],
    ['B', null],
  ]);
  return workbook;
}
const problem = (row: number, column: string, severity: Problem['severity'] = 'error'): Problem => ({
  row,
  column,
  code: 'x',
  message: `fix ${column}`,
  severity,
});

describe('marking problems in the sheet', () => {
  it('marks errors and warnings with their message as the note, and clears marks of cells that were fixed', async () => {
    const workbook = await table();
    await markProblems(workbook, 'T', [problem(0, 'Name'), problem(1, 'Reporting organization', 'warning')]);
    expect(workbook.snapshot().tables[0]!.marks).toEqual([
      { row: 0, column: 'Name', kind: 'error', note: 'fix Name' },
      { row: 1, column: 'Reporting organization', kind: 'warning', note: 'fix Reporting organization' },
    ]);
    await markProblems(workbook, 'T', [problem(1, 'Reporting organization')]);
    expect(workbook.snapshot().tables[0]!.marks).toEqual([
      { row: 1, column: 'Reporting organization', kind: 'error', note: 'fix Reporting organization' },
    ]);
  });
});

describe('validating a table', () => {
  it('skips blank rows and reports a missing required column once, not once per row', async () => {
    const flow = fitFlow(incidentsFlow, catalogueEnvironment(), standing);
    const v = validateRows(
      flow,
      ['Name', 'Reporting organization'],
      [
        ['A', 'Finance'],
        [null, ''],
        ['B', 'IT'],
      ],
    );
    expect(v.rows.map((r) => r.row)).toEqual([0, 2]);
    expect(v.ready).toBe(2);
    const missing = validateRows(flow, ['Name'], [['A'], ['B']]);
    expect(missing.problems).toEqual([
      expect.objectContaining({ row: -1, column: 'Reporting organization', code: 'missing-column' }),
    ]);
  });
});

describe('the audit record', () => {
  // The posted table's header is on sheet row 4, so body row 0 is sheet row 5.
  const summary = runSummary([created(0), failed(2)], { environment: 'PRD', firstRow: 5, formulaText: 'neutralised' });

  it('names the key by a fingerprint that does not reveal it', async () => {
    const who = await keyFingerprint('demo-abc123');
    expect(who).toMatch(/^key:[0-9a-f]{12}$/);
    expect(who).not.toContain('abc123');
    expect(await keyFingerprint('demo-abc123')).toBe(who);
  });

  it('appends one row per row outcome to its own table, run after run, naming rows as Excel numbers them', async () => {
    const workbook = createMemoryWorkbook();
    await writeAudit(workbook, summary, 'key:0123456789ab');
    await writeAudit(workbook, summary, 'key:0123456789ab');
    const { columns, rows } = await workbook.readRows(AUDIT_TABLE);
    expect(columns).toEqual([
      'Run started',
      'Run finished',
      'Who',
      'Environment',
      'Flow',
      'Table',
      'Sheet row',
      'Result',
      'GUID',
      'Message',
      'Formula-like text',
      'Person ID',
      'Key fingerprint',
      'The service records',
      'Relay receipt',
      'Sent body SHA-256',
      'Previous hash',
      'Hash',
    ]);
    expect(rows).toHaveLength(4);
    const audit = workbook.snapshot().tables.find((t) => t.name === AUDIT_TABLE)!;
    expect(audit.numberFormats.slice(0, 2)).toEqual(['yyyy-mm-dd hh:mm', 'yyyy-mm-dd hh:mm']);
    expect(rows[1]!.slice(0, -2)).toEqual([
      timeCell('2025-01-01T10:00:00.000Z'), // date cells: serials of the local time
      timeCell('2025-01-01T10:00:05.000Z'),
      'key:0123456789ab',
      'PRD',
      'incidents',
      'GrcIncidents',
      7,
      'failed',
      '',
      'The incident was not created.',
      'neutralised',
      '',
      'key:0123456789ab',
      "the key's owner, not the person",
      'none: no answer from the service in this run', // a summary without receipts, as a run through no api would make
      '', // no body sent
    ]);
  });

  it('names the signed-in person beside the key when the relay holds the key', async () => {
    const workbook = createMemoryWorkbook();
    await writeAudit(workbook, summary, 'key:0123456789ab', { subject: 'casey', name: 'Casey Compliance' });
    const { rows } = await workbook.readRows(AUDIT_TABLE);
    // Who says the person, first; the key's fingerprint is kept further right.
    expect(rows[0]![2]).toBe('Casey Compliance');
    expect(rows[0]!.slice(-7, -4)).toEqual(['casey', 'key:0123456789ab', "the key's owner, not the person"]);
  });

  it('an audit table of the earlier layout (the key in Who) goes on in it, and its chain still verifies', async () => {
    const workbook = createMemoryWorkbook();
    const sheetName = await workbook.addSheet('Write-back audit');
    const earlier = ['Run started', 'Run finished', 'Who', 'Environment', 'Flow', 'Table', 'Sheet row', 'Result', 'GUID', 'Message', 'Formula-like text', 'Signed-in person', 'Person ID', 'The service records', 'Previous hash', 'Hash'];
    await workbook.createTable({ name: AUDIT_TABLE, sheet: sheetName, anchor: 'A1', columns: earlier.map((name) => ({ name, format: 'text' as const })) });
    const first = [timeCell('2024-12-01T09:00:00.000Z'), timeCell('2024-12-01T09:00:01.000Z'), 'key:0123456789ab', 'PRD', 'incidents', 'GrcIncidents', 5, 'created', 'g', 'ok', '', 'Riley Reporter', 'riley', "the key's owner, not the person"];
    await workbook.writeRows(AUDIT_TABLE, 0, await chained([first], ''));
    await writeAudit(workbook, summary, 'key:0123456789ab', { subject: 'casey', name: 'Casey Compliance' });
    const table = await workbook.readRows(AUDIT_TABLE);
    expect(table.columns).toEqual(earlier);
    expect(table.rows[1]!.slice(11, 14)).toEqual(['Casey Compliance', 'casey', "the key's owner, not the person"]);
    expect(table.rows[1]![2]).toBe('key:0123456789ab');
    expect(await checkChain(table, (r) => `row ${r + 2}`)).toEqual({ entries: 3, unchained: 0, breaks: [] });
  });
});
