/**
 * The preview in headless Chromium: where office.js came from (Microsoft's CDN, or the packaged copy when
 * the CDN cannot be reached), and the grid as a sheet one types into: an incident template filled by
 * typing and from the dropdowns, validated, a flagged cell fixed, posted, the results in the grid.
 */
import { bindPaths } from '../catalog/bind-paths';
import type { Page } from 'playwright-core';
import { connect, newTemplate, openPreview, pasteInGrid, screenshot, stackForFile, type Stack, type TestBrowser } from './harness';

const CDN = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let stack: Stack;
let browser: TestBrowser;
// Bound exactly where the catalogue assumes: the flows post without the assumed-path confirmation.
stackForFile({ scale: 50, bindings: { acc: bindPaths(), prd: bindPaths() } }, (s) => ({ stack, browser } = s));

const officeSource = (page: Page) => page.evaluate(() => document.documentElement.dataset.officeJs);

describe('office.js', () => {
  test('with the CDN unreachable (the harness refuses the internet) the packaged copy is loaded and the preview runs', async () => {
    const failed: string[] = [];
    const page = await browser.context.newPage();
    page.on('requestfailed', (r) => failed.push(r.url()));
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(stack.previewUrl);
    await page.locator('html[data-office-js]').waitFor({ state: 'attached' });
    expect(await officeSource(page)).toBe('packaged');
    expect(failed).toContain(CDN);
    expect(asked).toContain('/office-js/office.js');
    await page.getByTestId('preview-grid').waitFor();
    await page.close();
  });

  test('with the CDN reachable its office.js is used and the packaged copy is never asked for', async () => {
    const page = await browser.context.newPage();
    // A stand-in for Microsoft's office.js: Office.onReady without a host, as in a plain browser.
    await page.route(CDN, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'window.Office = { fromStub: true, HostType: { Excel: "Excel" }, onReady: function () { return Promise.resolve({ host: null, platform: null }); } };',
      }),
    );
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.goto(stack.previewUrl);
    await page.locator('html[data-office-js]').waitFor({ state: 'attached' });
    expect(await officeSource(page)).toBe('cdn');
    expect(
      await page.evaluate(() => (window as unknown as { Office: { fromStub?: boolean } }).Office.fromStub),
    ).toBe(true);
    expect(asked).toContain(CDN);
    expect(asked.some((u) => u.endsWith('/office-js/office.js'))).toBe(false);
    await page.getByTestId('preview-grid').waitFor();
    await page.close();
  });
});

