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
    const outcome = await refreshTable({ client: fakeClient(records as never).client, workbook, environment: 'ACC', table: 'tbl_risk', changes: true });
    if (!outcome.ok) throw new Error(outcome.error.message);
    workbook.saveTo(output);
    workbook.close();
    return outcome;
  }

  it('reports added, removed and changed records, and keeps the latest refresh of each table in the Changes sheet', async () => {
    const start = join(dir, 'start.xlsx');
    copyFileSync(join(__dirname, 'fixtures', 'pivot-chart.xlsx'), start);
    // The fixture's table has no Id column yet: the first refresh has nothing to compare by.
    const first = await refresh(start, join(dir, 'one.xlsx'), [risk('a', 'Alpha', 1), risk('b', 'Beta', 2), risk('c', 'Gamma', 3)]);
    expect(first.changes).toBeUndefined();
    const second = await refresh(join(dir, 'one.xlsx'), join(dir, 'two.xlsx'), [risk('b', 'Beta', 5), risk('c', 'Gamma = 3', 3), risk('d', 'Delta', 4)]);
    expect(second.changes).toEqual({ added: 1, removed: 1, changed: 2, text: '1 added, 1 removed, 2 changed' });
    const third = await refresh(join(dir, 'two.xlsx'), join(dir, 'three.xlsx'), [risk('b', 'Beta', 5), risk('c', 'Gamma = 3', 3), risk('d', 'Delta', 4)]);
    expect(third.changes!.text).toBe('0 added, 0 removed, 0 changed');

    const changes = (file: string) =>
      openpyxl<unknown[][]>(file, "ws = load_workbook(sys.argv[1])['Changes']\nprint(json.dumps([[c for i, c in enumerate(r) if i != 1] for r in ws.iter_rows(values_only=True)]))");
    expect(changes(join(dir, 'two.xlsx'))).toEqual([
      ['Table', 'Key', 'Change', 'Column', 'Old', 'New'],
      ['tbl_risk', 'd', 'added', null, null, null],
      ['tbl_risk', 'a', 'removed', null, null, null],
      ['tbl_risk', 'b', 'changed', 'GrossImpact', 2, 5],
      ['tbl_risk', 'c', 'changed', 'Name', 'Gamma', 'Gamma = 3'],
    ]);
    // Nothing changed the third time: the table's rows in the Changes sheet say so by being gone.
    expect(changes(join(dir, 'three.xlsx'))).toEqual([['Table', 'Key', 'Change', 'Column', 'Old', 'New'], [null, null, null, null, null, null]]);
  });
});
