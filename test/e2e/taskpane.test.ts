/**
 * The taskpane in preview mode, in headless Chromium, against a real ACC and PRD sandbox behind the relay:
 * connect, load the v3 risk and the incidents datasets, read cells in the preview grid, refresh, and see
 * the failures a user would see. Screenshots of each screen land in test/e2e/screenshots/.
 */
import type { Page } from 'playwright-core';
import { createClient } from '../../src/client';
import { nodeFingerprints } from '../../src/cli/digest';
import { LOAD_RECORDS_KEY, type LoadRecord } from '../../src/loading/loadrecords';
import { connect, loadDataset, openPreview, screenshot, stackForFile, type Stack, type TestBrowser } from './harness';

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

let stack: Stack;
let browser: TestBrowser;
let page: Page;
stackForFile({ page: true }, (s) => ({ stack, browser, page } = s));

/** The grid cell under a table's header `column`, `row` rows below it (0 = first body row). */
async function cellUnder(column: string, row = 0): Promise<{ raw: unknown; text: string }> {
  const header = page.locator('[data-testid="preview-grid"] td[data-cell]', { hasText: new RegExp(`^${column}$`) }).first();
  const address = (await header.getAttribute('data-cell'))!;
  const [, letters, number] = /^([A-Z]+)(\d+)$/.exec(address)!;
  const cell = page.locator(`[data-testid="preview-grid"] td[data-cell="${letters}${Number(number) + 1 + row}"]`);
  await cell.scrollIntoViewIfNeeded();
  return { raw: JSON.parse((await cell.getAttribute('data-raw')) ?? 'null'), text: await cell.innerText() };
}

test('a wrong password shows the invalid-key message and no connection', async () => {
  await screenshot(page, '01-connect');
  const result = await connect(page, 'sandbox-acc', { identifier: stack.acc.demoKey!.identifier, password: 'wrong-password' });
  expect(result).toBe('failed');
  const message = await page.getByTestId('connect-error').innerText();
  expect(message).toContain('The key is not accepted in sandbox-acc');
  expect(message).toContain('Requested IP addresses');
  await expect(page.getByTestId('env-badge').innerText()).resolves.toBe('Not connected');
  await screenshot(page, '02-connect-wrong-key');
});

test('the right key connects and the badge names the environment', async () => {
  expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
  await expect(page.getByTestId('env-badge').innerText()).resolves.toBe('sandbox-acc');
  await screenshot(page, '03-connected');
});

test('the datasets list prefers v3 risks and marks assumed paths', async () => {
  await page.getByRole('tab', { name: 'Datasets' }).click();
  const risks = page.getByRole('region', { name: 'Risks' }).getByRole('button');
  await expect(risks.first().getAttribute('data-testid')).resolves.toBe('dataset-risk');
  await expect(page.getByTestId('dataset-risiko').innerText()).resolves.toContain('old: use Risks');
  await expect(page.getByTestId('dataset-tasks').innerText()).resolves.toContain('assumed path');
  await screenshot(page, '04-datasets');
});

