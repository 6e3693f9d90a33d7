import { catalog } from '../../src/catalog';
import { columnsOf, headerWords, reportColumns } from '../../src/sheet';
import { readLoadRecords, saveLoadRecord } from '../../src/loading/loadrecords';
import { firstLoadPlan } from '../../src/loading/columnplan';
import { loadDataset, refreshTable, type DataRecord } from '../../src/loading/load';
import { createMemoryWorkbook } from '../../src/workbook/memory';
import { fakeClient } from './fakeClient';

const guid = (i: number) => `0b5c3d1e-1111-4a4a-8b8b-${String(i).padStart(12, '0')}`;
const risk = (i: number, extra: DataRecord = {}): DataRecord => ({
  Id: guid(i),
  Identifier: `R-${i}`,
  Name: `Risk ${i}`,
  Description: i === 0 ? 'x'.repeat(500) : 'Short',
  Status: 'Active',
  GrossLikelihood: 3,
  DateIdentified: '2025-03-04',
  ControlGuids: [guid(1)],
  ...extra,
});
const risks = (n: number, extra: DataRecord = {}) => Array.from({ length: n }, (_, i) => risk(i, extra));
const base = { environment: 'ACC', source: 'relay http://127.0.0.1' };

describe('headers in words', () => {
  it("reads the API's property names as the spec's words", () => {
    expect(['ReportingOrganization', 'DateDetected', 'GrossLikelihood', 'RootCauseCategoryGuids', 'ParentGUID', 'CustomFieldId', 'MoiGuids', 'LeiCode', 'Id', 'Date of review'].map(headerWords)).toEqual([
      'Reporting organization',
      'Date detected',
      'Gross likelihood',
      'Root cause category GUIDs',
      'Parent GUID',
      'Custom field ID',
      'MOI GUIDs',
      'LEI code',
      'GUID',
      'Date of review',
    ]);
  });

  it('puts Identifier and Name first and the GUID columns last, for any dataset', () => {
    for (const d of catalog.datasets) {
      const cols = reportColumns(columnsOf(d.record));
      expect(cols).toHaveLength(Object.keys(d.record.shape).length);
      expect(new Set(cols.map((c) => c.name.toLowerCase())).size).toBe(cols.length);
      const firstGuid = cols.findIndex((c) => c.kind === 'guid' || /guids$/i.test(c.field));
      if (firstGuid >= 0) expect(cols.slice(firstGuid).every((c) => c.kind === 'guid' || c.kind === 'list')).toBe(true);
    }
    expect(reportColumns(columnsOf(catalog.dataset('incidents').record)).map((c) => c.name)).toEqual([
      'Identifier',
      'Name',
      'Reporting organization',
      'Description',
      'Affected organizations',
      'Affected third parties',
      'Incident types',
      'Root cause category',
      'Root cause',
      'Classification',
      'Date detected',
      'Date registered',
      'Date occurred',
      'Date closed',
      'Status',
      'Reporter',
      'GUID',
      'MOI GUIDs',
      'Risk GUIDs',
      'Control GUIDs',
    ]);
  });
});

