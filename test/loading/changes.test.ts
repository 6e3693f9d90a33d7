import { catalog } from '../../src/catalog';
import { columnsOf } from '../../src/sheet';
import { readLoadRecords } from '../../src/loading/loadrecords';
import { compareTables, describeChanges } from '../../src/loading/changes';
import { CHANGES_TABLE } from '../../src/loading/changesheet';
import { loadDataset, refreshTable, type DataRecord } from '../../src/loading/load';
import { recordKeyColumns } from '../../src/loading/recordkey';
import { readBeforeRefresh } from '../../src/loading/refreshread';
import { canonicalJson } from '../../src/loading/fingerprint';
import { fnv1a, lineOf, makeCellPrint, rowPrinter, rowPrints } from '../../src/loading/tableprint';
import { nodeDigest } from '../../src/cli/digest';
import { DigestList } from '../../src/loading/digests';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { fakeClient } from './fakeClient';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risk = (i: number, extra: DataRecord = {}): DataRecord => ({ Id: guid(i), Identifier: `R-${i}`, Name: `Risk ${i}`, Status: 'Active', GrossImpact: i % 5, ...extra });
const risks = (n: number) => Array.from({ length: n }, (_, i) => risk(i));
const base = { environment: 'ACC', source: 'relay http://127.0.0.1' };
const columnsOfDataset = (id: string) => columnsOf(catalog.dataset(id).record);

