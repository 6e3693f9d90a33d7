import { OfficeMockObject } from 'office-addin-mock';
import { createExcelWorkbook } from '../../../src/workbook/excel';

/**
 * office-addin-mock returns an error string for a property read before load and sync: this shows the
 * adapter loads and syncs before it reads a setting, and stores settings as JSON text.
 */
function mockExcel() {
  const stored = new Map<string, string>();
  // Objects the mock syncs must sit in its tree: the one setting item is a child that each lookup re-points.
  const context = new OfficeMockObject({
    workbook: {
      settings: {
        item: { isNullObject: true, value: '', delete: () => undefined },
        add: (key: string, value: string) => void stored.set(key, value),
      },
    },
  });
  // setValue is documented public API of the mock, typed private in its declarations.
  type Settable = { setValue(name: string, value: unknown): void };
  const settings = context.workbook.settings as Settable & { item: Settable };
  settings.setValue('getItemOrNullObject', (key: string) => {
    settings.item.setValue('isNullObject', !stored.has(key));
    settings.item.setValue('value', stored.get(key) ?? '');
    settings.item.setValue('delete', () => void stored.delete(key));
    return settings.item;
  });
  const run = (async (batch: (ctx: unknown) => Promise<unknown>) => batch(context)) as unknown as typeof Excel.run;
  return { run, stored };
}

describe('Excel adapter on office-addin-mock', () => {
  it('round-trips a setting through workbook.settings, loading before reading', async () => {
    const { run, stored } = mockExcel();
    const wb = createExcelWorkbook(run, () => true);
    expect(await wb.getSetting('grc-sheets.bindings')).toBeUndefined();
    await wb.setSetting('grc-sheets.bindings', { version: 1, tables: { tbl_risk: { rowCount: 3 } } });
    expect(stored.get('grc-sheets.bindings')).toBe('{"version":1,"tables":{"tbl_risk":{"rowCount":3}}}');
    expect(await wb.getSetting('grc-sheets.bindings')).toEqual({ version: 1, tables: { tbl_risk: { rowCount: 3 } } });
    await wb.setSetting('grc-sheets.bindings', undefined);
    expect(stored.has('grc-sheets.bindings')).toBe(false);
  });
});

/** A sheet whose ranges, table and table column are each one mock object, so what the adapter set can be read back. */
function mockSheetWithTable() {
  const blankRow = [Array.from({ length: 200 }, () => '')];
  const context = new OfficeMockObject({
    workbook: {
      worksheets: { getItemOrNullObject: () => undefined },
      sheet: {
        isNullObject: false,
        visibility: 'Visible',
        getRangeByIndexes: () => undefined,
        range: { values: blankRow, numberFormat: [] },
        tables: { add: () => undefined, table: { name: '', id: '{1}', columns: { getItemAt: () => undefined, column: { getDataBodyRange: () => undefined, body: { dataValidation: { rule: '', errorAlert: '', clear: () => undefined } } } } } },
      },
    },
  });
  type Settable = { setValue(name: string, value: unknown): void };
  type Body = { dataValidation: { rule: unknown; errorAlert: unknown } };
  const wb = context.workbook as unknown as Settable & { sheet: Settable & Record<string, Settable & Record<string, Settable & Record<string, Settable & Record<string, Settable & { body: Body }>>>> };
  const sheet = wb.sheet;
  const table = sheet.tables!.table!;
  const column = table.columns!.column!;
  (wb as unknown as { worksheets: Settable }).worksheets.setValue('getItemOrNullObject', () => sheet);
  sheet.setValue('getRangeByIndexes', () => sheet.range);
  sheet.tables!.setValue('add', () => table);
  table.columns!.setValue('getItemAt', () => column);
  column.setValue('getDataBodyRange', () => column.body);
  const run = (async (batch: (ctx: unknown) => Promise<unknown>) => batch(context)) as unknown as typeof Excel.run;
  return { run, body: column.body };
}

