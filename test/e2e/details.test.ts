/**
 * The details a demanding user noticed (issue 28), in headless Chromium at a taskpane's 350 px and on a
 * wide screen: the write-back pane leads with what to act on (problems above the fold, Validate before Post
 * until rows are ready, nothing stale after a post), a problem picked hands the keyboard to its cell, the
 * grid keeps each sheet's own scroll and draws its focus ring round its box, the table a load makes far below
 * a narrow pane is brought into sight at once, and a mistyped key on a second Connect keeps the connection.
 * Screenshots: test/e2e/screenshots/details-*.png.
 */
import type { Page } from 'playwright-core';
import type { MemoryWorkbook } from '../../src/workbook/memory';
import { bindPaths } from '../catalog/bind-paths';
import { connect, loadDataset, newTemplate, openPreview, pasteRowsByName, screenshot, stackForFile, type Stack, type TestBrowser } from './harness';

let stack: Stack;
let browser: TestBrowser;
// Bound where the catalogue assumes: Post runs without the assumed-path confirmation.
stackForFile({ scale: 40, bindings: { acc: bindPaths(), prd: bindPaths() } }, (s) => ({ stack, browser } = s));

/** Rows 2 and 3 identical (a warning on each), row 4 without a name (an error). */
const ROWS = [
  ['Name', 'Reporting organization', 'Classification'],
  ['Door left open', 'Finance', 'Low'],
  ['Door left open', 'Finance', 'Low'],
  ['', 'Finance', 'Low'],
];

const marksOf = (page: Page, table: string) =>
  page.evaluate((name) => {
    const wb = (window as unknown as { __grcPreviewWorkbook: MemoryWorkbook }).__grcPreviewWorkbook;
    return wb.snapshot().tables.find((t) => t.name === name)?.marks.map((m) => `${m.row}:${m.column}:${m.kind}`) ?? [];
  }, table);

/** The button's fill: Fluent's primary button is the brand colour, the others the plain background. */
async function fill(page: Page, testId: string): Promise<string> {
  // Away from the buttons: a hovered button has its hover fill.
  await page.mouse.move(1, 1);
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  return page.getByTestId(testId).evaluate((b) => getComputedStyle(b).backgroundColor);
}

describe.each([
  { width: 350, height: 640 },
  { width: 1280, height: 800 },
])('the write-back pane at $width px', ({ width, height }) => {
  let page: Page;
  beforeAll(async () => {
    page = await openPreview(browser, stack, { width, height });
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
  });
  afterAll(async () => {
    await page?.close();
  });

  it('leads with Validate until rows are ready, shows the problems before the options, and nothing stale after a post', async () => {
    await newTemplate(page, 'incidents');
    const plain = await fill(page, 'wb-post');
    // Before any row exists, Post is not the primary button: Validate is.
    expect(await fill(page, 'wb-validate')).not.toBe(plain);
    await pasteRowsByName(page, 'A2', ROWS);
    await page.getByTestId('wb-validate').click();
    await page.getByTestId('wb-validation').waitFor();
    expect(await page.getByTestId('wb-ready').innerText()).toBe('2 rows ready');
    // The first problem is in the window without scrolling; the post's options come after the problems.
    await page.evaluate(() => window.scrollTo(0, 0));
    const first = (await page.getByTestId('problems').locator('li').first().boundingBox())!;
    expect(first.y + first.height).toBeLessThanOrEqual(height);
    const options = (await page.getByText('At once', { exact: true }).boundingBox())!;
    expect(options.y).toBeGreaterThan(first.y);
    // Rows are ready: Post leads now.
    expect(await fill(page, 'wb-validate')).toBe(plain);
    expect(await fill(page, 'wb-post')).not.toBe(plain);
    await screenshot(page, `details-wb-validated-${width}`);

    // The error is fixed by picking it and typing: the keys go to its cell.
    await page.getByTestId('problem-error').first().locator('button').click();
    await page.keyboard.type('Door found open');
    await page.keyboard.press('Enter');
    const typed = await page.evaluate(() => {
      const wb = (window as unknown as { __grcPreviewWorkbook: MemoryWorkbook }).__grcPreviewWorkbook;
      return wb.snapshot().tables.find((t) => t.name.startsWith('GrcIncidents'))!.rows.map((r) => r[0]);
    });
    expect(typed).toEqual(['Door left open', 'Door left open', 'Door found open']);

    // Posted (the two identical rows with their warning, the fixed row after it): no list is left, and no
    // mark of the warning on rows the service now has.
    await page.getByTestId('wb-validate').click();
    await page.getByTestId('wb-ready').filter({ hasText: '3 rows ready' }).waitFor();
    await page.getByTestId('wb-post').click();
    await page.getByTestId('post-done').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('post-done').innerText()).toContain('3 created');
    expect(await page.getByTestId('wb-validation').count()).toBe(0);
    expect(await page.getByTestId('wb-ready').count()).toBe(0);
    const table = await page.getByTestId('wb-table').inputValue();
    expect(await marksOf(page, table)).toEqual([]);
    expect(await fill(page, 'wb-post')).toBe(plain);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `details-wb-posted-${width}`);
  }, 60_000);

  it('a second Connect with a mistyped password keeps the connection that works, and says so', async () => {
    expect(await connect(page, 'sandbox-acc', { identifier: stack.acc.demoKey!.identifier, password: 'mistyped' })).toBe('failed');
    expect(await page.getByTestId('connect-error').innerText()).toContain('The key is not accepted in sandbox-acc');
    expect(await page.getByTestId('connect-kept').innerText()).toBe('Still connected to sandbox-acc with the key that worked before. Disconnect to drop it.');
    expect(await page.getByTestId('env-badge').innerText()).toBe('sandbox-acc');
    await screenshot(page, `details-connect-kept-${width}`);
    // The kept connection still works: a dataset loads.
    expect(await loadDataset(page, 'risk')).toMatch(/Loaded 40 rows/);
  });
});

