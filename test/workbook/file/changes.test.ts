import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refreshTable, type LoadSuccess } from '../../../src/loading/load';
import { openFileWorkbook } from '../../../src/workbook/file';
import { fakeClient } from '../../loading/fakeClient';
import { openpyxl } from '../../support/outside-readers';

/** "What changed since last time" on a saved workbook: by record key, field by field, in a Changes sheet. */
describe('changes between two refreshes of a saved workbook', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'grc-file-changes-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const risk = (id: string, name: string, impact: number) => ({ Id: id, Identifier: `R-${id}`, Name: name, Organization: 'IT', GrossImpact: impact });
  async function refresh(input: string, output: string, records: object[]): Promise<LoadSuccess> {
    const workbook = openFileWorkbook(input);
    const outcome = await refreshTable({ client: fakeClient(records as never).client, workbook, environment: 'ACC', table: 'tbl_risk' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    workbook.saveTo(output);
    workbook.close();
    return outcome;
  }

  it('reports added, removed and changed records, appending each refresh to the Changes sheet', async () => {
    const start = join(dir, 'start.xlsx');
    copyFileSync(join(__dirname, 'fixtures', 'pivot-chart.xlsx'), start);
    // The fixture's table has no Id column yet: its rows are keyed by position, so all are removed and added.
    const first = await refresh(start, join(dir, 'one.xlsx'), [risk('a', 'Alpha', 1), risk('b', 'Beta', 2), risk('c', 'Gamma', 3)]);
    expect(first.changes!.summary.added).toBe(3);
    const second = await refresh(join(dir, 'one.xlsx'), join(dir, 'two.xlsx'), [risk('b', 'Beta', 5), risk('c', 'Gamma = 3', 3), risk('d', 'Delta', 4)]);
    expect(second.changes).toMatchObject({ summary: { added: 1, removed: 1, changed: 2, fields: 2 }, text: '1 added, 1 removed, 2 changed' });
    const third = await refresh(join(dir, 'two.xlsx'), join(dir, 'three.xlsx'), [risk('b', 'Beta', 5), risk('c', 'Gamma = 3', 3), risk('d', 'Delta', 4)]);
    expect(third.changes!.text).toBe('no changes');

    const changes = (file: string) => openpyxl<unknown[][]>(file, "ws = load_workbook(sys.argv[1])['Changes']\nprint(json.dumps([list(r)[1:] for r in ws.iter_rows(values_only=True)]))");
    const two = changes(join(dir, 'two.xlsx'));
    expect(two[0]).toEqual(['Table', 'Dataset', 'Key', 'Field', 'Old', 'New', 'Kind']);
    expect(two.slice(-4)).toEqual([
      ['tbl_risk', 'risk', 'b', 'GrossImpact', 2, 5, 'changed'],
      ['tbl_risk', 'risk', 'c', 'Name', 'Gamma', 'Gamma = 3', 'changed'],
      ['tbl_risk', 'risk', 'd', null, null, null, 'added'],
      ['tbl_risk', 'risk', 'a', null, null, null, 'removed'],
    ]);
    // Nothing changed the third time: nothing appended.
    expect(changes(join(dir, 'three.xlsx'))).toEqual(two);
  });
});
