/**
 * Workbook safety in the preview, in headless Chromium: a render error shows the error boundary (a readable
 * message and Copy details, never a blank pane), and loading at a selected cell above the user's own cells
 * asks before overwriting them.
 */
import type { Page } from 'playwright-core';
import { connect, openPreview, pasteInGrid, stackForFile, type Stack, type TestBrowser } from './harness';

let stack: Stack;
let browser: TestBrowser;
stackForFile({ scale: 50 }, (s) => ({ stack, browser } = s));

const grid = (page: Page, address: string) => page.locator(`[data-testid="preview-grid"] td[data-cell="${address}"]`);

test('a render error shows a readable message and Copy details, not a blank pane', async () => {
  const page = await browser.context.newPage();
  // What "Copy details" hands the clipboard, recorded before the page's own code runs.
  await page.addInitScript(() => {
    const copied: string[] = [];
    (window as { __copied?: string[] }).__copied = copied;
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void copied.push(t) }, configurable: true });
  });
  await page.goto(`${stack.previewUrl}?preview-fail=render`);
  const bar = page.getByTestId('error-boundary');
  await bar.waitFor();
  const text = await bar.innerText();
  expect(text).toContain('GRC Sheets stopped: close and reopen the add-in');
  expect(text).toContain('The preview grid failed to render');
  await page.getByTestId('copy-error-details').click();
  await page.waitForFunction(() => ((window as { __copied?: string[] }).__copied ?? []).length > 0);
  const copied = await page.evaluate(() => (window as { __copied?: string[] }).__copied!);
  expect(copied[0]).toMatch(/^GRC Sheets error at \d{4}-.*\nError: The preview grid failed to render/);
  expect(copied[0]).toContain('Component stack:');
  await page.close();
});

test('loading at a selected cell above the user\'s cells asks first: Keep my cells keeps them, Overwrite loads', async () => {
  const page = await openPreview(browser, stack);
  expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
  await pasteInGrid(page, 'D6', 'precious\tmine too');
  await expect(grid(page, 'D6').getAttribute('data-raw')).resolves.toBe('"precious"');

  const loadAtC3 = async () => {
    await grid(page, 'C3').click();
    await page.getByRole('tab', { name: 'Datasets' }).click();
    await page.getByTestId('dataset-audittype').click();
    await page.getByRole('radio', { name: 'At the selected cell' }).check();
    await page.getByTestId('load').click();
  };

  await loadAtC3();
  const question = page.getByTestId('load-error');
  await question.waitFor();
  expect(await question.innerText()).toMatch(/Cells Sheet1!D6(:E6)? hold data that the table at C3 would overwrite/);
  await page.getByRole('button', { name: 'Keep my cells' }).click();
  await expect(question.count()).resolves.toBe(0);
  await expect(grid(page, 'D6').getAttribute('data-raw')).resolves.toBe('"precious"');
  await expect(grid(page, 'E6').getAttribute('data-raw')).resolves.toBe('"mine too"');
  await expect(grid(page, 'C3').getAttribute('data-raw')).resolves.toBeNull();

  await loadAtC3();
  await question.waitFor();
  await page.getByTestId('load-overwrite').click();
  await page.getByTestId('load-done').waitFor();
  await expect(grid(page, 'C3').getAttribute('data-raw')).resolves.toBe('"Name"');
  await expect(grid(page, 'D6').getAttribute('data-raw')).resolves.not.toBe('"precious"');
  await page.close();
});