describe('typing into the preview grid', () => {
  let page: Page;
  const grid = () => page.locator('[data-testid="preview-grid"] [role="grid"]');
  const cell = (address: string) => page.locator(`[data-testid="preview-grid"] td[data-cell="${address}"]`);
  const text = async (address: string) => (await cell(address).innerText()).replace('▾', '').trim();
  /** Picks a value from the selected cell's dropdown by its name, with the mouse. */
  async function pick(address: string, value: string) {
    await cell(address).click();
    await page.getByTestId('grid-list-open').click();
    await page.getByTestId('grid-list').getByRole('option', { name: value, exact: true }).click();
    expect(await text(address)).toBe(value);
  }

  beforeAll(async () => {
    page = await openPreview(browser, stack);
    // A step that cannot happen fails in seconds, naming the step, not at the test's timeout.
    page.setDefaultTimeout(10_000);
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
    await newTemplate(page, 'incidents');
  }, 60_000);

  test('typing replaces a cell, Tab commits and moves right, Enter down (back to where the Tabs began), Escape cancels, F2 edits what is there', async () => {
    expect(await text('A1')).toBe('Name');
    await cell('A2').click();
    await page.keyboard.type('Phishing mail');
    await page.keyboard.press('Tab');
    expect(await page.getByTestId('grid-name-box').innerText()).toContain('B2');
    await page.keyboard.type('Finance');
    await page.keyboard.press('Enter');
    // As in Excel: a row filled with Tab, then Enter, starts the next row in the column the Tabs began in.
    expect(await page.getByTestId('grid-name-box').innerText()).toContain('A3');
    expect(await text('A2')).toBe('Phishing mail');
    expect(await text('B2')).toBe('Finance');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('grid-name-box').innerText()).toContain('A4');
    // Escape leaves the cell as it was.
    await cell('B3').click();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.type('Nobody');
    await page.keyboard.press('Escape');
    expect(await text('B2')).toBe('Finance');
    // F2 edits the text in place: the arrow keys move the caret, not the selection.
    await cell('A2').click();
    await page.keyboard.press('F2');
    await page.keyboard.press('End');
    await page.keyboard.type(' at the front desk');
    await page.keyboard.press('Enter');
    expect(await text('A2')).toBe('Phishing mail at the front desk');
    // Double-click edits too.
    await cell('B2').dblclick();
    expect(await page.getByTestId('grid-editor').inputValue()).toBe('Finance');
    await page.keyboard.press('Escape');
    // Focus stays on the grid between edits: the keyboard alone moves on.
    expect(await grid().evaluate((g) => g === document.activeElement)).toBe(true);
  });

  test('a strict list refuses a typed value with a message, and its dropdown opens with Alt+Down', async () => {
    await cell('E2').click();
    await page.keyboard.type('Huge');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('grid-problem').innerText()).toContain(
      '"Huge" is not on the list of Classification; pick one from the dropdown',
    );
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+ArrowDown');
    const list = page.getByTestId('grid-list');
    await list.waitFor();
    expect(await list.getAttribute('aria-label')).toBe('Values of Classification');
    await screenshot(page, 'preview-01-dropdown');
    await list.getByRole('option', { name: 'High', exact: true }).click();
    expect(await text('E2')).toBe('High');
  });

  test('an incident filled by typing, dropdowns and a paste validates; the flagged cell fixed; it posts and the results show', async () => {
    await pick('D2', 'Operational incident');
    await cell('I2').click();
    await page.keyboard.type('2025-03-04');
    await page.keyboard.press('Enter');
    // A date column keeps the serial date and shows the date, as Excel does with typed ISO dates.
    expect(await cell('I2').getAttribute('data-raw')).toBe('45720');
    // Row 3 by the keyboard alone: type, Tab, and Alt+Down with Enter in a list.
    await cell('A3').click();
    await page.keyboard.type('Laptop left on a train');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Head Office');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByTestId('grid-list').waitFor();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    expect(await text('E3')).not.toBe('');
    // Rows 4 and 5 pasted as Excel puts them on the clipboard; row 4 lacks its name.
    await pasteInGrid(
      page,
      'A4',
      '\tFinance\t\t\tLow\n' + 'Payment batch ran twice\tRetail Banking\t\t\tCritical\n',
    );
    expect(await text('B5')).toBe('Retail Banking');
    await page.getByTestId('wb-validate').click();
    await page.getByTestId('wb-validation').waitFor();
    expect(await page.getByTestId('wb-ready').innerText()).toBe('3 rows ready');
    expect(await page.getByTestId('problems').innerText()).toContain('Row 4, Name');
    expect(await cell('A4').getAttribute('class')).toBeTruthy();
    await screenshot(page, 'preview-02-validated');
    // Fix the flagged cell and validate again.
    await cell('A4').click();
    await page.keyboard.type('Printer jam');
    await page.keyboard.press('Enter');
    await page.getByTestId('wb-validate').click();
    await page.locator('[data-testid="wb-ready"]', { hasText: '4 rows ready' }).waitFor();
    // Delete clears the selection: stray values below the table, selected with Shift+Right, are gone again.
    await cell('A8').click();
    await page.keyboard.type('stray');
    await page.keyboard.press('Tab');
    await page.keyboard.type('more');
    await page.keyboard.press('Enter');
    expect([await text('A8'), await text('B8')]).toEqual(['stray', 'more']);
    await cell('A8').click();
    await page.keyboard.press('Shift+ArrowRight');
    expect(await page.getByTestId('grid-name-box').innerText()).toContain('A8:B8');
    expect(await cell('B8').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Delete');
    expect([await text('A8'), await text('B8')]).toEqual(['', '']);

    await page.getByTestId('wb-post').click();
    await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('post-done').innerText()).toContain('4 created');
    const header = await page
      .locator('[data-testid="preview-grid"] td[data-cell$="1"]', { hasText: /^Result GUID$/ })
      .getAttribute('data-cell');
    const column = header!.replace(/\d+$/, '');
    for (const row of [2, 3, 4, 5]) expect(await text(`${column}${row}`)).toMatch(GUID);
    const created = stack.acc.store.addedRecords('incidents').map((r) => r.Name);
    expect(created).toEqual(
      expect.arrayContaining([
        'Phishing mail at the front desk',
        'Laptop left on a train',
        'Printer jam',
        'Payment batch ran twice',
      ]),
    );
    await cell(`${column}2`).click();
    await screenshot(page, 'preview-03-posted');
  });
});
