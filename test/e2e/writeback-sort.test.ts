/**
 * Row identity in preview mode, in headless Chromium: the user sorts the table between two posts (and adds
 * rows); every result stays on its own row and nothing is created twice. The preview grid has no sort
 * command, so the test sorts the preview's workbook as Excel's sort would (rows move with all their cells).
 */
import { bindPaths } from '../catalog/bind-paths';
import type { Page } from 'playwright-core';
import type { MemoryWorkbook } from '../../src/workbook/memory';
import { newTemplate, pasteRowsByName, screenshot, stackForFile, type Stack } from './harness';

let stack: Stack;
let page: Page;
// Bound exactly where the catalogue assumes: the flows post without the assumed-path confirmation.
stackForFile({ scale: 50, bindings: { acc: bindPaths(), prd: bindPaths() }, connectTo: 'sandbox-acc' }, (s) => ({ stack, page } = s));

const header = ['Name', 'Reporting organization', 'Description'];
/** Pastes rows below the table's filled rows (the template's header is row 1), as a user would. */
const paste = async (names: string[]) => {
  const used = (await sheetRows()).length;
  await pasteRowsByName(page, `A${used + 2}`, [header, ...names.map((n) => [n, 'Finance', `about ${n}`])]);
};

type W = Window & { __grcPreviewWorkbook: MemoryWorkbook };
const sortBy = (column: string, order: 'ascending' | 'descending') =>
  page.evaluate(
    async ({ column, order }) => {
      const wb = (window as unknown as W).__grcPreviewWorkbook;
      const table = (await wb.listTables()).find((t) => t.name.startsWith('GrcIncidents'))!;
      wb.sortRows(table.name, column, order);
    },
    { column, order },
  );
const sheetRows = () =>
  page.evaluate(async () => {
    const wb = (window as unknown as W).__grcPreviewWorkbook;
    const table = (await wb.listTables()).find((t) => t.name.startsWith('GrcIncidents'))!;
    const { columns, rows } = await wb.readRows(table.name);
    const at = (c: string) => columns.indexOf(c);
    return rows
      .filter((r) => r[at('Name')] !== null)
      .map((r) => ({ name: r[at('Name')], description: r[at('Description')], result: r[at('Result')], guid: r[at('Result GUID')] }));
  });

test('sorting the table between two posts keeps every result on its own row and creates nothing twice', async () => {
  await newTemplate(page, 'incidents');

  await paste(['Zeta outage', 'Alpha leak', 'Mid fraud']);
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('post-done').innerText()).toContain('3 created');

  await sortBy('Name', 'ascending');
  await paste(['Beta phishing', 'Omega theft']);
  await sortBy('Description', 'descending');
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('post-done').innerText()).toContain('2 created');
  await screenshot(page, 'wb-sort-01-posted-after-sort');

  const rows = await sheetRows();
  const added = stack.acc.store.addedRecords('incidents');
  expect(rows.map((r) => r.name).sort()).toEqual(['Alpha leak', 'Beta phishing', 'Mid fraud', 'Omega theft', 'Zeta outage']);
  expect(added).toHaveLength(5);
  for (const r of rows) {
    expect(r.description).toBe(`about ${r.name}`);
    expect(r.result).toBe('created');
    const record = added.find((a) => a.Id === r.guid);
    expect(record?.Name).toBe(r.name);
  }

  // And once more: sorted again, a third Post finds nothing to send.
  await sortBy('Name', 'descending');
  await page.getByTestId('wb-post').click();
  await page.getByTestId('post-nothing').waitFor();
  expect(stack.acc.store.addedRecords('incidents')).toHaveLength(5);
});