describe('a new table', () => {
  it('is laid out as a report: widths from the content with a cap, header frozen, yes/no in words', async () => {
    const wb = createMemoryWorkbook();
    const out = await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' } });
    if (!out.ok) throw new Error(out.error.message);
    const snap = wb.snapshot();
    const t = snap.tables[0]!;
    const width = (h: string) => t.specs[t.columns.indexOf(h)]!.width!;
    expect(width('Description')).toBeLessThanOrEqual(49 * 5.25 + 1); // a 500-character text is capped
    expect(width('Name')).toBeLessThan(width('Description'));
    expect(width('Date identified')).toBeGreaterThanOrEqual(10 * 5.25);
    expect(snap.sheets.find((s) => s.name === t.sheet)!.frozenRows).toBe(1);

    const defs = await loadDataset({
      ...base,
      client: fakeClient([{ Id: guid(9), Name: 'Impact area', Type: 'Text', Required: true, Visible: false }]).client,
      workbook: wb,
      datasetId: 'riskcustomfieldvalues',
      target: { kind: 'new-sheet' },
    });
    if (!defs.ok) throw new Error(defs.error.message);
    const { columns, rows } = await wb.readRows(defs.table.name);
    expect(columns).toEqual(['Name', 'Type', 'Required', 'Visible', 'Answer options', 'GUID']);
    expect(rows[0]!.slice(2, 4)).toEqual(['Yes', 'No']);
    expect(wb.snapshot().tables[1]!.specs[2]!.format).toBe('text');
  });

  it("takes the user's choice and order of columns, keeps the key, and a refresh keeps the choice", async () => {
    const wb = createMemoryWorkbook();
    const out = await loadDataset({ ...base, client: fakeClient(risks(3)).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' }, columns: ['Name', 'Identifier', 'GrossLikelihood'] });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.table.columns).toEqual(['Name', 'Identifier', 'Gross likelihood', 'GUID']);
    const b = (await readLoadRecords(wb)).get('tbl_risk')!;
    expect(b.fields).toEqual(['Name', 'Identifier', 'GrossLikelihood', 'Id']);
    expect(b.omitted).toContain('Description');

    const again = await refreshTable({ ...base, client: fakeClient(risks(4, { NewField: 5 })).client, workbook: wb, table: 'tbl_risk' });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.table.columns).toEqual(['Name', 'Identifier', 'Gross likelihood', 'GUID', 'New field']);
    expect((await wb.readRows('tbl_risk')).rows[3]).toEqual(['Risk 3', 'R-3', 3, guid(3), 5]);
    expect((await readLoadRecords(wb)).get('tbl_risk')!.fields).toEqual(['Name', 'Identifier', 'GrossLikelihood', 'Id', 'NewField']);
  });

  it('refuses a choice naming a field the dataset does not have, before anything is made', async () => {
    const wb = createMemoryWorkbook();
    const out = await loadDataset({ ...base, client: fakeClient(risks(1)).client, workbook: wb, datasetId: 'risk', target: { kind: 'new-sheet' }, columns: ['Name', 'Grosslikelihood'] });
    expect(out).toMatchObject({ ok: false, error: { message: expect.stringContaining('Risks has no field Grosslikelihood; its fields are Id, Identifier') } });
    expect(await wb.listTables()).toEqual([]);
  });
});

describe('a table loaded before headers in words', () => {
  it('keeps its field-name headers and its order on refresh, and names a new field the same way', async () => {
    const wb = createMemoryWorkbook();
    const fields = Object.keys(catalog.dataset('risk').record.shape);
    await wb.addSheet('Risks');
    await wb.createTable({ name: 'tbl_risk', sheet: 'Risks', anchor: 'A1', columns: fields.map((name) => ({ name, format: 'text' })) });
    // What a workbook loaded by an earlier version holds: no `fields` in the table's record.
    await saveLoadRecord(wb, { table: 'tbl_risk', environment: 'ACC', source: 'relay', datasetId: 'risk', params: {}, loadedAt: new Date().toISOString(), rowCount: 0, columns: fields });
    const out = await refreshTable({ ...base, client: fakeClient(risks(2, { NewField: 'n' })).client, workbook: wb, table: 'tbl_risk' });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.table.columns).toEqual([...fields, 'NewField']);
    expect((await wb.readRows('tbl_risk')).rows[1]!.slice(0, 3)).toEqual([guid(1), 'R-1', 'Risk 1']);
    const b = (await readLoadRecords(wb)).get('tbl_risk')!;
    expect(b.fields).toBeUndefined();
    expect(b.columns).toEqual([...fields, 'NewField']);
  });
});

describe('a choice with the fields left out named', () => {
  it("keeps the record's fields the choice did not list (a register's custom fields) before the GUID columns", () => {
    const plan = firstLoadPlan(catalog.dataset('risk').record, ['Name', 'Identifier', 'Id'], ['Description', 'Owner']);
    const names = plan.columns.map((c) => c.name);
    expect(names.slice(0, 2)).toEqual(['Name', 'Identifier']);
    expect(names).not.toContain('Description');
    expect(names).not.toContain('Owner');
    expect(names).toContain('Gross likelihood');
    expect(names.at(-1)).toBe('GUID');
    expect(plan.record(plan.columns).omitted).toEqual(['Description', 'Owner']);
  });
});
