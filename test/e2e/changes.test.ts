/**
 * What changed since last time, in the taskpane (preview mode, real sandbox behind the relay): a figure
 * typed over in the grid is named before a refresh overwrites it, the user keeps it or overwrites it, and
 * the refresh says what it changed and writes the Changes sheet.
 */
import type { Page } from 'playwright-core';
import { loadDataset, pasteInGrid, screenshot, stackForFile } from './harness';

let page: Page;
stackForFile({ connectTo: 'sandbox-acc' }, (s) => ({ page } = s));
beforeAll(() => loadDataset(page, 'risk'), 60_000);

const cellText = async (address: string) => page.locator(`[data-testid="preview-grid"] td[data-cell="${address}"]`).innerText();

test('a cell typed over is named before the refresh, kept on request, overwritten on request', async () => {
  const loaded = await cellText('B3');
  await pasteInGrid(page, 'B3', 'Typed over');
  await expect(cellText('B3')).resolves.toBe('Typed over');

  await page.getByRole('tab', { name: 'Tables' }).click();
  const card = page.getByTestId('table-tbl_risk');
  await card.getByTestId('refresh').click();
  const edited = card.getByTestId('edited-cells');
  await edited.waitFor();
  const text = await edited.innerText();
  expect(text).toContain('1 cell was edited by hand since the last load');
  expect(text).toContain(`Risks!B3 (Name): ${loaded} → Typed over`);
  await screenshot(page, '20-refresh-hand-edits');

  await card.getByTestId('keep-edits').click();
  await card.getByText('Refresh cancelled: the table still holds its previous data.').waitFor();
  await page.getByRole('tab', { name: 'Datasets' }).click();
  await expect(cellText('B3')).resolves.toBe('Typed over');

  await page.getByRole('tab', { name: 'Tables' }).click();
  await page.getByTestId('highlight-changes').click();
  await card.getByTestId('refresh').click();
  await card.getByTestId('overwrite-edits').click();
  await expect(card.getByTestId('refresh-result').innerText()).resolves.toBe('Refreshed: 200 rows (0 added, 0 removed, 1 changed).');
  await screenshot(page, '21-refresh-changes');
  await page.getByRole('tab', { name: 'Datasets' }).click();
  await expect(cellText('B3')).resolves.toBe(loaded);
});