async function loaded(records: DataRecord[]) {
  const wb = createMemoryWorkbook();
  const out = await loadDataset({ ...base, client: fakeClient(records).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
  if (!out.ok) throw new Error(out.error.message);
  return wb;
}

describe('record keys from the catalogue', () => {
  it('is Id, GUID, the leading GUID columns together, or none', () => {
    expect(recordKeyColumns(columnsOfDataset('risk'))).toEqual(['Id']);
    expect(recordKeyColumns(columnsOfDataset('riskrootcausecategory'))).toEqual(['GUID']);
    expect(recordKeyColumns(columnsOfDataset('riskcustomfields'))).toEqual(['RiskGuid']);
    expect(recordKeyColumns(columnsOfDataset('thirdpartycontractcustomfieldvalues'))).toEqual(['ContractGuid', 'CustomFieldId']);
    const none = catalog.datasets.find((d) => !recordKeyColumns(columnsOf(d.record)).length);
    expect(none).toBeDefined();
  });
});

describe('compareTables', () => {
  it('finds added, removed and changed records with field-level old -> new, by key not position', () => {
    const before = { columns: ['Id', 'Name', 'Score'], rows: [['a', 'A', 1], ['b', 'B', 2], ['c', 'C', 3]] };
    const after = { columns: ['Id', 'Score', 'Name'], rows: [['c', 30, 'C'], ['a', 1, 'A'], ['d', 4, 'D']] };
    const { summary, changes } = compareTables(before, after, ['Id']);
    expect(summary).toEqual({ added: 1, removed: 1, changed: 1, fields: 1 });
    expect(describeChanges(summary)).toBe('1 added, 1 removed, 1 changed');
    expect(changes).toEqual(
      expect.arrayContaining([
        { kind: 'changed', key: 'c', row: 0, field: 'Score', old: 3, new: 30 },
        { kind: 'added', key: 'd', row: 2, field: '', old: null, new: null },
        { kind: 'removed', key: 'b', row: 1, field: '', old: null, new: null },
      ]),
    );
  });

  it('treats an empty string as an empty cell and the inert-formula quote as not part of the value', () => {
    const before = { columns: ['Id', 'Name'], rows: [['a', ''], ['b', '=1+1']] };
    const after = { columns: ['Id', 'Name'], rows: [['a', null], ['b', "'=1+1"]] };
    expect(compareTables(before, after, ['Id']).summary).toEqual({ added: 0, removed: 0, changed: 0, fields: 0 });
  });

  it('numbers repeated keys, and keys rows by position where the dataset has no key', () => {
    const dup = compareTables({ columns: ['Id', 'V'], rows: [['a', 1], ['a', 2]] }, { columns: ['Id', 'V'], rows: [['a', 1], ['a', 3]] }, ['Id']);
    expect(dup.changes).toEqual([{ kind: 'changed', key: 'a #2', row: 1, field: 'V', old: 2, new: 3 }]);
    const none = compareTables({ columns: ['V'], rows: [[1], [2]] }, { columns: ['V'], rows: [[1], [5], [6]] }, []);
    expect(none.changes).toEqual([
      { kind: 'changed', key: 'row 2', row: 1, field: 'V', old: 2, new: 5 },
      { kind: 'added', key: 'row 3', row: 2, field: '', old: null, new: null },
    ]);
  });

  it('compares every new row with the old row of its key when a numbered key meets a key typed that way', async () => {
    // "a", "a" and "a #2" are keyed "a", "a #2", "a #2": both of the last two meet the old "a #2".
    const before = { columns: ['Id', 'V'], rows: [['a', 1], ['a #2', 2]] };
    const after = { columns: ['Id', 'V'], rows: [['a', 1], ['a', 5], ['a #2', 6]] };
    const expected = {
      summary: { added: 0, removed: 0, changed: 2, fields: 3 },
      changes: [
        { kind: 'changed', key: 'a #2', row: 1, field: 'Id', old: 'a #2', new: 'a' },
        { kind: 'changed', key: 'a #2', row: 1, field: 'V', old: 2, new: 5 },
        { kind: 'changed', key: 'a #2', row: 2, field: 'V', old: 2, new: 6 },
      ],
      truncated: false,
    };
    expect(compareTables(before, after, ['Id'])).toEqual(expected);
    const wb = createMemoryWorkbook();
    await wb.addSheet('S');
    const table = await wb.createTable({ name: 'T', sheet: 'S', anchor: 'A1', columns: [{ name: 'Id', format: 'text' }, { name: 'V', format: 'general' }] });
    await wb.writeRows('T', 0, before.rows);
    const read = await readBeforeRefresh({ workbook: wb, table: { ...table, rowCount: 2 }, incoming: after, incomingPrints: rowPrints(after, after.columns, ['Id']), keyColumns: ['Id'], limit: Infinity });
    expect(read.compared).toEqual(expected);
  });
});

describe('refresh: change report', () => {
  it('writes one Changes row per changed field and per record added or removed, and summarises it', async () => {
    const wb = await loaded(risks(5));
    const next = [risk(0), risk(1, { Name: 'Renamed', Status: 'Closed' }), risk(3), risk(4), risk(7)];
    const out = await refreshTable({ ...base, client: fakeClient(next).client, workbook: wb, table: 'tbl_risk' });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.changes).toMatchObject({ summary: { added: 1, removed: 1, changed: 1, fields: 2 }, text: '1 added, 1 removed, 1 changed', listed: 4, truncated: false, sheet: 'Changes' });
    const { columns, rows } = await wb.readRows(CHANGES_TABLE);
    expect(columns).toEqual(['Time', 'Table', 'Dataset', 'Key', 'Field', 'Old', 'New', 'Kind']);
    const body = rows.map((r) => r.slice(1));
    expect(body).toEqual(
      expect.arrayContaining([
        ['tbl_risk', 'risk', guid(1), 'Name', 'Risk 1', 'Renamed', 'changed'],
        ['tbl_risk', 'risk', guid(1), 'Status', 'Active', 'Closed', 'changed'],
        ['tbl_risk', 'risk', guid(7), '', null, null, 'added'],
        ['tbl_risk', 'risk', guid(2), '', null, null, 'removed'],
      ]),
    );
    expect(body).toHaveLength(4);
    expect(Date.parse(String(rows[0]![0]))).not.toBeNaN();
    // A second refresh with nothing new appends nothing and says so.
    const again = await refreshTable({ ...base, client: fakeClient(next).client, workbook: wb, table: 'tbl_risk' });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.changes).toMatchObject({ text: 'no changes', sheet: null });
    expect((await wb.readRows(CHANGES_TABLE)).rows).toHaveLength(4);
  });

  it('highlights the changed cells and the added records when asked', async () => {
    const wb = await loaded(risks(3));
    const out = await refreshTable({ ...base, client: fakeClient([risk(0), risk(1, { Name: 'New name' }), risk(2), risk(9)]).client, workbook: wb, table: 'tbl_risk', highlightChanges: true });
    if (!out.ok) throw new Error(out.error.message);
    const marks = wb.snapshot().tables.find((t) => t.name === 'tbl_risk')!.marks;
    expect(marks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 1, column: 'Name', kind: 'warning', note: 'Changed by the last refresh; was Risk 1.' }),
        expect.objectContaining({ row: 3, column: 'GUID', kind: 'ok' }),
      ]),
    );
  });

  it('keeps the formula-looking text inert in the Changes sheet', async () => {
    const wb = await loaded([risk(0)]);
    await refreshTable({ ...base, client: fakeClient([risk(0, { Name: '=HYPERLINK("http://x")' })]).client, workbook: wb, table: 'tbl_risk' });
    const { rows } = await wb.readRows(CHANGES_TABLE);
    expect(rows[0]![6]).toBe('\'=HYPERLINK("http://x")');
  });
});