describe('the grid', () => {
  let page: Page;
  const scroller = () => page.locator('[data-testid="preview-grid"] [role="grid"]').locator('xpath=..');
  afterEach(async () => {
    await page?.close();
  });

  it('keeps each sheet its own scroll, counts no header as a row, says "empty" in a tooltip, and rings its box, not a line', async () => {
    page = await openPreview(browser, stack, { width: 1280, height: 800 });
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
    await newTemplate(page, 'incidents');
    const template = await page.getByTestId('wb-table').inputValue();
    await pasteRowsByName(page, 'A2', ROWS.slice(0, 3));
    expect(await page.getByTestId('grid-rows').innerText()).toBe('Rows 1–3');
    // An empty cell of the template (a column nobody filled): its tooltip says so in words, not "null".
    const empty = page.locator('[data-testid="preview-grid"] td[data-raw="null"][title]').first();
    const address = await empty.getAttribute('data-cell');
    expect(await empty.getAttribute('title')).toMatch(new RegExp(`^${address}: empty · format `));
    await scroller().evaluate((box) => (box.scrollLeft = 600));
    expect(await scroller().evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
    await loadDataset(page, 'risk');
    // A sheet shown for the first time starts at its first column, not at the template's scroll.
    expect(await scroller().evaluate((box) => box.scrollLeft)).toBe(0);
    await page.getByTestId(`sheet-${(await page.evaluate((name) => (window as unknown as { __grcPreviewWorkbook: MemoryWorkbook }).__grcPreviewWorkbook.snapshot().tables.find((t) => t.name === name)!.sheet, template))}`).click();
    expect(await scroller().evaluate((box) => box.scrollLeft)).toBe(600);

    // The keyboard's ring: round the grid's box, none on the table (wider than the box, it was a stray line).
    await page.locator('[data-testid="preview-grid"] td[data-cell="B2"]').click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const rings = await page.locator('[data-testid="preview-grid"] [role="grid"]').evaluate((table) => ({
      focused: document.activeElement === table,
      table: getComputedStyle(table).outlineStyle,
      box: getComputedStyle(table.parentElement!).outlineStyle,
    }));
    expect(rings).toEqual({ focused: true, table: 'none', box: 'solid' });
    await screenshot(page, 'details-grid-focus-1280');
  }, 60_000);

  it('at 350 px, the table a load makes is seen at once: the page goes to the grid, far below the pane', async () => {
    page = await openPreview(browser, stack, { width: 350, height: 640 });
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
    // The Datasets tab is long at 350 px: the grid under it starts thousands of pixels down.
    await page.getByRole('tab', { name: 'Datasets' }).click();
    const gridTop = () => page.getByTestId('preview-grid').evaluate((g) => g.getBoundingClientRect().top + window.scrollY);
    await page.getByTestId('dataset-risk').waitFor();
    expect(await gridTop()).toBeGreaterThan(2 * 640);
    const scrolledBefore = await page.evaluate(() => window.scrollY);
    await loadDataset(page, 'risk');
    // No press: the grid is in the window, its header row and the first rows of the new table with it.
    const inView = await page.getByTestId('preview-grid').evaluate((g) => {
      const box = g.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: window.innerHeight };
    });
    expect(inView.top).toBeGreaterThanOrEqual(-1);
    expect(inView.top).toBeLessThan(inView.height / 2);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolledBefore);
    const firstRow = (await page.locator('[data-testid="preview-grid"] td[data-cell="A2"]').boundingBox())!;
    expect(firstRow.y + firstRow.height).toBeLessThanOrEqual(640);
    expect(await page.locator('[data-testid="preview-grid"] td[data-cell="A1"]').innerText()).not.toBe('');
    expect(await page.getByTestId('grid-rows').innerText()).toBe('Rows 1–41');
    await screenshot(page, 'details-grid-shown-350');
  }, 60_000);
});
