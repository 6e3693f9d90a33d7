/**
 * The preview grid as a demanding Excel user expects it, in headless Chromium at a taskpane's 320 px and
 * on a wide screen: a value picked from an Alt+Down list leaves the keyboard in the grid (Tab moves on,
 * typing edits), a problem picked in the write-back list is scrolled into view, the Result columns are in
 * view after a Post, and a cell shows what its number format gives (a date, not its serial beside it).
 * A long text (an audit hash) shows from its start, cut at the right. Screenshots: test/e2e/screenshots/grid-*.png.
 */
import type { Locator, Page } from 'playwright-core';
import { bindPaths } from '../catalog/bind-paths';
import { connect, newTemplate, openPreview, pasteInGrid, screenshot, stackForFile, type Stack, type TestBrowser } from './harness';

let stack: Stack;
let browser: TestBrowser;
// Bound where the catalogue assumes: Post runs without the assumed-path confirmation.
stackForFile({ scale: 50, bindings: { acc: bindPaths(), prd: bindPaths() } }, (s) => ({ stack, browser } = s));

/** Whether a grid cell's box lies inside the window and inside its scrolling grid, clear of the sticky headers. */
function inViewIn(td: Element): { window: boolean; grid: boolean } {
  const box = td.getBoundingClientRect();
  const scroller = td.closest('table')!.parentElement!.getBoundingClientRect();
  const head = td.closest('table')!.querySelector('thead')!.getBoundingClientRect().height;
  const rowHead = td.closest('tr')!.querySelector('th')!.getBoundingClientRect().width;
  const inside = (a: number, b: number, lo: number, hi: number) => a >= lo - 1 && b <= hi + 1;
  return {
    window: inside(box.top, box.bottom, 0, window.innerHeight) && inside(box.left, box.right, 0, window.innerWidth),
    grid: inside(box.top, box.bottom, scroller.top + head, scroller.bottom) && inside(box.left, box.right, scroller.left + rowHead, scroller.right),
  };
}
const inView = (cell: Locator) => cell.evaluate(inViewIn);

/** Waits (Playwright's timeout) for the cell to be scrolled into view, then says where it is. */
async function scrolledIntoView(page: Page, cell: Locator): Promise<{ window: boolean; grid: boolean }> {
  await page.evaluate(`window.inViewIn = ${inViewIn.toString()}`);
  const td = await cell.elementHandle();
  await page
    .waitForFunction((el) => {
      const at = (window as unknown as { inViewIn: typeof inViewIn }).inViewIn(el!);
      return at.window && at.grid;
    }, td)
    .catch(() => undefined);
  return inView(cell);
}

