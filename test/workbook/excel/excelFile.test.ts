import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoToSerial } from '../../../src/sheet';
import { createExcelWorkbook } from '../../../src/workbook/excel';
import { openFileWorkbook } from '../../../src/workbook/file';
import { openInFakeExcel, saveFakeExcel } from '../../support/excel-file';
import { libreOfficeSheets } from '../../support/outside-readers';
import { FakeExcel, supports } from './fakeExcel';

/**
 * The save and open stand-ins the round trip relies on (test/support/excel-file.ts): what the adapter
 * wrote into the fake Excel comes back from the file as it went in, and the file is one LibreOffice and
 * our file adapter open.
 */
it('saves what the Excel adapter wrote and opens it again as it was, in a new session', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grc-excel-file-'));
  try {
    const xl = new FakeExcel();
    const wb = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
    await wb.addSheet('Data');
    await wb.createTable({
      name: 'tbl_things',
      sheet: 'Data',
      anchor: 'B2',
      columns: [
        { name: 'Code', format: 'text' },
        { name: 'When', format: 'date' },
        { name: 'Count', format: 'number' },
        { name: 'Done', format: 'boolean' },
        { name: 'Kind', format: 'text', list: { sheet: 'Lists', key: 'Kind', values: ['A', 'B'] } },
        { name: 'Key', format: 'text', hidden: true },
      ],
    });
    await wb.writeRows('tbl_things', 0, [
      ['=not a formula', isoToSerial('2025-03-04'), 2.5, true, 'A', 'k1'],
      ['00123', isoToSerial('2024-12-31'), null, false, 'B', 'k2'],
    ]);
    await wb.setSetting('grc-sheets.test', { a: [1, 'two'], quote: 'say "hi" & <bye>' });
    const file = join(dir, 'things.xlsx');
    await saveFakeExcel(xl, file);

    const again = openInFakeExcel(file);
    expect(again.sheets.map((s) => [s.name, s.visibility])).toEqual(xl.sheets.map((s) => [s.name, s.visibility]));
    expect(again.header('tbl_things')).toEqual(xl.header('tbl_things'));
    expect(again.body('tbl_things')).toEqual([
      ['=not a formula', isoToSerial('2025-03-04'), 2.5, true, 'A', 'k1'],
      ['00123', isoToSerial('2024-12-31'), '', false, 'B', 'k2'],
    ]);
    for (const at of ['B3', 'C3', 'D3', 'F3', 'G4']) expect([at, again.peek('Data', at)]).toEqual([at, xl.peek('Data', at)]);
    expect(again.peek('Data', 'B3')).toMatchObject({ format: '@', formula: false });
    expect(again.sheet('Data').columns?.get(6)?.hidden).toBe(true);
    expect(again.tables[0]!.id).toBe(1001);
    const read = createExcelWorkbook(again.run as unknown as typeof Excel.run, supports(18), { platform: 'PC' });
    expect(await read.getSetting('grc-sheets.test')).toEqual({ a: [1, 'two'], quote: 'say "hi" & <bye>' });
    expect((await read.findTable('tbl_things'))).toMatchObject({ sheet: 'Data', topLeft: 'B2', rowCount: 2 });

    // The package is one other readers take: LibreOffice, and our file adapter with the add-in's settings.
    expect(libreOfficeSheets(file).get('Data')![3]).toEqual(['', '00123', '2024-12-31', '', 'FALSE', 'B', 'k2']);
    const onDisk = openFileWorkbook(file);
    try {
      expect(await onDisk.getSetting('grc-sheets.test')).toEqual({ a: [1, 'two'], quote: 'say "hi" & <bye>' });
      expect((await onDisk.readRows('tbl_things')).rows[0]).toEqual(['=not a formula', isoToSerial('2025-03-04'), 2.5, true, 'A', 'k1']);
    } finally {
      onDisk.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