describe('refresh: hand edits since the last load', () => {
  it('names the edited cells with old -> now and changes nothing until told to overwrite', async () => {
    const wb = await loaded(risks(100));
    const nameCol = (await wb.findTable('tbl_risk'))!.columns.indexOf('Name');
    await wb.writeRows('tbl_risk', 41, [['Typed over']], nameCol);
    // The service changed another record meanwhile: that is a change, not an edit.
    const next = risks(100).map((r, i) => (i === 70 ? { ...r, Status: 'Closed' } : r));
    const refused = await refreshTable({ ...base, client: fakeClient(next).client, workbook: wb, table: 'tbl_risk' });
    if (refused.ok) throw new Error('expected a refusal');
    expect(refused.error).toMatchObject({ code: 'edited', tableState: 'intact' });
    expect(refused.error.edits).toEqual([expect.objectContaining({ address: 'Risks!B43', field: 'Name', key: guid(41), old: 'Risk 41', now: 'Typed over', certain: true })]);
    expect(refused.error.message).toContain('Risks!B43 (Name, ' + guid(41) + ') "Risk 41" -> "Typed over"');
    expect((await wb.readRows('tbl_risk', 41, 1)).rows[0]![nameCol]).toBe('Typed over');
    const forced = await refreshTable({ ...base, client: fakeClient(next).client, workbook: wb, table: 'tbl_risk', overwriteEdits: true });
    if (!forced.ok) throw new Error(forced.error.message);
    expect((await wb.readRows('tbl_risk', 41, 1)).rows[0]![nameCol]).toBe('Risk 41');
    expect(forced.changes?.summary).toEqual({ added: 0, removed: 0, changed: 2, fields: 2 });
  });

  it('is not fooled by a sort, and says so when rows were deleted by hand', async () => {
    const wb = await loaded(risks(10));
    const t = (await wb.findTable('tbl_risk'))!;
    const { rows } = await wb.readRows('tbl_risk');
    await wb.writeRows('tbl_risk', 0, [...rows].reverse());
    const sorted = await refreshTable({ ...base, client: fakeClient(risks(10)).client, workbook: wb, table: 'tbl_risk' });
    expect(sorted.ok).toBe(true);
    await wb.setRowCount(t.name, 9);
    const out = await refreshTable({ ...base, client: fakeClient(risks(10)).client, workbook: wb, table: 'tbl_risk' });
    if (out.ok) throw new Error('expected a refusal');
    expect(out.error.message).toContain('It had 10 rows after its last load and has 9 now');
  });

  it('keeps a cell print in the binding after a first load and after each refresh', async () => {
    const wb = await loaded(risks(40));
    const first = (await readLoadRecords(wb)).get('tbl_risk')!.cells!;
    expect(first).toMatchObject({ count: 40, keys: ['GUID'] });
    expect(first.buckets).toHaveLength(16);
    await refreshTable({ ...base, client: fakeClient(risks(41)).client, workbook: wb, table: 'tbl_risk' });
    expect((await readLoadRecords(wb)).get('tbl_risk')!.cells!.count).toBe(41);
  });
});

