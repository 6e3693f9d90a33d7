import { EVIDENCE_COLUMNS, EVIDENCE_TABLE } from '../../src/evidence/sheet';
import { loadDataset, refreshTable, type DataRecord } from '../../src/loading/load';
import { createExcelWorkbook } from '../../src/workbook/excel';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { WorkbookPort } from '../../src/workbook/port';
import { FakeExcel, supports } from '../workbook/excel/fakeExcel';
import { readLoadedTables } from '../../src/taskpane/tables/loaded';
import { relayKey, signingClient } from './relay-key';

/**
 * The Evidence sheet in the Excel adapter (over the fake Excel) and in memory (the taskpane's preview): the
 * same groups newest first, the live formulas a calculated column every row holds. The saved-file adapter
 * is in verify-cli.test.ts, where LibreOffice recalculates them.
 */
const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risks: DataRecord[] = Array.from({ length: 40 }, (_, i) => ({ Id: guid(i), Identifier: `R-${i}`, Name: `Risk ${i}`, GrossImpact: (i % 5) / 4, DateIdentified: `2025-03-${String(1 + (i % 28)).padStart(2, '0')}` }));

async function loadTwice(workbook: WorkbookPort) {
  const { client } = signingClient(await relayKey('relay-1'), () => risks, () => '/directdata/v3/risk');
  const first = await loadDataset({ client, workbook, environment: 'ACC', datasetId: 'risk', target: { kind: 'new-sheet' } });
  expect(first).toMatchObject({ ok: true, record: { evidence: { totals: { records: 40 }, statement: expect.any(String) } } });
  expect(first.ok && first.evidenceProblem).toBeFalsy();
  const again = await refreshTable({ client, workbook, environment: 'ACC', table: 'tbl_risk' });
  expect(again).toMatchObject({ ok: true });
  return (await workbook.readRows(EVIDENCE_TABLE)) as { columns: string[]; rows: unknown[][] };
}

const measures = (t: { columns: string[]; rows: unknown[][] }) => t.rows.map((r) => `${r[t.columns.indexOf('Total')]} ${r[t.columns.indexOf('Column')]} ${r[t.columns.indexOf('Recorded exactly')]}`);

describe('the Evidence sheet in each host', () => {
  it('Excel: two groups, newest first, recorded totals beside the calculated formulas', async () => {
    const xl = new FakeExcel();
    const workbook = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(13), { maxBytes: 100_000 });
    const t = await loadTwice(workbook);
    expect(t.columns).toEqual(EVIDENCE_COLUMNS.map((c) => c.name));
    const group = measures(t).slice(0, measures(t).length / 2);
    expect(measures(t)).toEqual([...group, ...group]);
    expect(group).toEqual(expect.arrayContaining(['records Identifier 40', 'sum Gross impact 20', 'non-empty Name 40', 'earliest Date identified 2025-03-01', 'latest Date identified 2025-03-28']));
    const body = xl.body(EVIDENCE_TABLE);
    const now = t.columns.indexOf('In Excel now');
    expect(body.every((r) => typeof r[now] === 'string' && String(r[now]).startsWith('=IFERROR(CHOOSE(MATCH(GrcEvidence[[#This Row],[Total]]'))).toBe(true);
    expect(String(body[0]![now])).toContain('SUBTOTAL(109,INDIRECT(GrcEvidence[[#This Row],[Reference]]))');
    expect(body[1]![t.columns.indexOf('Reference')]).toBe('tbl_risk[Identifier]');
  });

  it('the preview (memory): the same groups', async () => {
    const t = await loadTwice(createMemoryWorkbook());
    const half = measures(t).length / 2;
    expect(measures(t).slice(half)).toEqual(measures(t).slice(0, half));
    expect(measures(t)[0]).toBe('records Identifier 40');
  });
});

describe("the Tables card's evidence state", () => {
  it('says signed by the relay and unchanged since, then names what changed after a hand edit', async () => {
    const workbook = createMemoryWorkbook();
    const { client } = signingClient(await relayKey('relay-1'), () => risks, () => '/directdata/v3/risk');
    expect(await loadDataset({ client, workbook, environment: 'ACC', datasetId: 'risk', target: { kind: 'new-sheet' } })).toMatchObject({ ok: true });
    const [card] = await readLoadedTables(workbook);
    expect(card!.evidence).toEqual({ kind: 'unchanged', text: expect.stringMatching(/^Signed by the relay on .+, unchanged since\.$/) });
    const { columns } = await workbook.readRows('tbl_risk', 0, 1);
    await workbook.writeRows('tbl_risk', 2, [[99]], columns.indexOf('Gross impact'));
    const [after] = await readLoadedTables(workbook);
    expect(after!.evidence).toEqual({ kind: 'changed', text: expect.stringMatching(/Changed since load: cells differ in \d+ rows starting Risks!A\d+.*Gross impact: sum was 20, now 118\.5/) });
  });
});

it('an empty answer still keeps its prints and totals (nothing to count is evidence too)', async () => {
  const workbook = createMemoryWorkbook();
  const { client } = signingClient(await relayKey('relay-1'), () => [], () => '/directdata/v3/risk');
  const out = await loadDataset({ client, workbook, environment: 'ACC', datasetId: 'risk', target: { kind: 'new-sheet' } });
  expect(out).toMatchObject({ ok: true, record: { cells: { count: 0 }, evidence: { totals: { records: 0 }, statement: expect.any(String) } } });
});
