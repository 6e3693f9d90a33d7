/**
 * What a Post checks and records beyond the flows' rules: formula-like text and the run's choice for it,
 * rows left out for their errors, and name lists an environment may not have.
 */
import { ApiError } from '../../src/client';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { Cell } from '../../src/workbook/port';
import type { WritebackApi } from '../../src/writeback/api';
import { formulaLike, neutralise } from '../../src/writeback/checks/csv-injection';
import { incidentsFlow } from '../../src/writeback/flows/incidents';
import { AUDIT_TABLE, writeAudit } from '../../src/writeback/audit';
import { preparePost } from '../../src/writeback/post';
import { created, standing } from './fixtures';

const ACC = { name: 'ACC', production: false };

async function sheet(rows: Cell[][]) {
  const workbook = createMemoryWorkbook();
  await workbook.createTable({
    name: 'Inc',
    sheet: 'Sheet1',
    anchor: 'A1',
    columns: ['Name', 'Reporting organization', 'Description', 'Estimated loss'].map((name) => ({
      name,
      format: 'general' as const,
    })),
  });
  await workbook.writeRows('Inc', 0, rows);
  const bodies: Record<string, unknown>[] = [];
  const api: WritebackApi = {
    download: async (id) => ({ records: [...(standing.get(id) ?? [])] }),
    async send(_op, o) {
      bodies.push(o?.body as Record<string, unknown>);
      return created(`99999999-0000-4000-8000-${String(bodies.length).padStart(12, '0')}`);
    },
  };
  return { workbook, api, bodies };
}

// The sheet's "Estimated loss" column is not the template's: its unknown-column warning is another test's subject.
const notAboutColumns = (p: { code: string }) => p.code !== 'unknown-column';

describe('text that begins like a formula (OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://x","click")', true],
    ['+31 20 123', true],
    ['-negative', true],
    ['@SUM(A1)', true],
    ['\tindented', true],
    ['\rreturn', true],
    ['Plain text', false],
    ["'=already quoted", false],
  ])('%j begins like a formula: %s', (text, expected) => {
    expect(formulaLike(text)).toBe(expected);
  });

  it('warns on each such text cell, not on numbers, and the row stays ready', async () => {
    const { workbook, api } = await sheet([
      ['=1+1', 'Finance', '@cmd', -5],
      ['Plain', 'Finance', null, null],
    ]);
    const plan = await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC });
    expect(
      plan.validation.problems
        .filter(notAboutColumns)
        .map((p) => `${p.row}:${p.column}:${p.code}:${p.severity}`),
    ).toEqual(['0:Name:formula-like-text:warning', '0:Description:formula-like-text:warning']);
    expect(plan.validation.problems[0]!.message).toContain('begins with "="');
    expect(plan.toSend).toBe(2);
    expect(plan.formulaRows).toBe(1);
  });

  it('sends the text as typed when the user chooses so, and records the choice in the audit', async () => {
    const { workbook, api, bodies } = await sheet([['=1+1', 'Finance', '-x', null]]);
    const summary = await (
      await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({
      formulaText: 'as typed',
    });
    expect(bodies[0]).toMatchObject({ Name: '=1+1', Description: '-x' });
    await writeAudit(workbook, summary, 'key:x');
    const audit = await workbook.readRows(AUDIT_TABLE);
    expect(audit.rows[0]![audit.columns.indexOf('Formula-like text')]).toBe('as typed');
  });

  it('neutralises with a leading single quote when the user chooses so, leaving other text alone', async () => {
    const { workbook, api, bodies } = await sheet([['=1+1', 'Finance', 'fine', null]]);
    const summary = await (
      await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({
      formulaText: 'neutralised',
    });
    expect(bodies[0]).toMatchObject({ Name: "'=1+1", ReportingOrganization: 'Finance', Description: 'fine' });
    expect(summary.formulaText).toBe('neutralised');
    expect(neutralise({ a: ['@x', 'y'], b: { c: '+1' }, n: -1 })).toEqual({
      a: ["'@x", 'y'],
      b: { c: "'+1" },
      n: -1,
    });
  });

  it('a run without such text records no choice', async () => {
    const { workbook, api } = await sheet([['Plain', 'Finance', null, null]]);
    const summary = await (
      await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({
      formulaText: 'neutralised',
    });
    expect(summary.formulaText).toBeUndefined();
  });

  it('an audit table made before the choice was recorded gets the column added', async () => {
    const { workbook, api } = await sheet([['=1', 'Finance', null, null]]);
    const sheetName = await workbook.addSheet('Write-back audit');
    const old = [
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
    ];
    await workbook.createTable({
      name: AUDIT_TABLE,
      sheet: sheetName,
      anchor: 'A1',
      columns: old.map((name) => ({ name, format: 'text' as const })),
    });
    const summary = await (
      await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run({
      formulaText: 'neutralised',
    });
    await writeAudit(workbook, summary, 'key:x');
    const audit = await workbook.readRows(AUDIT_TABLE);
    expect(audit.columns).toEqual([...old, 'Formula-like text', 'Signed-in person', 'Person ID', 'The service records', 'Previous hash', 'Hash']);
    expect(audit.rows[0]![old.length]).toBe('neutralised');
  });
});

describe('rows not sent for their errors', () => {
  it('say so in Result with the count, list the errors in Result message, and are sent once fixed', async () => {
    const { workbook, api, bodies } = await sheet([
      ['Good', 'Finance', null, null],
      [null, 'Nowhere Ltd', null, null],
    ]);
    const first = await (
      await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC })
    ).run();
    expect(first.withErrors).toBe(1);
    let { columns, rows } = await workbook.readRows('Inc');
    const at = columns.indexOf('Result');
    expect(rows[1]![at]).toBe('Not sent: 2 errors');
    expect(String(rows[1]![at + 2])).toMatch(
      /^Name: .*; Reporting organization: no organization is named "Nowhere Ltd"/,
    );
    await workbook.writeRows('Inc', 1, [['Fixed', 'Finance']]);
    const again = await preparePost({ api, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC });
    expect(again.toSend).toBe(1);
    await again.run();
    ({ columns, rows } = await workbook.readRows('Inc'));
    expect(rows[1]![at]).toBe('created');
    expect(bodies.map((b) => b.Name)).toEqual(['Good', 'Fixed']);
  });
});

describe('an environment without one of the assumed name lists', () => {
  it('leaves that check to the service (404), and still checks the lists it has', async () => {
    const { workbook, api } = await sheet([['A', 'Anywhere Ltd', null, null]]);
    const without: WritebackApi = {
      ...api,
      async download(id, o) {
        if (id === 'organizations')
          throw new ApiError({ code: 'not-found', message: 'no such path', sent: 'yes' });
        return api.download(id, o);
      },
    };
    const plan = await preparePost({
      api: without,
      workbook,
      table: 'Inc',
      flow: incidentsFlow,
      environment: ACC,
    });
    expect(plan.validation.problems.filter(notAboutColumns)).toEqual([]);
    expect(plan.toSend).toBe(1);
    const failing: WritebackApi = {
      ...api,
      async download(id, o) {
        if (id === 'organizations') throw new ApiError({ code: 'forbidden', message: 'no', sent: 'yes' });
        return api.download(id, o);
      },
    };
    await expect(
      preparePost({ api: failing, workbook, table: 'Inc', flow: incidentsFlow, environment: ACC }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});