describe('cell fingerprint canonical form', () => {
  it('writes a row line as RFC 8785 does for every kind of cell', () => {
    const cells = ['plain', 'quote " and \\ and \u2028 and é', '', 0, -1.5, 1e21, 1e-7, 45123.541666666664, true, false, null];
    expect(lineOf(cells)).toBe(canonicalJson(cells));
  });

  it('is recomputed from the table by the documented steps (row digests sorted, buckets by FNV-1a of the key)', () => {
    const { createHash } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
    const t = { columns: ['Id', 'V'], rows: [['b', 2], ['a', "'=x"], ['c', '']] as (string | number)[][] };
    const print = makeCellPrint(rowPrints(t, ['Id', 'V'], ['Id']), ['Id']);
    const digests = [JSON.stringify(['b', 2]), JSON.stringify(['a', '=x']), JSON.stringify(['c', null])].map(sha);
    expect(print.sha256).toBe(sha([...digests].sort().map((d) => `${d}\n`).join('')));
    expect(print.buckets).toBe(sha([...digests].sort().map((d) => `${d}\n`).join('')).slice(0, 8));
    expect(fnv1a('a')).toBe(0xe40c292c);
  });

  it('orders digests as their hex texts sort, also where their first bytes are the same', () => {
    const list = new DigestList();
    const hexes: string[] = [];
    for (let r = 0; r < 500; r++) {
      list.add(0);
      const bytes = list.chunk(r).subarray(list.at(r), list.at(r) + 32);
      // Five first words in all, so most rows share their first bytes with others; some rows are the same.
      bytes.set([0, 0, r % 5, 7], 0);
      for (let k = 4; k < 32; k++) bytes[k] = r % 3 === 0 ? 9 : (r * 31 + k * 17) % 256;
      hexes.push(list.hex(r));
    }
    expect([...list.order()].map((r) => list.hex(r))).toEqual([...hexes].sort());
  });

  it('gives the prints made before the digests were kept as bytes, with every hash and printer (old workbooks verify)', () => {
    // Repeated and empty keys, escapes, every UTF-8 length, inert formulas, dates and date-times (method 2).
    const columns = ['Id', 'Name', 'Amount', 'When', 'Flag'];
    const rows = Array.from({ length: 300 }, (_, i) => [
      i % 50 === 7 ? 'dup' : i % 61 === 3 ? '' : `id-${(i * 7919) % 1000}`,
      i % 3 === 0 ? `Zürich “${i}” 中文 😀 \\ "q"` : i % 3 === 1 ? `'=SUM(A${i})` : '',
      i % 4 === 0 ? i * 1.25 : i % 4 === 1 ? -i : i % 4 === 2 ? 1e21 : null,
      i % 5 === 0 ? 45720 + i + (i % 7) / 24 : i % 5 === 1 ? 45720.000001157 : 'not a date',
      i % 2 === 0,
    ]);
    // Made by the code of 95d5964 (hex digests as strings, sorted and joined).
    const keyed = { method: 'sha256/cell-rows/2', count: 300, sha256: '6dc51672fa928d0a10a44c83c21757fe412377d3111171e63544c0fb4ccd0c5f', keys: ['Id'], buckets: '36259b8f829cb9d334b04394b1ccd65f704f9348768bc42ecb91c4fcc9a6c17f3db4f4b852246ba3', dates: ['When'] };
    const byPosition = { method: 'sha256/cell-rows/1', count: 300, sha256: 'f315146c02d766f1735a5a984a7be1c12d50765b91c5510804a8e6b8aa3cc747', keys: [], buckets: 'd82055536525929523fbc4ae69eec7735d1ffd568781ef13146ef1420d840880f5b990fd88f4c002' };
    for (const digest of [undefined, nodeDigest]) {
      expect(makeCellPrint(rowPrints({ columns, rows }, columns, ['Id'], ['When']), ['Id'], digest, ['When'])).toEqual(keyed);
      const load = rowPrinter(columns, columns, ['Id'], columns, ['When']);
      load.addRows(rows);
      expect(makeCellPrint(load.prints(), ['Id'], digest, ['When'])).toEqual(keyed);
      expect(makeCellPrint(rowPrints({ columns, rows }, ['Name', 'Amount'], []), [], digest)).toEqual(byPosition);
    }
  });
});

describe('numbers as Excel keeps them', () => {
  it('compares fractional figures to 15 significant digits, so a read-back double is no change', () => {
    const before = { columns: ['Id', 'V'], rows: [['a', 0.1 + 0.2], ['b', 45123.541666666664]] };
    const after = { columns: ['Id', 'V'], rows: [['a', 0.3], ['b', 45123.5416666667]] };
    expect(compareTables(before, after, ['Id']).summary.fields).toBe(0);
    expect(compareTables(before, { columns: ['Id', 'V'], rows: [['a', 0.31], ['b', 45123.541666666664]] }, ['Id']).summary.fields).toBe(1);
  });
});