test('loading v3 risks writes a table whose date cells hold serial dates', async () => {
  const done = await loadDataset(page, 'risk');
  expect(done).toMatch(/Loaded 200 rows/);
  // Hashed on the taskpane's worker, which loaded under the relay's Content-Security-Policy: the download's
  // hash checked against the relay's signed statement, the record fingerprint the one node:crypto makes.
  expect(page.workers().map((w) => new URL(w.url()).pathname)).toEqual([expect.stringMatching(/^\/sha256-worker\.[0-9a-f]{8}\.js$/)]);
  const records = await page.evaluate((key) => (window as unknown as { __grcPreviewWorkbook: { getSetting(key: string): Promise<{ tables: Record<string, LoadRecord> }> } }).__grcPreviewWorkbook.getSetting(key), LOAD_RECORDS_KEY);
  const fp = nodeFingerprints();
  await createClient({ baseUrl: `${stack.url}/api/sandbox-acc`, credentials: stack.acc.demoKey! }).download('risk', { onBatch: (r) => fp.add(r) });
  expect(records.tables.tbl_risk).toMatchObject({ fingerprint: await fp.done(), evidence: { statement: expect.any(String) } });
  expect(records.tables.tbl_risk!.evidence!.problem).toBeUndefined();
  const date = await cellUnder('Date identified');
  await screenshot(page, '05-loaded-risks');
  expect(typeof date.raw).toBe('number');
  expect(date.raw as number).toBeGreaterThan(36526); // after 2000-01-01
  // Drawn by its number format only, as Excel does: the date, not its serial beside it.
  expect(date.text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

test('the grid is keyboard accessible and pages through the rows past the first page', async () => {
  await page.getByTestId('sheet-Risks').click();
  const grid = page.locator('[data-testid="preview-grid"] [role="grid"]');
  await expect(page.getByTestId('grid-rows').innerText()).resolves.toBe('Showing rows 1–200 of 201');
  await page.locator('[data-testid="preview-grid"] td[data-cell="A2"]').click();
  await expect(grid.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('grid-name-box').innerText()).resolves.toMatch(/^B3\s/);
  const active = await grid.getAttribute('aria-activedescendant');
  await expect(page.locator(`[id="${active}"]`).getAttribute('data-cell')).resolves.toBe('B3');
  await expect(page.locator('[data-testid="preview-grid"] td[data-cell="B3"]').getAttribute('aria-selected')).resolves.toBe('true');
  await screenshot(page, '05b-grid-keyboard');
  // Ctrl+End goes to the last used cell, on the second page; the table's column names replace the letters.
  await page.keyboard.press('Control+End');
  await expect(page.getByTestId('grid-rows').innerText()).resolves.toBe('Showing rows 201–201 of 201');
  await expect(page.getByTestId('grid-name-box').innerText()).resolves.toMatch(/^[A-Z]+201\s/);
  await expect(page.locator('[data-testid="preview-grid"] td[data-cell="A2"]').count()).resolves.toBe(0);
  await expect(page.locator('[data-testid="preview-grid"] thead th').nth(1).innerText()).resolves.toBe('Identifier');
  await screenshot(page, '05c-grid-last-page');
  await page.getByRole('button', { name: 'First' }).click();
  await expect(page.getByTestId('grid-rows').innerText()).resolves.toBe('Showing rows 1–200 of 201');
});

test('loading incidents joins GUID lists into one cell', async () => {
  const done = await loadDataset(page, 'incidents');
  expect(done).toMatch(/Loaded \d+ rows/);
  let joined: string | null = null;
  for (let row = 0; row < 20 && !joined; row++) {
    const cell = await cellUnder('Risk GUIDs', row);
    if (typeof cell.raw === 'string' && cell.raw.includes(';')) joined = cell.raw;
  }
  expect(joined).toMatch(new RegExp(`^${GUID}(; ${GUID})+$`));
  await screenshot(page, '06-loaded-incidents');
});

test('Cancel stops a load and leaves no partial table', async () => {
  stack.acc.admin.setFaults({ latencyMs: 10_000 });
  try {
    await page.getByRole('tab', { name: 'Datasets' }).click();
    await page.getByTestId('dataset-audit').click();
    await page.getByTestId('load').click();
    await page.getByTestId('load-progress').waitFor();
    await expect(page.getByTestId('dataset-risk').isDisabled()).resolves.toBe(true);
    await screenshot(page, '07-loading');
    await page.getByTestId('cancel-load').click();
    await expect(page.getByTestId('load-error').innerText()).resolves.toContain('Cancelled');
    await expect(page.getByTestId('dataset-risk').isDisabled()).resolves.toBe(false);
    // The loads before it made their sheets and the Evidence sheet; the cancelled one left nothing.
    await expect(page.locator('[data-testid="preview-grid"] [role="tab"]').allInnerTexts()).resolves.toEqual(['Sheet1', 'Risks', 'Evidence', 'Incidents']);
  } finally {
    stack.acc.admin.setFaults({ latencyMs: 0 });
  }
});

test('a dataset loads at the selected cell of the grid', async () => {
  await page.getByTestId('sheet-Sheet1').click();
  await page.locator('[data-testid="preview-grid"] td[data-cell="C3"]').click();
  await page.getByRole('tab', { name: 'Datasets' }).click();
  await page.getByTestId('dataset-audittype').click();
  await page.getByRole('radio', { name: 'At the selected cell' }).check();
  await page.getByTestId('load').click();
  await page.getByTestId('load-done').waitFor();
  await page.getByTestId('sheet-Sheet1').click();
  const header = page.locator('[data-testid="preview-grid"] td[data-cell="C3"]');
  // A report's order: Name, Description, Order, then the GUID last.
  await expect(header.getAttribute('data-raw')).resolves.toBe('"Name"');
  await expect(page.locator('[data-testid="preview-grid"] td[data-cell="F3"]').getAttribute('data-raw')).resolves.toBe('"GUID"');
  await expect(page.locator('[data-testid="preview-grid"] td[data-cell="F4"]').getAttribute('data-raw')).resolves.toMatch(new RegExp(`^"${GUID}"$`));
});

test('the Tables screen lists the tables and refreshes them', async () => {
  await page.getByRole('tab', { name: 'Tables' }).click();
  await page.getByTestId('table-tbl_risk').waitFor();
  await expect(page.getByTestId('table-tbl_incidents').innerText()).resolves.toContain('sandbox-acc');
  await page.getByTestId('refresh-all').click();
  await page.getByTestId('table-tbl_incidents').getByText(/^Refreshed: \d+ rows \(.+\)\.$/).waitFor();
  await page.getByTestId('table-tbl_audittype').getByText(/^Refreshed: \d+ rows \(.+\)\.$/).waitFor();
  await expect(page.getByTestId('table-tbl_risk').innerText()).resolves.toContain('Refreshed: 200 rows (no changes).');
  await screenshot(page, '08-tables-refreshed');
});

test('a refresh the service cuts off says once that the table keeps its last load, with the time of that load', async () => {
  await page.getByRole('tab', { name: 'Tables' }).click();
  const card = page.getByTestId('table-tbl_risk');
  stack.acc.admin.setFaults({ dropRate: 1 });
  try {
    await card.getByTestId('refresh').click();
    await card.getByTestId('refresh-error').waitFor({ timeout: 20_000 });
  } finally {
    stack.acc.admin.setFaults({ dropRate: 0 });
  }
  const text = await card.getByTestId('refresh-error').innerText();
  expect(text).toMatch(/The table still holds the data loaded [^.]*\d/);
  expect(text.match(/still holds/g)).toHaveLength(1);
  await screenshot(page, '09a-refresh-cut-off');
}, 60_000);

test('a refresh with a key that no longer works fails loudly and keeps the old rows', async () => {
  await page.getByTestId('sheet-Incidents').click();
  const before = await cellUnder('Name');
  stack.acc.admin.revokeKey(stack.acc.demoKey!.identifier);
  const card = page.getByTestId('table-tbl_incidents');
  await card.getByTestId('refresh').click();
  const error = card.getByTestId('refresh-error');
  await error.waitFor();
  await expect(error.innerText()).resolves.toContain('Refresh failed: The key is not accepted in sandbox-acc');
  await expect(error.innerText()).resolves.toContain('The table still holds the data loaded');
  expect(await cellUnder('Name')).toEqual(before);
  await screenshot(page, '09-refresh-failed');
});

test('the Activity screen lists what happened, failures included, and copies it', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const list = await page.getByTestId('activity-list').innerText();
  expect(list).toContain('Loaded: Risks, into tbl_risk, 200 rows'); // datasets by title, as the Datasets screen names them
  expect(list).toContain('Load cancelled: Audits');
  expect(list).toContain('Refresh failed: Incidents');
  expect(list).toContain('Connection failed');
  await page.getByTestId('copy-activity').click();
  await page.getByText(/^Copied \d+ entries\.$/).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split('\n')[0]).toBe('time\taction\toutcome\tdetails');
  expect(copied).toMatch(/\tload\tok\tenv=sandbox-acc\tdataset=risk\ttable=tbl_risk\trows=200/);
  await screenshot(page, '10-activity');
});

test('the Connect form works from the keyboard alone', async () => {
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.getByTestId('identifier').fill('');
  await page.getByTestId('identifier').focus();
  await page.keyboard.type(stack.acc.demoKey!.identifier);
  await page.keyboard.press('Tab');
  await page.keyboard.type('still-wrong');
  const before = Number(await page.getByTestId('connect-form').getAttribute('data-attempts'));
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid="connect-form"][data-attempts="${before + 1}"]`).waitFor();
  await expect(page.getByTestId('connect-error').innerText()).resolves.toContain('not accepted');
});

test('production is unmistakable: a red PRODUCTION badge', async () => {
  expect(await connect(page, 'sandbox-prd', stack.prd.demoKey!)).toBe('ok');
  const badge = page.getByTestId('env-badge');
  await expect(badge.innerText()).resolves.toBe('PRODUCTION · sandbox-prd');
  const colour = await badge.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = colour.match(/\d+/g)!.map(Number);
  expect(r).toBeGreaterThan(150);
  expect(g! + b!).toBeLessThan(r!);
  await screenshot(page, '11-production');
});

test('the taskpane works at 320 px and follows a dark colour scheme', async () => {
  const narrow = await openPreview(browser, stack, { width: 320, height: 720, colorScheme: 'dark' });
  expect(await connect(narrow, 'sandbox-acc', stack.prd.demoKey!)).toBe('failed');
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const background = await narrow.getByTestId('taskpane').evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r] = background.match(/\d+/g)!.map(Number);
  expect(r).toBeLessThan(80);
  await screenshot(narrow, '12-narrow-dark-wrong-environment');
  await narrow.getByRole('tab', { name: 'Datasets' }).click();
  await screenshot(narrow, '13-narrow-datasets');
  // The five tabs stay on one line and the red production badge fits beside the title.
  const tabTops = await narrow.locator('[role="tablist"]').first().locator('[role="tab"]').evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect().top));
  expect(new Set(tabTops).size).toBe(1);
  const lastTabRight = await narrow.getByRole('tab', { name: 'Activity' }).evaluate((t) => t.getBoundingClientRect().right);
  expect(lastTabRight).toBeLessThanOrEqual(320);
  expect(await connect(narrow, 'sandbox-prd', stack.prd.demoKey!)).toBe('ok');
  await expect(narrow.getByTestId('env-badge').innerText()).resolves.toBe('PRODUCTION · sandbox-prd');
  await screenshot(narrow, '14-narrow-dark-production');
  await narrow.close();
});

test('at 320 px in the light theme the preview grid sits under the pane, and the wide pane has a dark theme too', async () => {
  const narrow = await openPreview(browser, stack, { width: 320, height: 900, colorScheme: 'light' });
  await narrow.getByTestId('preview-grid').scrollIntoViewIfNeeded();
  await expect(narrow.getByTestId('grid-rows').innerText()).resolves.toBe('Empty sheet');
  await screenshot(narrow, '15-narrow-light-grid');
  await narrow.close();
  const wide = await openPreview(browser, stack, { width: 1280, height: 800, colorScheme: 'dark' });
  expect(await connect(wide, 'sandbox-acc', stack.acc.demoKey!)).toBe('failed'); // the key was revoked above
  await screenshot(wide, '16-dark-connect-failed');
  await wide.close();
});