describe.each([
  { width: 320, height: 720 },
  { width: 1280, height: 800 },
])('the grid as in a sheet at $width px', ({ width, height }) => {
  let page: Page;
  const grid = () => page.locator('[data-testid="preview-grid"] [role="grid"]');
  const cell = (address: string) => page.locator(`[data-testid="preview-grid"] td[data-cell="${address}"]`);
  const text = async (address: string) => (await cell(address).innerText()).replace('▾', '').trim();
  const nameBox = () => page.getByTestId('grid-name-box').innerText();
  const gridHasFocus = () => grid().evaluate((g) => g === document.activeElement);
  /** The sheet column (letters) whose header in row 1 is `name`. */
  const columnOf = async (name: string) =>
    (await page.locator('[data-testid="preview-grid"] td[data-cell$="1"]', { hasText: new RegExp(`^${name}$`) }).first().getAttribute('data-cell'))!.replace(/\d+$/, '');

  beforeAll(async () => {
    page = await openPreview(browser, stack, { width, height });
    page.setDefaultTimeout(10_000);
    expect(await connect(page, 'sandbox-acc', stack.acc.demoKey!)).toBe('ok');
    await newTemplate(page, 'incidents');
  }, 60_000);

  afterAll(() => page?.close());

  test('after a pick from an Alt+Down list the keyboard stays in the grid: Tab moves to the next cell and typing edits it', async () => {
    const classification = await columnOf('Classification');
    const next = String.fromCharCode(classification.charCodeAt(0) + 1);
    // Picked with the selection on the cell.
    await cell(`${classification}2`).click();
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByTestId('grid-list').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('grid-list').waitFor({ state: 'detached' });
    expect(await text(`${classification}2`)).not.toBe('');
    expect(await gridHasFocus()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await nameBox()).toContain(`${next}2`);
    await page.keyboard.type('typed after the list');
    expect(await page.getByTestId('grid-editor').inputValue()).toBe('typed after the list');
    await page.keyboard.press('Escape');

    // Picked while typing in the cell: the edit ends with the pick, and Tab and typing go on from there.
    await cell(`${classification}3`).click();
    await page.keyboard.type('Hi');
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByTestId('grid-list').waitFor();
    await screenshot(page, `grid-${width}-01-list-open`);
    await page.getByTestId('grid-list').getByRole('option', { name: 'High', exact: true }).click();
    await page.getByTestId('grid-list').waitFor({ state: 'detached' });
    expect(await text(`${classification}3`)).toBe('High');
    expect(await gridHasFocus()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await nameBox()).toContain(`${next}3`);
    await page.keyboard.press('Shift+Tab');
    expect(await nameBox()).toContain(`${classification}3`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Note');
    await page.keyboard.press('Escape');
    expect(await gridHasFocus()).toBe(true);
    await screenshot(page, `grid-${width}-02-after-pick-tab`);

    // Shift+Tab in column A leaves the grid: Tab moves through cells, but never traps the keyboard.
    await cell('A3').click();
    await page.keyboard.press('Shift+Tab');
    expect(await gridHasFocus()).toBe(false);
    expect(await nameBox()).toContain('A3');
  });

  test('a date shows as its format gives it, the serial number only in the tooltip', async () => {
    const detected = await columnOf('Date detected');
    await cell(`${detected}2`).click();
    await page.keyboard.type('2021-09-03');
    await page.keyboard.press('Enter');
    expect(await cell(`${detected}2`).getAttribute('data-raw')).toBe('44442');
    expect(await text(`${detected}2`)).toBe('2021-09-03');
    expect(await cell(`${detected}2`).getAttribute('title')).toContain('44442');
  });

  test('a problem picked in the write-back list is scrolled into view, far down and far right', async () => {
    const detected = await columnOf('Date detected');
    // Rows 2 to 40 (39 incidents); row 40 gets a date a sheet cannot read.
    const rows = Array.from({ length: 38 }, (_, i) => `Incident ${i + 2}\tFinance\t\t\tLow`);
    await pasteInGrid(page, 'A2', ['Phishing mail\tFinance\t\t\tLow', ...rows].join('\n'));
    await cell(`${detected}40`).click();
    await page.keyboard.type('03/04/2025');
    await page.keyboard.press('Enter');
    // Back to the top left, the taskpane in view, as a user who scrolled away.
    await page.evaluate(() => {
      document.querySelector('[data-testid="preview-grid"] [role="grid"]')!.parentElement!.scrollTo(0, 0);
      window.scrollTo(0, 0);
    });
    await page.getByTestId('wb-validate').click();
    await page.getByTestId('wb-validation').waitFor();
    const problem = page.getByTestId('problems').getByRole('button', { name: /Row 40, Date detected/ });
    expect(await inView(cell(`${detected}40`))).not.toEqual({ window: true, grid: true });
    await problem.click();
    expect(await nameBox()).toContain(`${detected}40`);
    expect(await scrolledIntoView(page, cell(`${detected}40`))).toEqual({ window: true, grid: true });
    await screenshot(page, `grid-${width}-03-problem-in-view`);
    // Fixed, so the post below sends every row. Focus stayed on the list (as on a taskpane's button in
    // Excel): the cell is clicked to type in it.
    await cell(`${detected}40`).click();
    await page.keyboard.type('2025-03-04');
    await page.keyboard.press('Enter');
  });

  test('after a Post the Result columns are in view, the Result time a date-time alone', async () => {
    await page.evaluate(() => {
      document.querySelector('[data-testid="preview-grid"] [role="grid"]')!.parentElement!.scrollTo(0, 0);
      window.scrollTo(0, 0);
    });
    await page.getByTestId('wb-validate').click();
    await page.locator('[data-testid="wb-ready"]', { hasText: '39 rows ready' }).waitFor();
    await page.getByTestId('wb-post').click();
    await page.getByTestId('post-done').waitFor({ timeout: 30_000 });
    const result = await columnOf('Result');
    const time = await columnOf('Result time');
    expect(await nameBox()).toContain(`${result}2`);
    expect(await scrolledIntoView(page, cell(`${result}2`))).toEqual({ window: true, grid: true });
    // On a wide screen the four Result columns are in view together.
    if (width >= 1280) expect(await inView(cell(`${time}2`))).toEqual({ window: true, grid: true });
    expect(await text(`${result}2`)).toBe('created');
    expect(await text(`${time}2`)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(Number(JSON.parse((await cell(`${time}2`).getAttribute('data-raw'))!))).toBeGreaterThan(45_000);
    await screenshot(page, `grid-${width}-04-posted-results`);
  });
});

describe('a long text in a cell', () => {
  let page: Page;
  const cell = (address: string) => page.locator(`[data-testid="preview-grid"] td[data-cell="${address}"]`);
  /** Where the cell's text is drawn against the cell's padding box: left and right gaps, in px. */
  const gaps = (address: string) =>
    cell(address).evaluate((td) => {
      const text = document.createRange();
      text.selectNodeContents(td);
      const at = text.getBoundingClientRect();
      const box = td.getBoundingClientRect();
      const style = getComputedStyle(td);
      const inner = { left: box.left + td.clientLeft + parseFloat(style.paddingLeft), right: box.left + td.clientLeft + td.clientWidth - parseFloat(style.paddingRight) };
      return { left: at.left - inner.left, right: inner.right - at.right, cut: at.width > inner.right - inner.left };
    });
  // An audit entry's hash: 64 hex digits, far wider than a column.
  const hash = '7c66f0e1d2c3b4a5'.repeat(4);

  beforeAll(async () => {
    page = await openPreview(browser, stack);
    await pasteInGrid(page, 'B2', `${hash}\t12345`);
    await cell('A1').click();
  }, 60_000);

  afterAll(() => page?.close());

  test('shows from its start, cut at the right, even once something has scrolled the cell (a script, find in page)', async () => {
    expect(await gaps('B2')).toEqual({ left: expect.closeTo(0, 0), right: expect.any(Number), cut: true });
    // The test helpers that scroll "everything that overflows" to its end, as the browser's find does for
    // a match: a cell's text must not move.
    await cell('B2').evaluate((td) => (td.scrollLeft = td.scrollWidth));
    expect((await gaps('B2')).left).toBeCloseTo(0, 0);
    await screenshot(page, 'grid-long-text');
  });

  test('a number aligns right, as in Excel', async () => {
    const at = await gaps('C2');
    expect(at.right).toBeCloseTo(0, 0);
    expect(at.left).toBeGreaterThan(0);
  });
});