describe('dropdowns on office-addin-mock', () => {
  it('turns the error alert off on a list that accepts other values', async () => {
    const { run, body } = mockSheetWithTable();
    const wb = createExcelWorkbook(run, () => true);
    const list = { sheet: 'Lists', values: ['Fraud', 'Outage'], allowOther: true };
    await wb.createTable({ name: 't', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'Types', format: 'text', list }] });
    expect(body.dataValidation.rule).toEqual({ list: { inCellDropDown: true, source: "='Lists'!$A$2:$A$3" } });
    expect(body.dataValidation.errorAlert).toMatchObject({ showAlert: false });
  });
});

/** A table at C3:D8 of sheet Risks, found by name, whose sheet records the column widths and frozen rows the adapter sets. */
function mockLoadedTable() {
  const widths: [number, number][] = [];
  const frozen: number[] = [];
  let lastColumn = -1;
  const context = new OfficeMockObject({
    workbook: {
      tables: {
        getItemOrNullObject: () => undefined,
        table: {
          isNullObject: false,
          name: 'tbl_risk',
          id: '{7}',
          worksheet: { name: 'Risks', getRangeByIndexes: () => undefined, range: { getEntireColumn: () => undefined }, freezePanes: { freezeRows: () => undefined } },
          getHeaderRowRange: () => undefined,
          getDataBodyRange: () => undefined,
          header: { values: [['Identifier', 'Name']], rowIndex: 2, columnIndex: 2 },
          body: { rowCount: 5 },
        },
      },
    },
  });
  type Settable = { setValue(name: string, value: unknown): void };
  type Node = Settable & Record<string, Settable & Record<string, Settable & Record<string, Settable & Record<string, Settable>>>>;
  const tables = (context.workbook as unknown as Node).tables!;
  const table = tables.table!;
  const sheet = table.worksheet!;
  const range = sheet.range!;
  tables.setValue('getItemOrNullObject', () => table);
  table.setValue('getHeaderRowRange', () => table.header);
  table.setValue('getDataBodyRange', () => table.body);
  sheet.setValue('getRangeByIndexes', (_row: number, col: number) => {
    lastColumn = col;
    return range;
  });
  // The adapter sets the width on the column of the range it just asked for.
  range.setValue('getEntireColumn', () => ({
    format: {
      set columnWidth(w: number) {
        widths.push([lastColumn, w]);
      },
    },
  }));
  sheet.freezePanes!.setValue('freezeRows', (n: number) => void frozen.push(n));
  const run = (async (batch: (ctx: unknown) => Promise<unknown>) => batch(context)) as unknown as typeof Excel.run;
  return { run, widths, frozen };
}

describe('a loaded table laid out on office-addin-mock', () => {
  it("sets each column's width and freezes the sheet down to the header row", async () => {
    const { run, widths, frozen } = mockLoadedTable();
    const wb = createExcelWorkbook(run, () => true);
    await wb.arrangeTable('tbl_risk', { widths: [60, 200], freezeHeader: true });
    expect(widths).toEqual([
      [2, 60],
      [3, 200],
    ]);
    // The header is in sheet row 3 (index 2): rows 1 to 3 stay in view.
    expect(frozen).toEqual([3]);
  });

  it('leaves the panes alone on a sheet the load did not make, and on an Excel without freeze panes', async () => {
    const own = mockLoadedTable();
    await createExcelWorkbook(own.run, () => true).arrangeTable('tbl_risk', { widths: [60, 200], freezeHeader: false });
    expect(own.frozen).toEqual([]);
    const old = mockLoadedTable();
    // An Excel without WorksheetFreezePanes (ExcelApi 1.7).
    await createExcelWorkbook(old.run, (_set, version) => version !== '1.7').arrangeTable('tbl_risk', { widths: [60, 200], freezeHeader: true });
    expect(old.frozen).toEqual([]);
    expect(old.widths).toHaveLength(2);
  });
});
